/** Runs `work` on every item, at most `limit` at a time. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/**
 * Runs `work` on every item, at most `limit` at a time, the items that `work` adds (`push`)
 * included; after a failure it takes no new item, and throws the first failure once the
 * running ones ended.
 */
export function drainQueue<T>(
  initial: readonly T[],
  limit: number,
  work: (item: T, push: (item: T) => void) => Promise<void>,
): Promise<void> {
  const queue = [...initial];
  let running = 0;
  let failure: { error: Error } | undefined;
  return new Promise((resolve, reject) => {
    const pump = () => {
      if (failure) {
        if (running === 0) reject(failure.error);
        return;
      }
      if (queue.length === 0 && running === 0) return resolve();
      while (running < limit && queue.length > 0) {
        running++;
        work(queue.shift()!, (item) => queue.push(item)).then(
          () => {
            running--;
            pump();
          },
          (error: unknown) => {
            running--;
            failure ??= { error: error instanceof Error ? error : new Error(String(error)) };
            pump();
          },
        );
      }
    };
    pump();
  });
}
