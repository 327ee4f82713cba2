import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildASTSchema, Kind, parse, print, type DocumentNode, type GraphQLField } from 'graphql';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/configVariables.js';
import { codeNames, filesUnder } from '../support/codeNames.js';
import { anchorsOf, at, lineOf, partsOf, spansOf as markdownSpans, type Found } from '../support/markdown.js';

/**
 * The docs tell the truth about the code. Whatever a document names must exist: the files of the
 * repository (`src/storage/engine/writes/moveNode.ts`, or below a folder the text is about,
 * `engine/core/openJobs.ts`, `createApp.ts`), the targets and anchors of its links, the
 * identifiers in its code spans (`readVisible`, `TreeStore.scoped`, `nodeFields(place)` with the
 * parameters the code gives it, `descendants(maxDepth:)` with the schema's arguments), the npm
 * scripts and `tree` commands it runs, and, in its GraphQL blocks, the schema's fields with
 * their types. A file moved, a function renamed or a parameter changed takes its docs along.
 * Nothing points outside the repository but local addresses and example.com placeholders.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(posix.join(ROOT, 'docs')).map((name) => `docs/${name}`),
  'bench/README.md',
  // The example README that names files from the repository's root (the tree explorer's names
  // them from its own folder).
  'examples/supergraph/README.md',
];
const read = (file: string) => readFileSync(posix.join(ROOT, file), 'utf8');
const SCHEMA = ['schema/schema.graphql', 'schema/subgraph.graphql', 'schema/catalog.schema.graphql'];
const CODE = codeNames(ROOT, ['src', 'test', 'bench', 'examples', 'infra'], SCHEMA, 'test/offline/docs.test.ts');
const PACKAGE = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
const TABLE = read('schema/table.json');
const FILES = [
  '.ci/run',
  ...['src', 'test', 'bench', 'examples', 'infra', 'schema', 'docs', 'scripts'].flatMap((folder) =>
    filesUnder(ROOT, folder),
  ),
];
const FOLDERS = new Set(
  FILES.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const ROOT_FILES = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => entry.name);
const IGNORED = read('.gitignore').split('\n').filter(Boolean);
const isIgnored = (path: string) =>
  IGNORED.some((entry) => (entry.endsWith('/') ? `${path}/`.startsWith(entry) : path === entry));

/** The `tree` commands and options the command line declares: `.command('verify')`, `.option('--to <s>')`. */
const CLI = filesUnder(ROOT, 'src/cli').map(read).join('\n');
const TREE_COMMANDS = new Set([...CLI.matchAll(/\.command\('(\w+)'\)/g)].map((match) => match[1]!));
const TREE_OPTIONS = new Set(['--help', '--version', ...[...CLI.matchAll(/\.option\('(--[\w-]+)/g)].map((m) => m[1]!)]);

/**
 * Names the docs may give that no code of the repository declares or uses, each with its reason.
 * Everything else a code span names must be in the code (test/support/codeNames.ts).
 */
const NOT_IN_THE_CODE: Record<string, string> = {
  ...Object.fromEntries(
    ['CreateTable', 'DescribeTable', 'Scan', 'DescribeStream', 'GetShardIterator', 'ListStreams', 'GetRecords'].map(
      (name) => [name, "DynamoDB's API actions that IAM policies name; the code sends them through the SDK's commands"],
    ),
  ),
  LeadingKeys: "IAM's condition key on partition keys (dynamodb:LeadingKeys)",
  Allow: 'an HTTP header (Allow: POST), set by Apollo Server',
  Vary: 'an HTTP header (Vary: Origin), set by the cors package',
  PersistedQueryLink: "Apollo Client's link for automatic persisted queries, for apps that want them",
  NODE_OPTIONS: "Node's own variable, for where `node` is not started by the npm scripts",
};

/** Commands the docs mistype on purpose, to show what a mistyped command answers. */
const MISTYPED = new Set(['imprt']);

/** Placeholders of the docs' examples, files of the reader's: no file of the repository. */
const PLACEHOLDER_FILES = new Set(['trees.json', 'Node.js']);

/** Hosts a document may point at: this machine, and example.com's placeholders. */
const LOCAL_HOST = /^(localhost|127\.0\.0\.1|0\.0\.0\.0|([\w-]+\.)*example\.com)$/;

const spansOf = (doc: string) => markdownSpans(doc, read(doc));

const TOP = 'src|test|bench|examples|infra|schema|docs|scripts|\\.ci';
const ROOTED = new RegExp(`(?<![\\w./:~@*-])((?:${TOP})/[\\w./-]*[\\w/])`, 'g');
const EXTENSION = '(?:tsx?|json|m?js|md|graphql|java|sh|ya?ml|css|html)';
const PARTIAL = new RegExp(`(?<![\\w./:~@<*-])((?:[\\w-]+/)*[\\w.-]*\\w\\.${EXTENSION})(?![\\w/-])`, 'g');

/**
 * Repository paths a document names: rooted ones (`src/config.ts`, `docs/`) and files below a
 * folder the text is about (`engine/core/openJobs.ts`, `createApp.ts`) anywhere in it, and
 * folders the same way in code spans (`strategies/adjacency/`).
 */
function pathsIn(doc: string): Found[] {
  const text = read(doc);
  const found: Found[] = [];
  for (const m of text.matchAll(ROOTED)) {
    found.push({ doc, line: lineOf(text, m.index), text: m[1]!.replace(/\/$/, '') });
  }
  for (const m of text.matchAll(PARTIAL)) {
    if (!/^(src|test|bench|examples|infra|schema|docs|scripts|dist|node_modules)\//.test(m[1]!)) {
      found.push({ doc, line: lineOf(text, m.index), text: m[1]! });
    }
  }
  for (const span of spansOf(doc)) {
    if (/^([\w-]+\/)+$/.test(span.text) && !new RegExp(`^(${TOP})/`).test(span.text)) found.push(span);
  }
  return found.filter(({ text }) => !isIgnored(text) && !PLACEHOLDER_FILES.has(text));
}

function pathExists(path: string): boolean {
  if (new RegExp(`^(${TOP})(/|$)`).test(path)) return existsSync(posix.join(ROOT, path));
  if (path.endsWith('/')) return [...FOLDERS].some((folder) => `${folder}/`.endsWith(`/${path}`));
  return ROOT_FILES.includes(path) || FILES.some((file) => file.endsWith(`/${path}`));
}

/** Every link's problem: a missing target or anchor, or a host outside this machine. */
function badLinks(doc: string): string[] {
  const { prose } = partsOf(read(doc));
  const problems: string[] = [];
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)|<(https?:[^>\s]+)>|(https?:\/\/[^\s)>`'"]+)/g)) {
    const target = m[1] ?? m[2] ?? m[3]!;
    const line = lineOf(prose, m.index);
    if (/^https?:/.test(target)) {
      if (!LOCAL_HOST.test(/^https?:\/\/([^/:?#,]+)/.exec(target)![1]!))
        problems.push(`${doc}:${line} ${target} leaves the repository`);
      continue;
    }
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const path = file === '' ? doc : posix.normalize(posix.join(posix.dirname(doc), file));
    if (!existsSync(posix.join(ROOT, path))) problems.push(`${doc}:${line} ${target}: no ${path}`);
    else if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(read(path)).has(anchor)) {
      problems.push(`${doc}:${line} ${target}: no heading #${anchor} in ${path}`);
    }
  }
  return problems;
}

const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const PASCAL = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*$/;
const CONSTANT = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const isCodeLike = (word: string) => CAMEL.test(word) || PASCAL.test(word) || CONSTANT.test(word);
const known = (name: string) =>
  CODE.names.has(name) ||
  name in NOT_IN_THE_CODE ||
  (CONFIG_VARIABLES as readonly string[]).includes(name) ||
  name in PACKAGE.scripts ||
  TABLE.includes(`"${name}"`);

/** A call's arguments that the definitions of `name` do not take (a parameter's name, or a GraphQL argument). */
function wrongArguments(name: string, args: string[]): string | undefined {
  const plain = args.map((arg) => arg.trim()).filter(Boolean);
  const named = plain.filter((arg) => /^\w+\s*:/.test(arg)).map((arg) => arg.split(':')[0]!.trim());
  const graphql = CODE.graphqlArguments.get(name);
  if (named.length > 0) {
    const unknown = named.filter((arg) => !graphql?.has(arg));
    return unknown.length > 0 ? `no argument ${unknown.join(', ')}` : undefined;
  }
  if (!plain.every((arg) => /^\w+$/.test(arg) && !/^(null|true|false|\d+)$/.test(arg))) return undefined;
  if (graphql && plain.every((arg) => graphql.has(arg))) return undefined;
  const signatures = CODE.parameters.get(name);
  if (!signatures) return graphql ? `no argument ${plain.join(', ')}` : undefined;
  const fits = (parameters: string[]) =>
    plain.length <= parameters.length &&
    plain.every((arg, i) => {
      const parameter = parameters[i]!;
      return parameter === '' || arg === parameter || arg.endsWith(parameter[0]!.toUpperCase() + parameter.slice(1));
    });
  // An implementation may destructure a parameter or leave unused ones out: the declared names decide.
  const declared = signatures.filter((parameters) => parameters.length > 0 && !parameters.includes(''));
  if ((declared.length > 0 ? declared : signatures).some(fits)) return undefined;
  const lists = (declared.length > 0 ? declared : signatures).map((parameters) => `(${parameters.join(', ')})`);
  return `takes ${lists.join(' or ')}`;
}

/** What is wrong with the identifiers of one code span. */
function badIdentifiers({ doc, line, text }: Found): string[] {
  if (/[/\\]|:\/\/|\.(tsx?|m?js|json|md|graphql|java|sh|ya?ml|css|html)$/.test(text) && !/\(/.test(text)) return [];
  // Strings and placeholders (`S#<branchId>`) name nothing of the code.
  const code = text.replace(/'[^']*'|"[^"]*"|<[^<>]*>/g, '""');
  const problems: string[] = [];
  for (const m of code.matchAll(
    /(?<![\w$@.#-])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?![\w$-])(?:\(([^()]*)\))?/g,
  )) {
    const [chain, args] = [m[1]!, m[2]];
    const parts = chain.split('.');
    const say = (what: string) => problems.push(`${doc}:${line} \`${text}\`: ${what}`);
    // `TreeStore.scoped`: a member of a type; `place.transaction`: of a value, whose type is not known here.
    const members = parts.length > 1 && PASCAL.test(parts[0]!) ? CODE.members.get(parts[0]!) : undefined;
    if (members) {
      if (!members.has(parts[1]!)) say(`${parts[0]} has no member ${parts[1]}`);
    } else {
      for (const part of parts) if (isCodeLike(part) && !known(part)) say(`${part} is not in the code`);
    }
    const callee = parts.at(-1)!;
    if (args !== undefined && parts.length === 1 && !isCodeLike(callee) && !known(callee) && /^[a-z]/.test(callee)) {
      say(`${callee} is not in the code`);
    }
    if (args !== undefined) {
      const wrong = wrongArguments(callee, args.split(','));
      if (wrong) say(`${callee} ${wrong}`);
    }
  }
  return problems;
}

/** Every `npm run X` and `tree X --option` of a document, spans and blocks alike. */
function commandsIn(doc: string): Found[] {
  const text = read(doc);
  return [...text.matchAll(/npm run (?:-s )?([a-z][\w:-]*)(?: -- ([^`\n|)]*))?|`tree (\w+)([^`]*)`/g)].map((m) => ({
    doc,
    line: lineOf(text, m.index),
    text: m[3] !== undefined ? `tree ${m[3]}${m[4]}` : m[1] === 'tree' ? `tree ${m[2] ?? ''}` : `npm run ${m[1]}`,
  }));
}
function badCommand({ text }: Found): string | undefined {
  if (text.startsWith('npm run ')) return text.slice(8) in PACKAGE.scripts ? undefined : 'no such npm script';
  const [command, ...rest] = text.slice(5).trim().split(/\s+/);
  if (command === undefined || command === '' || command.startsWith('<')) return undefined;
  if (!command.startsWith('-') && !TREE_COMMANDS.has(command) && !MISTYPED.has(command))
    return `no tree command ${command}`;
  const options = [command, ...rest].filter((word) => /^--[\w-]+$/.test(word) && !TREE_OPTIONS.has(word));
  return options.length > 0 ? `no tree option ${options.join(', ')}` : undefined;
}

const SERVED = buildASTSchema(parse(read('schema/schema.graphql')), { assumeValidSDL: true });

/** The fields of the schema's types that a document's GraphQL blocks define differently. */
function sdlDrift(doc: string): string[] {
  const problems: string[] = [];
  for (const block of partsOf(read(doc)).blocks.filter((b) => b.lang === 'graphql')) {
    let ast: DocumentNode;
    try {
      ast = parse(block.text);
    } catch {
      continue; // an operation with an elision, or prose: not SDL
    }
    for (const definition of ast.definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
      if (definition.directives?.length) continue; // another subgraph's type
      const type = SERVED.getType(definition.name.value);
      if (!type || !('getFields' in type)) continue;
      const fields = type.getFields() as Record<string, GraphQLField<unknown, unknown>>;
      for (const field of definition.fields ?? []) {
        const actual = fields[field.name.value];
        const line = block.line + (field.loc?.startToken.line ?? 1) - 1;
        const where = `${doc}:${line} ${definition.name.value}.${field.name.value}`;
        if (!actual) {
          problems.push(`${where}: no such field`);
          continue;
        }
        if (print(field.type) !== String(actual.type)) {
          problems.push(`${where}: ${print(field.type)}, not ${String(actual.type)}`);
        }
        for (const arg of field.arguments ?? []) {
          const real = actual.args.find((a) => a.name === arg.name.value);
          if (!real || String(real.type) !== print(arg.type)) {
            const schemaHas = real ? String(real.type) : 'no such argument';
            problems.push(`${where}(${arg.name.value}: ${print(arg.type)}): the schema has ${schemaHas}`);
          }
        }
      }
    }
  }
  return problems;
}

/** Problems one per line, so that a failure lists them all. */
const lines = (problems: string[]) => problems.join('\n');

describe('the docs', () => {
  it('name files, identifiers and commands of the repository', () => {
    expect(DOCS.flatMap(pathsIn).length).toBeGreaterThan(50);
    expect(DOCS.flatMap(spansOf).length).toBeGreaterThan(1000);
    expect(DOCS.flatMap(commandsIn).length).toBeGreaterThan(50);
  });

  it.each(DOCS)('%s names only files that exist', (doc) => {
    expect(
      lines(
        pathsIn(doc)
          .filter(({ text }) => !pathExists(text))
          .map(at),
      ),
    ).toBe('');
  });

  it.each(DOCS)('%s links only to files and headings that exist, in the repository', (doc) => {
    expect(lines(badLinks(doc))).toBe('');
  });

  it.each(DOCS)('%s names only identifiers of the code, with their parameters', (doc) => {
    expect(lines(spansOf(doc).flatMap(badIdentifiers))).toBe('');
  });

  it.each(DOCS)('%s runs only npm scripts and tree commands that exist', (doc) => {
    expect(
      lines(commandsIn(doc).flatMap((found) => (badCommand(found) ? [`${at(found)}: ${badCommand(found)}`] : []))),
    ).toBe('');
  });

  it.each(DOCS)("%s shows the schema's fields as the schema has them", (doc) => {
    expect(lines(sdlDrift(doc))).toBe('');
  });

  it('keep every exception in use', () => {
    const text = DOCS.map(read).join('\n');
    const exceptions = [...Object.keys(NOT_IN_THE_CODE), ...MISTYPED, ...PLACEHOLDER_FILES];
    expect(exceptions.filter((name) => !text.includes(name))).toEqual([]);
  });
});
