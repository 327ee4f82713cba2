import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

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
  const add = (specifier: string, typeOnly: boolean) => {
    const target = specifier.startsWith('.')
      ? posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts')
      : specifier;
    found.push({ from: file, target, specifier, typeOnly });
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
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
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

/** The folders of src/storage that hold a strategy (every folder but the shared truth). */
const strategyFolders = readdirSync(posix.join(ROOT, 'src/storage'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['truth', 'maintenance'].includes(entry.name))
  .map((entry) => `src/storage/${entry.name}`);

/** What the GraphQL layer, the loaders and the seed may know of storage: the interface. */
const STORAGE_INTERFACE = ['src/storage/treeStore.ts', 'src/storage/validation.ts'];

describe('layers', () => {
  it('finds the source files and their imports', () => {
    expect(files).toContain('src/storage/treeStore.ts');
    expect(strategyFolders).toContain('src/storage/adjacency');
    expect(strategyFolders).not.toContain('src/storage/truth');
    expect(imports).toContainEqual({
      from: 'src/graphql/context.ts',
      target: 'src/storage/treeStore.ts',
      specifier: '../storage/treeStore.js',
      typeOnly: true,
    });
    expect(imports.some((i) => isAwsSdk(i.target) && !i.typeOnly)).toBe(true);
  });

  it('writes relative imports with their .js (or .json) suffix', () => {
    expect(
      imports.filter((i) => i.specifier.startsWith('.') && !/\.(js|json)$/.test(i.specifier)).map(describeImport),
    ).toEqual([]);
  });

  it('keeps the GraphQL layer, the loaders and the seed on the storage interface, away from DynamoDB', () => {
    const upper = (path: string) => ['src/graphql', 'src/loaders', 'src/seed'].some((folder) => under(folder)(path));
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

  it('keeps storage below the API: only createStore.ts may know more than the storage folder', () => {
    expect(
      violations(
        (path) => under('src/storage')(path) && path !== 'src/storage/createStore.ts',
        (i) => ['src/graphql', 'src/loaders', 'src/server', 'src/seed'].some((folder) => under(folder)(i.target)) || i.target === 'src/main.ts',
      ),
    ).toEqual([]);
  });

  it('reaches a strategy only through createStore.ts and the maintenance tools, never from another strategy or the truth', () => {
    for (const strategy of strategyFolders) {
      expect(
        violations(
          // Maintenance (verify, reindex) rebuilds every strategy's projection from the truth.
          (path) => !under(strategy)(path) && path !== 'src/storage/createStore.ts' && !under('src/storage/maintenance')(path),
          (i) => under(strategy)(i.target),
        ),
      ).toEqual([]);
    }
    // The truth is shared by every strategy and knows none of them (implied by the loop above;
    // stated for the reader).
    expect(violations(under('src/storage/truth'), (i) => strategyFolders.some((s) => under(s)(i.target)))).toEqual([]);
  });

  it('keeps the storage interface free of implementations', () => {
    expect(
      violations(
        (path) => STORAGE_INTERFACE.includes(path),
        (i) => !i.target.startsWith('node:') && ![...STORAGE_INTERFACE, 'src/errors.ts', 'src/config.ts'].includes(i.target),
      ),
    ).toEqual([]);
  });

  it('keeps the DynamoDB helpers at the bottom: of the repo they import only errors.ts, each other and schema/', () => {
    expect(
      violations(
        under('src/dynamodb'),
        (i) =>
          i.target.startsWith('src/') &&
          i.target !== 'src/errors.ts' &&
          !under('src/dynamodb')(i.target),
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
    expect(violations(() => true, (i) => under('test')(i.target))).toEqual([]);
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
