/**
 * Reads `read()` every 100 ms until `done(value)` holds, and returns that value; past
 * `timeoutMs` it fails, naming `what`. For state another process reaches in the background
 * (a job taken over once a lease expires).
 */
export async function eventually<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`still waiting after ${timeoutMs} ms for ${what}; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
