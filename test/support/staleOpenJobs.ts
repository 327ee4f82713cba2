import type { startTestServer } from './server.js';

/**
 * A fault middleware: once `capture()`d, keeps the summary of the open jobs (JOBS/OPEN) of the
 * next BatchGetItem that reads it; once `replay()`ed, serves that old summary in place of the
 * current one to the next BatchGetItem that reads it (the rest of the answer as DynamoDB gave
 * it), as DynamoDB may when it reads the summary just before a job's start and the nodes after.
 */
export function staleOpenJobs() {
  // Items as the middleware meets them: plain values, or DynamoDB's attribute values.
  type Raw = Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'object' && value !== null ? (value as { S?: string }).S : value);
  let mode: 'off' | 'capture' | 'replay' = 'off';
  /** The summary as captured; null: there was none yet (no job ever opened). */
  let kept: Raw | null = null;
  let served = false;
  const isOpenList = (item: Raw) => text(item.pk) === 'JOBS' && text(item.sk) === 'OPEN';
  const middleware: NonNullable<Parameters<typeof startTestServer>[0]>['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName !== 'BatchGetItemCommand' || mode === 'off') return result;
        const requested = (args.input as { RequestItems: Record<string, { Keys: Raw[] }> }).RequestItems;
        const table = Object.keys(requested).find((name) => requested[name]!.Keys.some(isOpenList));
        if (table === undefined) return result;
        const output = result.output as { Responses?: Record<string, Raw[]> };
        const items = ((output.Responses ??= {})[table] ??= []);
        const at = items.findIndex(isOpenList);
        if (mode === 'capture') kept = at >= 0 ? items[at]! : null;
        else {
          if (at >= 0) items.splice(at, 1);
          if (kept) items.push(kept);
          served = true;
        }
        mode = 'off';
        return result;
      },
      { step: 'initialize', name: 'staleOpenJobs' },
    );
  return {
    middleware,
    capture: () => (mode = 'capture'),
    replay: () => (mode = 'replay'),
    replayed: () => served,
  };
}
