import { useCallback, useMemo, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { ENDPOINT } from './client.ts';
import { DeleteDialog } from './DeleteDialog.tsx';
import { Deleted } from './Deleted.tsx';
import { SharedWithMe } from './SharedWithMe.tsx';
import { explainFailure } from './failure.ts';
import { Details } from './Details.tsx';
import { DragStore } from './dragStore.ts';
import { ExplorerContext, type DeleteTarget, type Explorer } from './explorer.ts';
import { JobList, type TrackedJob } from './Jobs.tsx';
import { MoveDialog } from './MoveDialog.tsx';
import { NewNodeForm } from './NewNodeForm.tsx';
import { COPY_SUBTREE, type JobInfo, type NodeDetails, type TreeNode } from './operations.ts';
import type { MovePlan } from './movePlan.ts';
import { refreshScreen } from './refreshScreen.ts';
import { Roots } from './Roots.tsx';
import { useMoveNode } from './useMoveNode.ts';
import { useRovingFocus } from './useRovingFocus.ts';
import { useUndo } from './useUndo.ts';

export function App() {
  const client = useApolloClient();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // The same set for the move in progress, which reads it between renders.
  const expandedNow = useRef(expanded);
  expandedNow.current = expanded;
  const [renamingId, setRenamingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const [moving, setMoving] = useState<NodeDetails | null>(null);
  const [copying, setCopying] = useState<NodeDetails | null>(null);
  const [jobs, setJobs] = useState<TrackedJob[]>([]);
  const [announcement, setAnnouncement] = useState({ text: '', serial: 0 });
  const [drag] = useState(() => new DragStore());
  const treePane = useRef<HTMLElement>(null);
  const roving = useRovingFocus(treePane);
  const { focus } = roving;

  const announce = useCallback(
    (text: string) => setAnnouncement((current) => ({ text, serial: current.serial + 1 })),
    [],
  );
  const setOpen = useCallback((id: string, open: boolean) => {
    setExpanded((current) => {
      if (current.has(id) === open) return current;
      const next = new Set(current);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const toggle = useCallback((id: string) => setOpen(id, !expandedNow.current.has(id)), [setOpen]);
  const reveal = useCallback(
    (ids: readonly string[]) =>
      setExpanded((current) => (ids.every((id) => current.has(id)) ? current : new Set([...current, ...ids]))),
    [],
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

  const undo = useUndo(announce);
  const { remember, rememberDelete } = undo;
  const { move, refusal, dismissRefusal } = useMoveNode({
    isExpanded: (id) => expandedNow.current.has(id),
    setOpen,
    reveal,
    focus,
    announce,
    moved: (node) => {
      track(node.pendingJob, node.name);
      void remember(node.id, `move of ${node.name}`);
    },
  });

  /** A copy where a drop with Ctrl or Alt held put it; the copy is selected, the original stays. */
  const copy = useCallback(
    async (plan: MovePlan) => {
      const { node } = plan;
      try {
        const { data } = await client.mutate({
          mutation: COPY_SUBTREE,
          variables: {
            id: node.id,
            newParentId: plan.toParentId,
            before: plan.before ?? null,
            after: plan.after ?? null,
          },
        });
        await refreshScreen(client);
        const made = data?.copySubtree.node;
        if (!made) return;
        if (plan.toParentId) setOpen(plan.toParentId, true);
        setSelectedId(made.id);
        focus(made.id);
        announce(`Copied ${node.name} ${plan.where} (${data.copySubtree.copiedCount} nodes).`);
        void remember(made.id, `copy of ${node.name}`);
      } catch (error) {
        const failure = await explainFailure(error);
        announce(`Could not copy ${node.name} ${plan.where}: ${failure.code} ${failure.message}`);
      }
    },
    [client, setOpen, focus, announce, remember],
  );

  const explorer = useMemo<Explorer>(
    () => ({
      selectedId,
      focusedId: roving.focusedId,
      renamingId,
      drag,
      isExpanded: (id) => expanded.has(id),
      select: setSelectedId,
      toggle,
      setOpen,
      focus,
      wantsFocus: roving.wantsFocus,
      focused: roving.focused,
      move: (plan) => void move(plan),
      copy: (plan) => void copy(plan),
      remember: (nodeId, label) => void remember(nodeId, label),
      announce,
      startRename: setRenamingId,
      endRename: () => setRenamingId(null),
      requestDelete: setDeleting,
    }),
    [
      selectedId,
      roving.focusedId,
      roving.wantsFocus,
      roving.focused,
      renamingId,
      drag,
      expanded,
      toggle,
      setOpen,
      focus,
      move,
      copy,
      remember,
      announce,
    ],
  );

  /** After the move dialog, open the path to the moved node so that it is visible where it went. */
  const onMoved = useCallback(
    (moved: NodeDetails) => {
      reveal(moved.ancestors.map((ancestor) => ancestor.id));
      setSelectedId(moved.id);
      setMoving(null);
      focus(moved.id);
      track(moved.pendingJob, moved.name);
      void remember(moved.id, `move of ${moved.name}`);
    },
    [reveal, focus, track, remember],
  );
  /** After the copy dialog: the copy is selected, its parent opened. */
  const onCopied = useCallback(
    (made: TreeNode, count: number) => {
      if (made.parentId) setOpen(made.parentId, true);
      setCopying(null);
      setSelectedId(made.id);
      focus(made.id);
      announce(`Copied ${made.name} (${count} nodes).`);
      void remember(made.id, `copy of ${made.name}`);
    },
    [setOpen, focus, announce, remember],
  );

  /** A new node is selected and focused, its parent opened. */
  const onCreated = useCallback(
    (node: TreeNode, parent: TreeNode | null) => {
      if (parent) setOpen(parent.id, true);
      setSelectedId(node.id);
      focus(node.id);
      announce(parent ? `Created ${node.name} in ${parent.name}.` : `Created the root ${node.name}.`);
      void remember(node.id, `creation of ${node.name}`);
    },
    [setOpen, focus, announce, remember],
  );

  /** After a delete, the deleted node's parent is selected and focused (for a root: the first root takes Tab). */
  const onDeleted = useCallback(
    ({ node, parentId }: DeleteTarget, deletedCount: number, job: JobInfo | null) => {
      setDeleting(null);
      setSelectedId(parentId);
      if (parentId) focus(parentId);
      announce(
        job
          ? `Deleting ${node.name} and its subtree…`
          : `Deleted ${node.name} (${deletedCount} ${deletedCount === 1 ? 'node' : 'nodes'}).`,
      );
      track(job, node.name);
      rememberDelete(node.id, `delete of ${node.name}`);
    },
    [focus, announce, track, rememberDelete],
  );
  const closeDelete = useCallback(() => {
    if (deleting) focus(deleting.node.id);
    setDeleting(null);
  }, [deleting, focus]);
  const closeMove = useCallback(() => setMoving(null), []);
  const closeCopy = useCallback(() => setCopying(null), []);

  return (
    <ExplorerContext.Provider value={explorer}>
      <header className="app-header">
        <h1>Canopy tree explorer</h1>
        <span className="endpoint">{ENDPOINT}</span>
        <button
          type="button"
          className="undo"
          disabled={!undo.last}
          title="Ctrl+Z"
          onClick={() => void undo.undoLast()}
        >
          {undo.last ? `Undo ${undo.last.label}` : 'Undo'}
        </button>
      </header>
      {undo.refusal && (
        <div role="alert" className="refusal undo-refusal">
          <p>
            Could not undo the {undo.refusal.label}: <strong className="code">{undo.refusal.code}</strong>{' '}
            <span className="message">{undo.refusal.message}</span>
          </p>
          <button type="button" onClick={undo.dismiss}>
            Dismiss
          </button>
        </div>
      )}
      <JobList jobs={jobs} onFinished={onJobFinished} onDismiss={dismiss} />
      <main className="layout">
        <section
          ref={treePane}
          className="tree-pane"
          aria-label="Tree"
          onDragOver={(event) => {
            // Over the pane but not over a row (a gap, "Load more"): nowhere to drop.
            if (!(event.target instanceof Element) || !event.target.closest('.tree-row')) drag.aim(null);
          }}
          onDragLeave={(event) => {
            // The pointer left the tree while dragging: no drop indicator stays behind.
            if (!(event.relatedTarget instanceof Node) || !event.currentTarget.contains(event.relatedTarget))
              drag.aim(null);
          }}
        >
          {refusal && (
            <div role="alert" className="refusal move-refusal">
              <p>
                {refusal.what}: <strong className="code">{refusal.code}</strong>{' '}
                <span className="message">{refusal.message}</span>
              </p>
              <button type="button" onClick={dismissRefusal}>
                Dismiss
              </button>
            </div>
          )}
          <Roots />
          <p role="status" aria-live="polite" aria-label="Tree changes" className="announcer">
            <span key={announcement.serial}>{announcement.text}</span>
          </p>
          <NewNodeForm parent={null} onCreated={(node) => onCreated(node, null)} />
          <SharedWithMe />
          <Deleted
            onRestored={(node) => {
              setSelectedId(node.id);
              focus(node.id);
              announce(`Restored ${node.name}.`);
            }}
          />
          <p className="hint keys">
            Keys: arrows move the focus (Right/Left open and close), Enter selects, F2 renames, Delete deletes;
            Alt+Up/Down reorder, Alt+Right moves into the previous sibling, Alt+Left moves out after the parent. Or drag
            a row: onto its top or bottom edge to place it before or after, onto its middle to move it inside; hold Ctrl
            or Alt as you drop to copy it there instead. Ctrl+Z undoes the last change made here.
          </p>
        </section>
        <section className="details-pane" aria-label="Selected node">
          {selectedId ? (
            <Details key={selectedId} id={selectedId} onMove={setMoving} onCopy={setCopying} onCreated={onCreated} />
          ) : (
            <p className="hint">Select a node to see its breadcrumbs, rename, move or delete it, or add a child.</p>
          )}
        </section>
      </main>
      {moving && <MoveDialog node={moving} onClose={closeMove} onMoved={onMoved} />}
      {copying && <MoveDialog node={copying} onClose={closeCopy} onMoved={onMoved} onCopied={onCopied} />}
      {deleting && <DeleteDialog target={deleting} onClose={closeDelete} onDeleted={onDeleted} />}
    </ExplorerContext.Provider>
  );
}
