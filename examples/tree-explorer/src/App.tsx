import { useCallback, useMemo, useState } from 'react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { GRAPHQL_URL } from './client.ts';
import { Details } from './Details.tsx';
import { ExplorerContext, type Explorer } from './explorer.ts';
import { JobList, type TrackedJob } from './Jobs.tsx';
import { MoveDialog } from './MoveDialog.tsx';
import { PAGE_SIZE, ROOTS, type JobInfo, type NodeDetails } from './operations.ts';
import { LoadMore, TreeItem } from './Tree.tsx';

export function App() {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [moving, setMoving] = useState<NodeDetails | null>(null);
  const [jobs, setJobs] = useState<TrackedJob[]>([]);
  const client = useApolloClient();

  const toggle = useCallback((id: string) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const explorer = useMemo<Explorer>(
    () => ({ selectedId, select: setSelectedId, isExpanded: (id) => expanded.has(id), toggle }),
    [selectedId, expanded, toggle],
  );

  /** A big move or delete answers at once and goes on as a job: show its progress meanwhile. */
  const track = useCallback((job: JobInfo | null, name: string) => {
    if (job?.status !== 'RUNNING') return;
    setJobs((current) => (current.some((t) => t.job.id === job.id) ? current : [...current, { job, name }]));
  }, []);
  const dismiss = useCallback((id: string) => setJobs((current) => current.filter((t) => t.job.id !== id)), []);
  /** Reads already answered as if the job were done; refresh what is on screen (counts, pendingJob). */
  const onJobFinished = useCallback(
    (id: string, status: JobInfo['status']) => {
      if (status !== 'FAILED') dismiss(id);
      client.refetchQueries({ include: 'active' }).catch(() => undefined); // each query shows its own error
    },
    [client, dismiss],
  );

  /** After a move, open the path to the moved node so that it is visible where it went. */
  const onMoved = useCallback(
    (moved: NodeDetails) => {
      setExpanded((current) => new Set([...current, ...moved.ancestors.map((ancestor) => ancestor.id)]));
      setSelectedId(moved.id);
      setMoving(null);
      track(moved.pendingJob, moved.name);
    },
    [track],
  );

  /** After a delete, select the deleted node's parent (none for a root). */
  const onDeleted = useCallback(
    (deleted: NodeDetails, job: JobInfo | null) => {
      setSelectedId(deleted.parentId);
      track(job, deleted.name);
    },
    [track],
  );

  return (
    <ExplorerContext.Provider value={explorer}>
      <header className="app-header">
        <h1>Canopy tree explorer</h1>
        <span className="endpoint">{GRAPHQL_URL}</span>
      </header>
      <JobList jobs={jobs} onFinished={onJobFinished} onDismiss={dismiss} />
      <main className="layout">
        <section className="tree-pane" aria-label="Tree">
          <Roots />
        </section>
        <section className="details-pane" aria-label="Selected node">
          {selectedId ? (
            <Details key={selectedId} id={selectedId} onMove={setMoving} onDeleted={onDeleted} />
          ) : (
            <p className="hint">Select a node to see its breadcrumbs and move it.</p>
          )}
        </section>
      </main>
      {moving && <MoveDialog node={moving} onClose={() => setMoving(null)} onMoved={onMoved} />}
    </ExplorerContext.Provider>
  );
}

function Roots() {
  const { data, error, loading, fetchMore } = useQuery(ROOTS, {
    variables: { first: PAGE_SIZE },
    fetchPolicy: 'cache-and-network',
  });
  if (error) return <p role="alert" className="error">Could not load the roots: {error.message}</p>;
  if (!data) return <p className="loading">{loading ? 'Loading…' : 'No data'}</p>;
  const { nodes, pageInfo } = data.roots;
  return (
    <>
      {nodes.length === 0 && <p className="hint">The tree is empty.</p>}
      <ul role="tree" aria-label="Roots" className="tree">
        {nodes.map((node) => (
          <TreeItem key={node.id} node={node} level={1} />
        ))}
      </ul>
      {pageInfo.hasNextPage && (
        <LoadMore label="Load more roots" onLoad={() => fetchMore({ variables: { after: pageInfo.endCursor } })} />
      )}
    </>
  );
}
