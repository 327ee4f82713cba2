import { useEffect } from 'react';
import { useQuery } from '@apollo/client/react';
import { JOB, type JobInfo } from './operations.ts';

/** A job started from this page, with the name of the node it moves or deletes. */
export interface TrackedJob {
  job: JobInfo;
  name: string;
}

const POLL_MS = 300;
const VERBS: Record<JobInfo['kind'], string> = {
  MOVE: 'Moving',
  DELETE: 'Deleting',
  IMPORT: 'Importing',
  REINDEX: 'Reindexing',
};
const count = new Intl.NumberFormat();

/**
 * The jobs started from this page, in one live region (it exists before any job does, so that
 * screen readers announce what appears in it). Each one polls `job(id)` until it is no longer
 * RUNNING; the page stays usable meanwhile.
 */
export function JobList({
  jobs,
  onFinished,
  onDismiss,
}: {
  jobs: TrackedJob[];
  onFinished: (id: string, status: JobInfo['status']) => void;
  onDismiss: (id: string) => void;
}) {
  return (
    <div role="status" aria-live="polite" aria-label="Background jobs" className="jobs">
      {jobs.map((tracked) => (
        <JobProgress key={tracked.job.id} tracked={tracked} onFinished={onFinished} onDismiss={onDismiss} />
      ))}
    </div>
  );
}

/**
 * One job: a progress bar (indeterminate while the total is unknown, as for a move) and "Moving
 * Oaks… 120 of 2,041 nodes". Calls `onFinished` once it is DONE or FAILED (a job the server no
 * longer knows counts as done); a failed job stays on screen until dismissed.
 */
function JobProgress({
  tracked,
  onFinished,
  onDismiss,
}: {
  tracked: TrackedJob;
  onFinished: (id: string, status: JobInfo['status']) => void;
  onDismiss: (id: string) => void;
}) {
  const { id } = tracked.job;
  const { data, stopPolling } = useQuery(JOB, {
    variables: { id },
    fetchPolicy: 'network-only',
    pollInterval: POLL_MS,
  });
  const job = data === undefined ? tracked.job : (data.job ?? { ...tracked.job, status: 'DONE' as const });
  const { status } = job;
  useEffect(() => {
    if (status === 'RUNNING') return;
    stopPolling();
    onFinished(id, status);
  }, [id, status, stopPolling, onFinished]);

  const label = `${VERBS[job.kind]} ${tracked.name}`;
  if (status === 'DONE') return null;
  if (status === 'FAILED') {
    return (
      <p className="job failed" data-job-id={id}>
        {label} failed after {count.format(job.done)} nodes.{' '}
        <button type="button" onClick={() => onDismiss(id)}>
          Dismiss
        </button>
      </p>
    );
  }
  return (
    <p className="job" data-job-id={id}>
      <progress aria-label={label} value={job.total === null ? undefined : job.done} max={job.total ?? undefined} />
      <span>
        {label}… {count.format(job.done)}
        {job.total !== null && ` of ${count.format(job.total)}`} nodes
      </span>
    </p>
  );
}
