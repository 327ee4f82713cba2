import { generateNKeysBetween } from 'fractional-indexing';
import { badInput, isTreeError } from '../../../errors.js';
import type { Place } from '../../strategy.js';
import type { CreateNodesArgs, TreeNode } from '../../treeStore.js';
import { checkData, checkId, checkName, MAX_CREATE_NODES } from '../../validation.js';
import { childPlace, placeOfRoot, type KeyOf } from '../core/projectionPlans.js';
import { positionBetween } from '../core/position.js';

/** The most nodes one createNodes creates. */

/** A node of a createNodes list, checked, placed, and ready to write. */
export interface NewNode {
  node: TreeNode;
  place: Place;
  /** Its depth below the parent of the list (1 for a top node). */
  below: number;
  /** Whether its parent is the list's parent (a top node) rather than another node of the list. */
  top: boolean;
}

/**
 * Pure. Checks a createNodes list as createNode checks one node (ids, names, data), and as a
 * whole: 1..MAX_CREATE_NODES nodes, no id twice, every `parentId` naming another node of the
 * list (a node without one goes under the list's parent), no cycle. Every problem is a
 * BAD_USER_INPUT whose `field` names the node (`nodes[3].parentId`). Generates the missing ids
 * with `newId`. Returns the nodes parents first (breadth-first), each with its sibling position:
 * the top nodes after `lastPosition` (the parent's last child) in list order, each with a random
 * tail as any create's, one position past it left free (a create placed last while these are
 * written takes it: it goes before them all, never among them); the children of a new node
 * evenly spaced, in list order. `parent.place`
 * is the parent's own place (ignored for roots); `parent.keyOf`, the path key a place holds of a
 * node (none by default).
 */
export function planNewNodes(
  args: CreateNodesArgs,
  parent: { id: string | null; place: Place; lastPosition: string | null; topPosition?: string; keyOf?: KeyOf },
  now: string,
  newId: () => string,
  maxNodes = MAX_CREATE_NODES,
): NewNode[] {
  const { entries, children } = checkedList(args.nodes, newId, maxNodes);
  const planned: NewNode[] = [];
  let previous = positionBetween(parent.lastPosition, null);
  let level = (children.get(null) ?? []).map((entry): ToPlace => {
    // A single top node at a slot of its own (a copy's, a restore's), else after the last child.
    previous = parent.topPosition ?? positionBetween(previous, null);
    return { entry, position: previous, parentId: parent.id, parentPlace: parent.place, below: 1 };
  });
  while (level.length > 0) {
    const next: ToPlace[] = [];
    for (const toPlace of level) {
      const kids = children.get(toPlace.entry.id) ?? [];
      const placed = newNode(toPlace, kids.length, now, parent.keyOf ?? (() => ''));
      planned.push(placed);
      const positions = kids.length > 0 ? generateNKeysBetween(null, null, kids.length) : [];
      kids.forEach((kid, i) =>
        next.push({
          entry: kid,
          position: positions[i]!,
          parentId: toPlace.entry.id,
          parentPlace: placed.place,
          below: toPlace.below + 1,
        }),
      );
    }
    level = next;
  }
  if (planned.length < entries.length) {
    const placed = new Set(planned.map((p) => p.node.id));
    const first = entries.find((e) => !placed.has(e.id))!;
    throw badInput(
      `${first.at} is in a cycle of parentIds: no node of the list above it goes under the list's parent`,
      {
        field: `${first.at}.parentId`,
      },
    );
  }
  return planned;
}

/** A node of the list, checked: its input, where it is in the list (`nodes[3]`), its id and its parent's. */
interface Entry {
  input: CreateNodesArgs['nodes'][number];
  at: string;
  id: string;
  parentId: string | null;
}

/** A node of the list on its way to its place: its position among its siblings, its parent and the parent's place. */
interface ToPlace {
  entry: Entry;
  position: string;
  parentId: string | null;
  parentPlace: Place;
  below: number;
}

/** The list checked node by node and as a whole, with each node's children (null: the top nodes), in list order. */
function checkedList(
  list: CreateNodesArgs['nodes'],
  newId: () => string,
  maxNodes: number,
): { entries: Entry[]; children: Map<string | null, Entry[]> } {
  if (list.length < 1 || list.length > maxNodes) {
    throw badInput(`nodes must hold 1..${maxNodes} nodes, got ${list.length}`, { field: 'nodes' });
  }
  const entries = list.map((input, i): Entry => {
    const at = `nodes[${i}]`;
    const id = input.id == null ? newId() : within(at, () => checkId(input.id!));
    within(at, () => checkName(input.name));
    within(at, () => checkData(input.data));
    const parentId = input.parentId == null ? null : within(at, () => checkId(input.parentId!, 'parentId'));
    return { input, at, id, parentId };
  });
  const byId = new Map<string, Entry>();
  for (const entry of entries) {
    const earlier = byId.get(entry.id);
    if (earlier)
      throw badInput(`${entry.at}.id "${entry.id}" is also the id of ${earlier.at}`, { field: `${entry.at}.id` });
    byId.set(entry.id, entry);
  }
  const children = new Map<string | null, Entry[]>();
  for (const entry of entries) {
    if (entry.parentId !== null && !byId.has(entry.parentId)) {
      throw badInput(
        `${entry.at}.parentId "${entry.parentId}" is no id of the list: a node of the list goes under another one, ` +
          "or, without parentId, under the list's parent",
        { field: `${entry.at}.parentId` },
      );
    }
    children.set(entry.parentId, [...(children.get(entry.parentId) ?? []), entry]);
  }
  return { entries, children };
}

/** The new node at its place, with `childCount` children to come. */
function newNode(toPlace: ToPlace, childCount: number, now: string, keyOf: KeyOf): NewNode {
  const { entry, position, parentId, parentPlace, below } = toPlace;
  const node = {
    id: entry.id,
    parentId,
    name: entry.input.name,
    position,
    version: 1,
    childCount,
    data: entry.input.data ?? null,
    ...(entry.input.type ? { type: entry.input.type } : {}),
    createdAt: now,
    updatedAt: now,
  };
  const place = parentId === null ? placeOfRoot(position) : childPlace(parentPlace, parentId, position, keyOf(node));
  return { node, place, below, top: below === 1 };
}

/** Runs a field check of one node of the list, naming the node in the refusal. */
export function within<T>(at: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!isTreeError(error, 'BAD_USER_INPUT')) throw error;
    const field = error.details?.field ?? 'id';
    throw badInput(`${at}.${error.message}`, { field: `${at}.${field}` });
  }
}
