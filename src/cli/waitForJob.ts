import { Presets, SingleBar } from 'cli-progress';
import type { Job, TreeStore } from '../storage/treeStore.js';

/** How often `jobs --wait` reads the job's progress. */
const WAIT_POLL_MS = 500;

/** Shows a job's progress until it is no longer running; answers it as it ended (none if unknown). */
export async function waitForJob(store: TreeStore, id: string): Promise<Job | undefined> {
  const bar = new SingleBar(
    { format: 'job [{bar}] {value}/{total} nodes', stream: process.stderr },
    Presets.shades_classic,
  );
  let started = false;
  for (;;) {
    const job = (await store.getJobs([id])).get(id);
    if (!job) {
      console.error(`no job ${id}`);
      return undefined;
    }
    if (!started) bar.start(job.total ?? job.done, job.done);
    started = true;
    bar.setTotal(job.total ?? job.done);
    bar.update(job.done);
    if (job.status !== 'RUNNING') {
      bar.stop();
      console.log(`job ${id}: ${job.kind} ${job.status}, ${job.done} node(s)`);
      return job;
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}
