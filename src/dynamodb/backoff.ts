/** Full-jitter exponential backoff: a random delay in [0, min(cap, base * 2^attempt)). */
export function backoffDelay(attempt: number, baseMs = 25, capMs = 1000): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** attempt);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
