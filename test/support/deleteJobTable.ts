import { inject } from 'vitest';
import { createDynamo } from '../../src/dynamodb/client.js';
import { scanTable } from '../../src/dynamodb/scan.js';
import { chainsOf } from '../../src/storage/engine/core/chains.js';
import { kindOf } from '../../src/storage/maintenance/kindOf.js';
import { eventually } from './eventually.js';

/** A table as a delete job left it: its nodes, edges, every node's chain, its jobs and those running. */
export async function tableState(table: string) {
  const { doc, client } = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
  try {
    const items = await scanTable(doc, table);
    const nodes = new Map(items.filter((i) => kindOf(i) === 'node').map((i) => [String(i.id), i]));
    const edges = items.filter((i) => kindOf(i) === 'edge').map((i) => String(i.id));
    const jobs = items.filter((i) => i.pk === 'JOBS' && String(i.sk).startsWith('JOB#'));
    return { nodes, edges, facts: chainsOf(nodes, 64), jobs, running: jobs.filter((j) => j.status === 'RUNNING') };
  } finally {
    client.destroy();
  }
}

/**
 * Waits, a bounded time, until no job of the table is running; then the table as it is. A scan is
 * no snapshot (its segments are read at once): the one that saw the job done may have read a node
 * before the job removed it, so the table is read again once nothing runs.
 */
export async function untilJobsDone(table: string) {
  await eventually(
    'no running job',
    () => tableState(table),
    (state) => state.running.length === 0,
  );
  return tableState(table);
}
