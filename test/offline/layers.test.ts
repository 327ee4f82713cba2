import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../src/storage/strategies/strategies.js';

/**
 * The architecture, as a test. Dependencies point one way:
 *
 *   server → graphql → loaders → storage interface ← strategies → dynamodb helpers → AWS SDK
 *
 * Every import of every non-test file under src/ is read from its syntax tree (so multi-line,
 * type-only, re-export and dynamic imports all count) and checked against the rules below.
 * Tests beside the code may reach across layers and are not checked.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Import {
  /** Repo-relative path of the importing file, e.g. src/graphql/context.ts. */
  from: string;
  /** Repo-relative path (src/storage/treeStore.ts) for a relative import, else the package. */
  target: string;
  specifier: string;
  typeOnly: boolean;
  /** The names it imports (`{ a, type B }`: a, B); [] for a default, namespace or side-effect import. */
  names: string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(posix.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(file: string): Import[] {
  const text = readFileSync(posix.join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean, names: string[] = []) => {
    const target = specifier.startsWith('.')
      ? posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts')
      : specifier;
    found.push({ from: file, target, specifier, typeOnly, names });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      const bindings = clause?.namedBindings;
      const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => e.name.text) : [];
      add(node.moduleSpecifier.text, typeOnly, names);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles('src');
const imports = files.flatMap(importsOf);

const under = (folder: string) => (path: string) => path.startsWith(`${folder}/`);
const isAwsSdk = (target: string) => target.startsWith('@aws-sdk/');
const describeImport = (i: Import) => `${i.from} imports '${i.specifier}'`;

/** Imports from files matching `from` whose target matches `forbidden`, as readable lines. */
function violations(from: (path: string) => boolean, forbidden: (i: Import) => boolean): string[] {
  return imports.filter((i) => from(i.from) && forbidden(i)).map(describeImport);
}

/** The strategies' folders: every folder under src/storage/strategies but the shared parts. */
const STRATEGIES_DIR = 'src/storage/strategies';
const PARTS = `${STRATEGIES_DIR}/parts`;
const strategyFolders = readdirSync(posix.join(ROOT, STRATEGIES_DIR), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && posix.join(STRATEGIES_DIR, entry.name) !== PARTS)
  .map((entry) => posix.join(STRATEGIES_DIR, entry.name));
/** The one file that lists the strategies (and so imports their folders). */
const STRATEGY_LIST = `${STRATEGIES_DIR}/strategies.ts`;

/** What the GraphQL layer, the loaders and the seed may know of storage: the interface. */
const STORAGE_INTERFACE = ['src/storage/treeStore.ts', 'src/storage/validation.ts'];
/** The strategy contract and the helpers every strategy uses to honour it. */
const STRATEGY_CONTRACT = [
  'src/storage/strategy.ts',
  'src/storage/contractCosts.ts',
  'src/storage/cursor.ts',
  ...STORAGE_INTERFACE,
];
/** Strategies import nothing of the engine: it hands them what they need (StrategyContext, ChainGuards). */
const ENGINE_PUBLIC: string[] = [];

/** Every cycle of a directed graph (its strongly connected components of 2+ members), sorted. */
function cyclesOf(edges: Array<[string, string]>): string[][] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) component.push(w);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return components.sort();
}

const relative = imports.filter((i) => i.target.startsWith('src/'));

describe('layers', () => {
  it('finds the source files and their imports', () => {
    expect(files).toContain('src/storage/treeStore.ts');
    // The strategy folders are those the one strategy list imports from: no folder list here.
    const listed = imports
      .filter((i) => i.from === STRATEGY_LIST && under(STRATEGIES_DIR)(i.target))
      .map((i) => posix.dirname(i.target));
    expect(strategyFolders).toEqual([...new Set(listed)].sort());
    expect(strategyFolders.length).toBe(STRATEGY_NAMES.length);
    expect(imports).toContainEqual(
      expect.objectContaining({
        from: 'src/graphql/context.ts',
        target: 'src/storage/treeStore.ts',
        specifier: '../storage/treeStore.js',
        typeOnly: true,
      }),
    );
    expect(
      imports.find((i) => i.from.endsWith('/guard/holds.ts') && i.specifier.endsWith('/transactWrite.js'))?.names,
    ).toEqual(['transactWrite']);
    expect(imports.some((i) => isAwsSdk(i.target) && !i.typeOnly)).toBe(true);
  });

  it('has no import cycle between files (type-only imports included)', () => {
    expect(
      cyclesOf([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ]),
    ).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(relative.map((i) => [i.from, i.target]))).toEqual([]);
  });

  it('has no import cycle between folders', () => {
    // Files directly in src/ (main, config, errors) are units of their own, not one folder.
    const unit = (file: string) => (posix.dirname(file) === 'src' ? file : posix.dirname(file));
    const folderEdges = relative
      .map((i): [string, string] => [unit(i.from), unit(i.target)])
      .filter(([a, b]) => a !== b);
    expect(cyclesOf(folderEdges)).toEqual([]);
  });

  it('writes relative imports with their .js (or .json) suffix', () => {
    expect(
      imports.filter((i) => i.specifier.startsWith('.') && !/\.(js|json)$/.test(i.specifier)).map(describeImport),
    ).toEqual([]);
  });

  it('keeps the GraphQL layer, loaders, seed and live updates on the storage interface, away from DynamoDB', () => {
    const upper = (path: string) =>
      ['src/graphql', 'src/loaders', 'src/seed', 'src/live'].some((folder) => under(folder)(path));
    expect(
      violations(
        upper,
        (i) =>
          (under('src/storage')(i.target) && !STORAGE_INTERFACE.includes(i.target)) ||
          under('src/dynamodb')(i.target) ||
          isAwsSdk(i.target),
      ),
    ).toEqual([]);
  });

  it('points the upper layers downwards: loaders never import graphql; neither imports server', () => {
    expect(violations(under('src/loaders'), (i) => under('src/graphql')(i.target))).toEqual([]);
    expect(
      violations(
        (path) => under('src/graphql')(path) || under('src/loaders')(path),
        (i) => under('src/server')(i.target) || i.target === 'src/main.ts',
      ),
    ).toEqual([]);
  });

  it('keeps storage below the API and the configuration: it is handed what it needs', () => {
    expect(
      violations(
        under('src/storage'),
        (i) =>
          ['src/graphql', 'src/loaders', 'src/server', 'src/seed', 'src/cli'].some((folder) =>
            under(folder)(i.target),
          ) || ['src/main.ts', 'src/config.ts', 'src/configVariables.ts'].includes(i.target),
      ),
    ).toEqual([]);
  });

  it('lets strategies import only the contract, the shared parts and dynamodb/, nothing of the engine', () => {
    const allowed = (i: Import, own: string) =>
      !i.target.startsWith('src/') ||
      under(own)(i.target) ||
      under(PARTS)(i.target) ||
      under('src/dynamodb')(i.target) ||
      [...STRATEGY_CONTRACT, ...ENGINE_PUBLIC, 'src/errors.ts'].includes(i.target);
    for (const folder of [...strategyFolders, PARTS]) {
      expect(violations(under(folder), (i) => !allowed(i, folder))).toEqual([]);
    }
  });

  it('keeps the engine in wings: core at the bottom, reads, changes and jobs on it, writes above', () => {
    const ENGINE = 'src/storage/engine';
    // What each wing may import of the engine, besides itself (docs/architecture.md).
    const WINGS: Record<string, string[]> = {
      core: [],
      reads: ['core'],
      changes: ['core'],
      guard: ['core', 'changes'],
      jobs: ['core', 'changes', 'guard'],
      writes: ['core', 'reads', 'jobs', 'changes', 'guard'],
      undo: ['core', 'reads', 'changes', 'writes'],
      access: ['core'],
      sharing: ['core', 'reads', 'guard', 'writes', 'access'],
    };
    const wingOf = (path: string) => (under(ENGINE)(path) ? path.slice(ENGINE.length + 1).split('/')[0]! : null);
    expect(
      readdirSync(posix.join(ROOT, ENGINE), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort(),
    ).toEqual(Object.keys(WINGS).sort());
    for (const [wing, allowed] of Object.entries(WINGS)) {
      const outside = (i: Import) => {
        const target = wingOf(i.target);
        return target !== null && target !== wing && !allowed.includes(target);
      };
      expect(violations(under(`${ENGINE}/${wing}`), outside)).toEqual([]);
    }
  });

  it('commits every write through the guard: no write, undo or job step reaches transactWrite', () => {
    const ENGINE = 'src/storage/engine';
    const TRANSACT = 'src/dynamodb/transactWrite.ts';
    // Nothing of transactWrite.ts at all: a write names ConditionFailed from conditionFailed.ts.
    const writers = (path: string) => under(`${ENGINE}/writes`)(path) || under(`${ENGINE}/undo`)(path);
    expect(violations(writers, (i) => i.target === TRANSACT)).toEqual([]);
    // Its limits and types name no way to commit.
    const HARMLESS = new Set(['TRANSACTION_LIMIT', 'MAX_CONFLICT_ATTEMPTS', 'TransactItem']);
    // A job's chunks commit through the guard too (commitChunk.ts); only the jobs' own records
    // (a lease taken or given up, a start, a claim, an import's packs) are written beside it.
    const jobBookkeeping = ['claimSubtree.ts', 'importJob.ts', 'jobRunner.ts', 'startReindex.ts'].map(
      (f) => `${ENGINE}/jobs/${f}`,
    );
    const committers = imports
      .filter((i) => i.target === TRANSACT && i.names.some((n) => !HARMLESS.has(n)))
      .map((i) => i.from)
      .filter((from) => under(ENGINE)(from));
    expect([...new Set(committers)].sort()).toEqual(
      [`${ENGINE}/guard/guardedTransaction.ts`, `${ENGINE}/guard/holds.ts`, ...jobBookkeeping].sort(),
    );
  });

  it("makes guards only of what a write reads: a place, a node, a job's lease", () => {
    const guards = sourceFiles('src').filter((file) =>
      /\bextends Guard\b/.test(readFileSync(posix.join(ROOT, file), 'utf8')),
    );
    expect(guards.sort()).toEqual([
      'src/storage/engine/jobs/commitChunk.ts',
      'src/storage/engine/writes/guard/guardedNode.ts',
      'src/storage/engine/writes/guard/guardedPlace.ts',
    ]);
  });

  it('reaches a strategy only through the strategies list; the engine and the contract know none', () => {
    for (const strategy of strategyFolders) {
      expect(
        violations(
          (path) => !under(strategy)(path) && path !== STRATEGY_LIST,
          (i) => under(strategy)(i.target),
        ),
      ).toEqual([]);
    }
    expect(violations(under('src/storage/engine'), (i) => under(STRATEGIES_DIR)(i.target))).toEqual([]);
    expect(
      violations(
        (path) => STRATEGY_CONTRACT.includes(path),
        (i) =>
          i.target.startsWith('src/') &&
          !STRATEGY_CONTRACT.includes(i.target) &&
          !under('src/dynamodb')(i.target) &&
          i.target !== 'src/errors.ts',
      ),
    ).toEqual([]);
  });

  it("names no strategy outside the strategies' folders", () => {
    // The contract names what a strategy keeps, `'path' | 'path+lineage'`: a kind, not the strategy;
    // nodeByPath's argument is `path` too.
    const textOf = (file: string) =>
      readFileSync(posix.join(ROOT, file), 'utf8')
        .replaceAll(/'path'(?= \| 'path\+lineage')/g, '')
        .replaceAll("field: 'path'", '');
    const named = files.filter(
      (file) =>
        !under(STRATEGIES_DIR)(file) &&
        strategyFolders.some((folder) => textOf(file).includes(`'${posix.basename(folder)}'`)),
    );
    expect(named).toEqual([]);
  });

  it('keeps the storage interface free of implementations', () => {
    expect(
      violations(
        (path) => STORAGE_INTERFACE.includes(path),
        (i) => !i.target.startsWith('node:') && ![...STORAGE_INTERFACE, 'src/errors.ts'].includes(i.target),
      ),
    ).toEqual([]);
  });

  it('keeps the DynamoDB helpers at the bottom: of the repo they import only errors.ts, each other and schema/', () => {
    expect(
      violations(
        under('src/dynamodb'),
        (i) => i.target.startsWith('src/') && i.target !== 'src/errors.ts' && !under('src/dynamodb')(i.target),
      ),
    ).toEqual([]);
    expect(
      violations(
        under('src/dynamodb'),
        (i) => i.specifier.startsWith('.') && !i.target.startsWith('src/') && !under('schema')(i.target),
      ),
    ).toEqual([]);
  });

  it('imports the AWS SDK only in src/dynamodb, src/storage and server/startServer.ts', () => {
    expect(
      violations(
        (path) => !under('src/dynamodb')(path) && !under('src/storage')(path) && path !== 'src/server/startServer.ts',
        (i) => isAwsSdk(i.target),
      ),
    ).toEqual([]);
  });

  /**
   * Storage names the SDK's client type (it is handed a client) but sends no command of its
   * own: building requests is the job of src/dynamodb. The exceptions listed here are known
   * departures from that rule; the list must only shrink (the test fails when one disappears,
   * so that it gets removed here).
   */
  const KNOWN_SDK_VALUE_IMPORTS_IN_STORAGE: string[] = [];

  it('imports only types from the AWS SDK in src/storage, apart from the listed exceptions', () => {
    const found = violations(under('src/storage'), (i) => isAwsSdk(i.target) && !i.typeOnly);
    expect(found.filter((line) => !KNOWN_SDK_VALUE_IMPORTS_IN_STORAGE.includes(line))).toEqual([]);
    expect(KNOWN_SDK_VALUE_IMPORTS_IN_STORAGE.filter((line) => !found.includes(line))).toEqual([]);
  });

  it('never imports test code from src', () => {
    expect(
      violations(
        () => true,
        (i) => under('test')(i.target),
      ),
    ).toEqual([]);
  });
});

describe('configuration', () => {
  it('is read from the environment in src/config.ts only', () => {
    const readers = files.filter(
      (file) => file !== 'src/config.ts' && /\bprocess\.env\b/.test(readFileSync(posix.join(ROOT, file), 'utf8')),
    );
    expect(readers).toEqual([]);
  });
});
