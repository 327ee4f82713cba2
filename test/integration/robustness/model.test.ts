/**
 * Model-based test: random sequences of createNode, reparent, updateNode and deleteNode go
 * through the GraphQL API and through a plain in-memory tree (TreeModel). After every step the
 * whole tree as the API describes it (fields, every page of children, ancestors, descendants)
 * must equal the model, and a refused command must be refused with the code the model predicts
 * and change nothing.
 *
 * One server per strategy is reused across runs; each run works in a namespace of its own
 * (ids prefixed per run), which is much cheaper than a table per run. MAX_TREE_DEPTH is lowered
 * so that short runs reach the depth limit.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGIES_UNDER_TEST, startTestServer, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { TreeModel, type Placement } from '../../support/model.js';
import { allRoots, compareWithModel, pagedDescendants, snapshot, type NodeSnapshot } from '../../support/invariants.js';

const MAX_DEPTH = 3;
/** Runs per strategy (MODEL_RUNS; the small-transactions project runs fewer). */
const NUM_RUNS = Number(process.env.MODEL_RUNS ?? 5);
const MAX_COMMANDS = 12;
/** Namespaces built at once before the runs. */
const SETUP_PARALLELISM = 10;

const NODE = 'id name parentId depth rootId childCount version data';
const CREATE = `mutation Create($input: CreateNodeInput!) { createNode(input: $input) { ${NODE} } }`;
const REPARENT = `mutation Reparent(
  $id: ID!, $newParentId: ID, $before: ID, $after: ID, $expectedVersion: Int, $expectedParentId: ID
) {
  reparent(
    id: $id, newParentId: $newParentId, before: $before, after: $after,
    expectedVersion: $expectedVersion, expectedParentId: $expectedParentId
  ) {
    ${NODE}
  }
}`;
const UPDATE = `mutation Update($id: ID!, $name: String, $data: JSONObject, $expectedVersion: Int) {
  updateNode(id: $id, name: $name, data: $data, expectedVersion: $expectedVersion) { ${NODE} }
}`;
const DELETE = `mutation Delete($id: ID!, $expectedVersion: Int, $expectedParentId: ID) {
  deleteNode(id: $id, expectedVersion: $expectedVersion, expectedParentId: $expectedParentId) { deletedCount }
}`;

/** What one run works on: the server and the run's namespace. */
interface World {
  server: TestServer;
  prefix: string;
  serial: number;
  /** Every id this run ever created (deleted ones must read as null). */
  created: Set<string>;
  /** Versions as last read from the API. */
  versions: Map<string, number>;
  /** Whether the last check should also compare the run's roots. */
  rootsTouched: boolean;
}

type Code =
  'BAD_USER_INPUT' | 'NOT_FOUND' | 'ALREADY_EXISTS' | 'CYCLE' | 'VERSION_CONFLICT' | 'PARENT_CONFLICT' | 'DEPTH_LIMIT';

const pick = <T>(list: readonly T[], n: number): T | undefined =>
  list.length === 0 ? undefined : list[n % list.length];

function newId(world: World): string {
  world.serial += 1;
  return `${world.prefix}${world.serial}`;
}

const ghost = (world: World): string => `${world.prefix}ghost`;

/** A sibling named in before/after; undefined when there is none to name. */
function placementFor(kind: 'last' | 'before' | 'after', siblings: readonly string[], n: number): Placement {
  const sibling = pick(siblings, n);
  if (kind === 'last' || sibling === undefined) return {};
  return kind === 'before' ? { before: sibling } : { after: sibling };
}

/** An existing node that is not among `siblings` (and not `exclude`), to name as a wrong sibling. */
function foreignNode(
  model: TreeModel,
  siblings: readonly string[],
  exclude: string | null,
  n: number,
): string | undefined {
  return pick(
    model.ids().filter((id) => !siblings.includes(id) && id !== exclude),
    n,
  );
}

/** Sends one mutation and checks it succeeded or failed exactly as predicted. */
async function expectOutcome<T>(
  world: World,
  label: string,
  query: string,
  variables: Record<string, unknown>,
  predicted: Code | null,
): Promise<T | null> {
  const response: GraphQLResponse = await world.server.gql(query, variables);
  const context =
    `${label}\nvariables: ${JSON.stringify(variables)}\n` +
    `response: HTTP ${response.status} ${JSON.stringify(response.body)}`;
  expect(response.status, context).toBe(200);
  if (predicted === null) {
    expect(response.body.errors, context).toBeUndefined();
    return Object.values(response.body.data ?? {})[0] as T;
  }
  expect(response.body.errors?.[0]?.extensions?.code, context).toBe(predicted);
  expect(response.body.data ?? null, context).toBeNull();
  return null;
}

/** Compares the whole namespace with the model, and versions with the last ones seen. */
async function verify(
  model: TreeModel,
  world: World,
  label: string,
  changed: { failed: boolean; bumped?: string },
): Promise<void> {
  const ids = [...world.created];
  // Children in pages of 2 for every node; descendants whole, then page by page (first: 2)
  // for the node with the most of them: the pages must add up to the same list.
  const snap = await snapshot(world.server, ids, { childrenPage: 2, followPage: 2 });
  const problems = compareWithModel(snap, model);
  const widest = [...snap.values()].reduce<NodeSnapshot | null>(
    (best, v) => (v && v.descendants.length > (best?.descendants.length ?? 0) ? v : best),
    null,
  );
  if (widest && widest.descendants.length > 2) {
    const paged = await pagedDescendants(world.server, widest.id, 2);
    if (JSON.stringify(paged) !== JSON.stringify(widest.descendants)) {
      problems.push(
        `${widest.id}.descendants in pages of 2: ${JSON.stringify(paged)}, ` +
          `in one page: ${JSON.stringify(widest.descendants)}`,
      );
    }
  }
  for (const [id, view] of snap) {
    if (!view) continue;
    const before = world.versions.get(id);
    if (before !== undefined) {
      if (changed.failed && view.version !== before)
        problems.push(`${id}.version: ${before} -> ${view.version} after a refused command`);
      if (view.version < before) problems.push(`${id}.version went back: ${before} -> ${view.version}`);
      if (changed.bumped === id && view.version <= before)
        problems.push(`${id}.version: still ${view.version} after it changed`);
    }
    world.versions.set(id, view.version);
  }
  if (world.rootsTouched) {
    const roots = (await allRoots(world.server)).filter((id) => id.startsWith(world.prefix));
    if (JSON.stringify(roots) !== JSON.stringify(model.roots())) {
      problems.push(`roots: expected ${JSON.stringify(model.roots())}, got ${JSON.stringify(roots)}`);
    }
    world.rootsTouched = false;
  }
  expect(problems, `after ${label}`).toEqual([]);
}

abstract class Step implements fc.AsyncCommand<TreeModel, World> {
  protected label = 'not run';
  check(): boolean {
    return true;
  }
  abstract run(model: TreeModel, world: World): Promise<void>;
  toString(): string {
    return this.label;
  }
}

type CreateFault =
  'none' | 'missingParent' | 'duplicateId' | 'missingSibling' | 'foreignSibling' | 'blankName' | 'longName';

class CreateStep extends Step {
  constructor(
    readonly asRoot: boolean,
    readonly parentPick: number,
    readonly placement: 'last' | 'before' | 'after',
    readonly siblingPick: number,
    readonly withData: boolean,
    readonly fault: CreateFault,
  ) {
    super();
  }

  async run(model: TreeModel, world: World): Promise<void> {
    const parentId = this.asRoot ? null : (pick(model.ids(), this.parentPick) ?? null);
    const siblings = model.children(parentId);
    let place = placementFor(this.placement, siblings, this.siblingPick);
    let id = newId(world);
    let name = `node ${world.serial}`;
    let parent = parentId;
    const data = this.withData ? { n: world.serial, tags: ['a', 'b'], nested: { ok: true } } : null;
    let predicted: Code | null = parentId !== null && model.depth(parentId) + 1 > MAX_DEPTH ? 'DEPTH_LIMIT' : null;
    if (predicted === null) {
      switch (this.fault) {
        case 'missingParent':
          parent = ghost(world);
          place = {};
          predicted = 'NOT_FOUND';
          break;
        case 'duplicateId': {
          const taken = pick(model.ids(), this.siblingPick + 1);
          if (taken) {
            id = taken;
            predicted = 'ALREADY_EXISTS';
          }
          break;
        }
        case 'missingSibling':
          place = this.placement === 'after' ? { after: ghost(world) } : { before: ghost(world) };
          predicted = 'NOT_FOUND';
          break;
        case 'foreignSibling': {
          const foreign = foreignNode(model, siblings, null, this.siblingPick);
          if (foreign) {
            place = this.placement === 'after' ? { after: foreign } : { before: foreign };
            predicted = 'BAD_USER_INPUT';
          }
          break;
        }
        case 'blankName':
          name = '';
          predicted = 'BAD_USER_INPUT';
          break;
        case 'longName':
          name = 'x'.repeat(257);
          predicted = 'BAD_USER_INPUT';
          break;
        case 'none':
          break;
      }
    }
    const input = { id, parentId: parent, name, data, ...place };
    const shown = name.length > 20 ? `${name.slice(0, 8)}...(${name.length})` : name;
    this.label = `createNode(${JSON.stringify({ ...input, name: shown })}) -> ${predicted ?? 'ok'}`;
    const node = await expectOutcome<any>(world, this.label, CREATE, { input }, predicted);
    if (predicted === null) {
      model.create({ id, parentId, name, data }, place);
      world.created.add(id);
      expect(node, this.label).toMatchObject({
        id,
        parentId,
        name,
        depth: model.depth(id),
        rootId: model.rootId(id),
        childCount: 0,
      });
    }
    world.rootsTouched ||= parentId === null;
    await verify(model, world, this.label, { failed: predicted !== null });
  }
}

type TargetKind = 'random' | 'root' | 'sameParent' | 'descendant' | 'self';
type ReparentFault =
  | 'none'
  | 'missingNode'
  | 'missingParent'
  | 'missingSibling'
  | 'foreignSibling'
  | 'staleVersion'
  | 'goodVersion'
  | 'staleParent'
  | 'goodParent';

class ReparentStep extends Step {
  constructor(
    readonly nodePick: number,
    readonly target: TargetKind,
    readonly targetPick: number,
    readonly placement: 'last' | 'before' | 'after',
    readonly siblingPick: number,
    readonly fault: ReparentFault,
  ) {
    super();
  }

  async run(model: TreeModel, world: World): Promise<void> {
    const id = pick(model.ids(), this.nodePick);
    if (id === undefined) {
      this.label = `reparent(${ghost(world)}) on an empty namespace -> NOT_FOUND`;
      await expectOutcome(world, this.label, REPARENT, { id: ghost(world), newParentId: null }, 'NOT_FOUND');
      return;
    }
    const node = model.get(id);
    const below = model.subtree(id).slice(1);
    let target: string | null;
    switch (this.target) {
      case 'root':
        target = null;
        break;
      case 'sameParent':
        target = node.parentId;
        break;
      case 'descendant':
        target = pick(below, this.targetPick) ?? pick(model.ids(), this.targetPick) ?? null;
        break;
      case 'self':
        target = id;
        break;
      case 'random':
        target = pick(model.ids(), this.targetPick) ?? null;
        break;
    }
    let predicted: Code | null = null;
    if (target !== null && model.isInSubtree(target, id)) predicted = 'CYCLE';
    else if ((target === null ? 0 : model.depth(target) + 1) + model.height(id) > MAX_DEPTH) predicted = 'DEPTH_LIMIT';
    const siblings = model.children(target).filter((s) => s !== id);
    let place = predicted === null ? placementFor(this.placement, siblings, this.siblingPick) : {};
    let movedId = id;
    let newParentId = target;
    let expectedVersion: number | undefined;
    let expectedParentId: string | undefined;
    if (predicted === null) {
      switch (this.fault) {
        case 'missingNode':
          movedId = ghost(world);
          place = {};
          predicted = 'NOT_FOUND';
          break;
        case 'missingParent':
          newParentId = ghost(world);
          place = {};
          predicted = 'NOT_FOUND';
          break;
        case 'missingSibling':
          place = this.placement === 'after' ? { after: ghost(world) } : { before: ghost(world) };
          predicted = 'NOT_FOUND';
          break;
        case 'foreignSibling': {
          const foreign = foreignNode(model, siblings, id, this.siblingPick);
          if (foreign) {
            place = this.placement === 'after' ? { after: foreign } : { before: foreign };
            predicted = 'BAD_USER_INPUT';
          }
          break;
        }
        case 'staleVersion':
          expectedVersion = (world.versions.get(id) ?? 1) + 5;
          predicted = 'VERSION_CONFLICT';
          break;
        case 'goodVersion':
          expectedVersion = world.versions.get(id);
          break;
        case 'staleParent':
          expectedParentId = staleParentOf(node, world);
          predicted = 'PARENT_CONFLICT';
          break;
        case 'goodParent':
          expectedParentId = node.parentId ?? '';
          break;
        case 'none':
          break;
      }
    }
    const variables = { id: movedId, newParentId, ...place, expectedVersion, expectedParentId };
    this.label = `reparent(${JSON.stringify(variables)}) [${this.target}] -> ${predicted ?? 'ok'}`;
    const moved = await expectOutcome<any>(world, this.label, REPARENT, variables, predicted);
    world.rootsTouched ||= target === null || node.parentId === null;
    // A move that leaves the node where it was (same parent, same place) may keep its version.
    let changed = false;
    if (predicted === null) {
      const orderBefore = JSON.stringify(model.children(node.parentId));
      const parentBefore = node.parentId;
      model.move(id, target, place);
      changed = parentBefore !== target || orderBefore !== JSON.stringify(model.children(target));
      expect(moved, this.label).toMatchObject({
        id,
        parentId: target,
        depth: model.depth(id),
        rootId: model.rootId(id),
      });
      if (changed) expect(moved.version, this.label).toBeGreaterThan(world.versions.get(id) ?? 0);
    }
    await verify(model, world, this.label, { failed: predicted !== null, bumped: changed ? id : undefined });
  }
}

type UpdateChange = 'name' | 'data' | 'both' | 'clearData';
type UpdateFault = 'none' | 'missingNode' | 'badId' | 'blankName' | 'longName' | 'staleVersion' | 'goodVersion';

class UpdateStep extends Step {
  constructor(
    readonly nodePick: number,
    readonly change: UpdateChange,
    readonly fault: UpdateFault,
  ) {
    super();
  }

  async run(model: TreeModel, world: World): Promise<void> {
    const id = pick(model.ids(), this.nodePick) ?? ghost(world);
    world.serial += 1;
    let name: string | undefined =
      this.change === 'name' || this.change === 'both' ? `renamed ${world.serial}` : undefined;
    const data: Record<string, unknown> | null | undefined =
      this.change === 'data' || this.change === 'both'
        ? { v: world.serial, list: [1, 2, 3] }
        : this.change === 'clearData'
          ? null
          : undefined;
    let target = id;
    let expectedVersion: number | undefined;
    let predicted: Code | null = model.has(id) ? null : 'NOT_FOUND';
    if (predicted === null) {
      switch (this.fault) {
        case 'missingNode':
          target = ghost(world);
          predicted = 'NOT_FOUND';
          break;
        case 'badId':
          target = 'not a valid id!';
          predicted = 'BAD_USER_INPUT';
          break;
        case 'blankName':
          name = '';
          predicted = 'BAD_USER_INPUT';
          break;
        case 'longName':
          name = 'y'.repeat(257);
          predicted = 'BAD_USER_INPUT';
          break;
        case 'staleVersion':
          expectedVersion = (world.versions.get(id) ?? 1) + 3;
          predicted = 'VERSION_CONFLICT';
          break;
        case 'goodVersion':
          expectedVersion = world.versions.get(id);
          break;
        case 'none':
          break;
      }
    }
    const variables: Record<string, unknown> = { id: target, expectedVersion };
    if (name !== undefined) variables.name = name;
    if (data !== undefined) variables.data = data;
    const shown = name && name.length > 20 ? `(${name.length} chars)` : name;
    this.label = `updateNode(${JSON.stringify({ ...variables, name: shown })}) -> ${predicted ?? 'ok'}`;
    const updated = await expectOutcome<any>(world, this.label, UPDATE, variables, predicted);
    // Clearing data that is already null changes nothing, so the version may stay.
    let changed = false;
    if (predicted === null) {
      const before = JSON.stringify(model.get(id));
      model.update(id, { name, data });
      const node = model.get(id);
      changed = before !== JSON.stringify(node);
      expect(updated, this.label).toMatchObject({ id, name: node.name, data: node.data, parentId: node.parentId });
    }
    await verify(model, world, this.label, { failed: predicted !== null, bumped: changed ? id : undefined });
  }
}

/** A parent the node does not have: '' (a root) for a child, an id that no node has for a root. */
const staleParentOf = (node: { parentId: string | null }, world: World): string =>
  node.parentId === null ? ghost(world) : '';

type DeleteFault = 'none' | 'missingNode' | 'staleVersion' | 'goodVersion' | 'staleParent' | 'goodParent';

class DeleteStep extends Step {
  constructor(
    readonly nodePick: number,
    readonly fault: DeleteFault,
  ) {
    super();
  }

  async run(model: TreeModel, world: World): Promise<void> {
    // Mostly below the top level, so that a run rarely deletes its whole tree.
    const nonRoots = model.ids().filter((x) => model.get(x).parentId !== null);
    const id =
      pick(this.nodePick % 6 === 0 || nonRoots.length === 0 ? model.ids() : nonRoots, this.nodePick) ?? ghost(world);
    let target = id;
    let expectedVersion: number | undefined;
    let expectedParentId: string | undefined;
    let predicted: Code | null = model.has(id) ? null : 'NOT_FOUND';
    if (predicted === null) {
      switch (this.fault) {
        case 'missingNode':
          target = ghost(world);
          predicted = 'NOT_FOUND';
          break;
        case 'staleVersion':
          expectedVersion = (world.versions.get(id) ?? 1) + 2;
          predicted = 'VERSION_CONFLICT';
          break;
        case 'goodVersion':
          expectedVersion = world.versions.get(id);
          break;
        case 'staleParent':
          expectedParentId = staleParentOf(model.get(id), world);
          predicted = 'PARENT_CONFLICT';
          break;
        case 'goodParent':
          expectedParentId = model.get(id).parentId ?? '';
          break;
        case 'none':
          break;
      }
    }
    const variables = { id: target, expectedVersion, expectedParentId };
    this.label = `deleteNode(${JSON.stringify(variables)}) -> ${predicted ?? 'ok'}`;
    const result = await expectOutcome<{ deletedCount: number }>(world, this.label, DELETE, variables, predicted);
    if (predicted === null) {
      world.rootsTouched ||= model.get(id).parentId === null;
      const count = model.remove(id);
      expect(result, this.label).toEqual({ deletedCount: count });
    }
    await verify(model, world, this.label, { failed: predicted !== null });
  }
}

const placementArb = fc.constantFrom<'last' | 'before' | 'after'>('last', 'last', 'before', 'after');

/** Mostly valid commands; the faults make a minority of them fail on purpose. */
const createCommand = fc
  .tuple(
    fc.boolean(),
    fc.nat(),
    placementArb,
    fc.nat(),
    fc.boolean(),
    fc.constantFrom<CreateFault>(
      'none',
      'none',
      'none',
      'none',
      'none',
      'missingParent',
      'duplicateId',
      'missingSibling',
      'foreignSibling',
      'blankName',
      'longName',
    ),
  )
  .map(
    ([root, parent, placement, sibling, data, fault]) =>
      new CreateStep(root && parent % 4 === 0, parent, placement, sibling, data, fault),
  );
const reparentCommand = fc
  .tuple(
    fc.nat(),
    fc.constantFrom<TargetKind>(
      'random',
      'random',
      'random',
      'random',
      'root',
      'sameParent',
      'sameParent',
      'sameParent',
      'descendant',
      'self',
    ),
    fc.nat(),
    placementArb,
    fc.nat(),
    fc.constantFrom<ReparentFault>(
      'none',
      'none',
      'none',
      'none',
      'none',
      'missingNode',
      'missingParent',
      'missingSibling',
      'foreignSibling',
      'staleVersion',
      'goodVersion',
      'staleParent',
      'goodParent',
    ),
  )
  .map(
    ([node, target, targetPick, placement, sibling, fault]) =>
      new ReparentStep(node, target, targetPick, placement, sibling, fault),
  );
const updateCommand = fc
  .tuple(
    fc.nat(),
    fc.constantFrom<UpdateChange>('name', 'data', 'both', 'clearData'),
    fc.constantFrom<UpdateFault>(
      'none',
      'none',
      'none',
      'missingNode',
      'badId',
      'blankName',
      'longName',
      'staleVersion',
      'goodVersion',
    ),
  )
  .map(([node, change, fault]) => new UpdateStep(node, change, fault));
const deleteCommand = fc
  .tuple(
    fc.nat(),
    fc.constantFrom<DeleteFault>(
      'none',
      'none',
      'none',
      'missingNode',
      'staleVersion',
      'goodVersion',
      'staleParent',
      'goodParent',
    ),
  )
  .map(([node, fault]) => new DeleteStep(node, fault));
// Repeated entries weigh the mix: structure changes most, deletes least (they shrink the tree).
const commands = [
  createCommand,
  createCommand,
  reparentCommand,
  reparentCommand,
  reparentCommand,
  updateCommand,
  deleteCommand,
];

describe.each(STRATEGIES_UNDER_TEST)('model-based: random writes match an in-memory tree (%s)', (strategy) => {
  let server: TestServer;
  let run = 0;

  beforeAll(async () => {
    server = await startTestServer({ strategy, env: { MAX_TREE_DEPTH: String(MAX_DEPTH) } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`${NUM_RUNS} runs of up to ${MAX_COMMANDS} commands`, { timeout: 240_000 }, async () => {
    // Each run (shrinking replays included) gets its own namespace and a root to start from.
    // Every run starts from the same small tree in a namespace of its own:
    //   1 ── 2 ── 4 ── 5 (at MAX_DEPTH)
    //   └── 3
    // The namespaces are built up front, many at a time (one run after the other would spend
    // a third of the file on setup); a run beyond them builds its own.
    const layout: Array<Array<[number, number | null]>> = [
      [[1, null]],
      [[2, 1]],
      [
        [3, 1],
        [4, 2],
      ],
      [[5, 4]],
    ];
    const buildNamespace = async (prefix: string, withRoot = true): Promise<void> => {
      const node = (n: number) => `${prefix}${n}`;
      // In waves, never two under one parent in one wave (their order would be a race).
      for (const wave of withRoot ? layout : layout.slice(1)) {
        await Promise.all(
          wave.map(async ([n, parent]) => {
            const response = await server.gql(CREATE, {
              input: { id: node(n), parentId: parent === null ? null : node(parent), name: `node ${n}` },
            });
            expect(response.body.errors, `setup of ${prefix}`).toBeUndefined();
          }),
        );
      }
    };
    const prefixOf = (n: number) => `${strategy.slice(0, 2)}${n}_`;
    // The runs' roots are siblings of each other (all at the top level), so they are created
    // one after the other; the rest of each namespace in parallel with other namespaces.
    for (let n = 1; n <= NUM_RUNS; n++) {
      const response = await server.gql(CREATE, { input: { id: `${prefixOf(n)}1`, name: 'node 1' } });
      expect(response.body.errors, `setup of ${prefixOf(n)}`).toBeUndefined();
    }
    for (let first = 1; first <= NUM_RUNS; first += SETUP_PARALLELISM) {
      const batch = Array.from({ length: Math.min(SETUP_PARALLELISM, NUM_RUNS - first + 1) }, (_, i) =>
        prefixOf(first + i),
      );
      await Promise.all(batch.map((prefix) => buildNamespace(prefix, false)));
    }
    const setup = async () => {
      run += 1;
      const world: World = {
        server,
        prefix: prefixOf(run),
        serial: 5,
        created: new Set(),
        versions: new Map(),
        rootsTouched: true,
      };
      if (run > NUM_RUNS) await buildNamespace(world.prefix);
      const model = new TreeModel();
      for (const [n, parent] of layout.flat()) {
        const id = `${world.prefix}${n}`;
        model.create({
          id,
          parentId: parent === null ? null : `${world.prefix}${parent}`,
          name: `node ${n}`,
          data: null,
        });
        world.created.add(id);
      }
      return { model, real: world };
    };
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'max' }), (cmds) =>
        fc.asyncModelRun(setup, cmds),
      ),
      // Stop at the first counterexample: each replay costs seconds, and the step labels
      // already name the failing command with its variables.
      { numRuns: NUM_RUNS, endOnFailure: true },
    );
  });
});
