import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { Kind, parse, type DefinitionNode } from 'graphql';
import ts from 'typescript';

/**
 * The names a repository's code defines or uses, for the test that checks the names the docs
 * give (test/offline/docs.test.ts): the TypeScript declarations under `folders` (functions,
 * classes, interfaces, types, enums and their members, variables, methods, properties, object
 * literal keys), the names it imports or reads from libraries (the SDK's `UnprocessedKeys`), the
 * words of its string literals (SDL held in strings, error codes, command names), and the GraphQL
 * schema's types, fields, arguments and enum values. Comments are not code: a name that only a
 * comment still mentions is not in.
 */
export interface CodeNames {
  names: Set<string>;
  /** The members of each interface, class, object type and object literal constant, by its name. */
  members: Map<string, Set<string>>;
  /** Each function's or method's parameter names, one list per definition ('' when destructured). */
  parameters: Map<string, string[][]>;
  /** Each GraphQL field's argument names, by field name (whatever its type). */
  graphqlArguments: Map<string, Set<string>>;
}

const SKIPPED = new Set(['node_modules', 'dist', '.data', 'test-artifacts', 'coverage', 'scratch']);

/** Every file under `folder` (relative to root), generated folders left out. */
export function filesUnder(root: string, folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(posix.join(root, dir), { withFileTypes: true })) {
      if (SKIPPED.has(entry.name) || entry.name === '.git') continue;
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else found.push(path);
    }
  };
  walk(folder);
  return found;
}

/** The names of the code under `folders`, but `except` (the test's own file: its strings quote the docs). */
export function codeNames(root: string, folders: string[], schemaFiles: string[], except: string): CodeNames {
  const found: CodeNames = { names: new Set(), members: new Map(), parameters: new Map(), graphqlArguments: new Map() };
  const heritage = new Map<string, string[]>();
  const files = folders.flatMap((folder) => filesUnder(root, folder));
  for (const file of files.filter((f) => /\.tsx?$/.test(f) && f !== except)) {
    const source = ts.createSourceFile(file, readFileSync(posix.join(root, file), 'utf8'), ts.ScriptTarget.Latest);
    collectTypeScript(source, found, heritage);
  }
  resolveHeritage(found.members, heritage);
  for (const file of schemaFiles) collectGraphQL(readFileSync(posix.join(root, file), 'utf8'), found);
  return found;
}

const add = <K, V>(map: Map<K, V[]>, key: K, value: V) => map.set(key, [...(map.get(key) ?? []), value]);
const wordsOf = (text: string) => text.match(/[A-Za-z_$][\w$]*/g) ?? [];

function collectTypeScript(source: ts.SourceFile, found: CodeNames, heritage: Map<string, string[]>): void {
  const nameOf = (node: ts.Node | undefined): string | undefined =>
    node && (ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isPrivateIdentifier(node)) ? node.text : undefined;
  const parametersOf = (fn: ts.SignatureDeclarationBase) =>
    fn.parameters.map((parameter) => (ts.isIdentifier(parameter.name) ? parameter.name.text : ''));
  const membersOf = (container: string, elements: readonly ts.Node[]) => {
    const members = found.members.get(container) ?? new Set<string>();
    for (const element of elements) {
      const name = nameOf((element as { name?: ts.Node }).name);
      if (name !== undefined) members.add(name);
    }
    found.members.set(container, members);
  };
  /** The members of a type written out: its literals' members, the named types it combines. */
  const typeMembers = (container: string, type: ts.TypeNode | undefined) => {
    if (!type) return;
    if (ts.isTypeLiteralNode(type)) membersOf(container, type.members);
    else if (ts.isUnionTypeNode(type) || ts.isIntersectionTypeNode(type)) {
      for (const part of type.types) typeMembers(container, part);
    } else if (ts.isTypeReferenceNode(type)) add(heritage, container, type.typeName.getText(source));
    else if (ts.isParenthesizedTypeNode(type)) typeMembers(container, type.type);
  };

  const visit = (node: ts.Node): void => {
    const name = nameOf((node as { name?: ts.Node }).name);
    if (name !== undefined && !ts.isParameter(node)) found.names.add(name);
    if (ts.isPropertyAccessExpression(node)) found.names.add(node.name.text);
    if (ts.isImportSpecifier(node) && node.propertyName) found.names.add(nameOf(node.propertyName)!);
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      for (const word of wordsOf(node.text)) found.names.add(word);
      if (/^\s*(#.*\n\s*)*(extend\s+)?(type|interface|input|enum|schema)\b/.test(node.text)) sdlIn(node.text, found);
    }
    if (name !== undefined && (ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node))) {
      membersOf(name, node.members);
      for (const clause of node.heritageClauses ?? []) {
        for (const type of clause.types) add(heritage, name, type.expression.getText(source));
      }
    }
    if (name !== undefined && ts.isTypeAliasDeclaration(node)) typeMembers(name, node.type);
    if (name !== undefined && ts.isVariableDeclaration(node) && node.initializer) {
      const value =
        ts.isAsExpression(node.initializer) || ts.isSatisfiesExpression(node.initializer)
          ? node.initializer.expression
          : node.initializer;
      if (ts.isObjectLiteralExpression(value)) membersOf(name, value.properties);
    }
    if (
      name !== undefined &&
      (ts.isFunctionLike(node) || ts.isPropertySignature(node) || ts.isPropertyDeclaration(node))
    ) {
      const fn = ts.isFunctionLike(node) ? node : node.type && ts.isFunctionTypeNode(node.type) ? node.type : undefined;
      if (fn) add(found.parameters, name, parametersOf(fn));
    }
    if (name !== undefined && (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) && node.initializer) {
      if (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) {
        add(found.parameters, name, parametersOf(node.initializer));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** Adds to each container the members of the types it extends or combines, transitively. */
function resolveHeritage(members: Map<string, Set<string>>, heritage: Map<string, string[]>): void {
  const resolve = (name: string, seen: Set<string>): Set<string> => {
    const own = members.get(name) ?? new Set<string>();
    for (const parent of heritage.get(name) ?? []) {
      const base = parent.replace(/<.*$/, '').split('.').pop()!;
      if (seen.has(base)) continue;
      seen.add(base);
      for (const member of resolve(base, seen)) own.add(member);
    }
    members.set(name, own);
    return own;
  };
  for (const name of heritage.keys()) resolve(name, new Set([name]));
}

/** The names of SDL that the code holds in a string (a subgraph's), when it parses. */
function sdlIn(text: string, found: CodeNames): void {
  try {
    collectGraphQL(text, found);
  } catch {
    // not SDL after all, or a template with substitutions
  }
}

/**
 * The schema's names, and those `SCHEMA_PREFIX=Tree` gives (the docs' example prefix): `TreeNode`
 * for a type, `treeRoots` for a root field.
 */
function collectGraphQL(sdl: string, found: CodeNames): void {
  const capitalized = (name: string) => name[0]!.toUpperCase() + name.slice(1);
  for (const definition of parse(sdl).definitions as DefinitionNode[]) {
    if (!('name' in definition) || !definition.name) continue;
    const type = definition.name.value;
    found.names.add(type);
    const isRoot = ['Query', 'Mutation', 'Subscription'].includes(type);
    if (!isRoot && definition.kind !== Kind.SCALAR_TYPE_DEFINITION) found.names.add(`Tree${type}`);
    const fields = 'fields' in definition ? (definition.fields ?? []) : [];
    for (const container of isRoot ? [type] : [type, `Tree${type}`]) {
      const members = found.members.get(container) ?? new Set<string>();
      for (const field of fields) members.add(field.name.value);
      found.members.set(container, members);
    }
    for (const field of fields) {
      const names = isRoot ? [field.name.value, `tree${capitalized(field.name.value)}`] : [field.name.value];
      for (const name of names) {
        found.names.add(name);
        const args = found.graphqlArguments.get(name) ?? new Set<string>();
        for (const arg of 'arguments' in field ? (field.arguments ?? []) : []) args.add(arg.name.value);
        found.graphqlArguments.set(name, args);
      }
    }
    const values = 'values' in definition ? (definition.values ?? []) : [];
    for (const value of values) found.names.add(value.name.value);
  }
}
