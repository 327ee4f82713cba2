import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Sizes that keep the code readable: a function short enough to read at once, anywhere under src/,
 * and, in the storage layer, a folder small enough to hold in one's head (tests beside the code
 * are not counted).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = 'src';
const STORAGE = 'src/storage';
const MAX_FILES_PER_FOLDER = 12;
const MAX_FUNCTION_LINES = 60;

const folders = (dir: string): string[] => [
  dir,
  ...readdirSync(posix.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => folders(posix.join(dir, entry.name))),
];
const sourcesIn = (dir: string): string[] =>
  readdirSync(posix.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => posix.join(dir, entry.name));

/** Every function, method and arrow function of a file longer than `max` lines, as `file:line name (n lines)`. */
function longFunctions(file: string, max: number): string[] {
  const text = readFileSync(posix.join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      if (end - start + 1 > max) found.push(`${file}:${start + 1} ${name} (${end - start + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('sizes under src/storage', () => {
  it(`holds at most ${MAX_FILES_PER_FOLDER} source files in a folder`, () => {
    const crowded = folders(STORAGE)
      .map((dir) => [dir, sourcesIn(dir).length] as const)
      .filter(([, count]) => count > MAX_FILES_PER_FOLDER);
    expect(crowded).toEqual([]);
  });
});

describe('sizes under src', () => {
  it(`has no function longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const files = folders(SOURCES).flatMap(sourcesIn);
    expect(files.filter((file) => file.startsWith(`${STORAGE}/`)).length).toBeGreaterThan(40);
    expect(files.filter((file) => !file.startsWith(`${STORAGE}/`)).length).toBeGreaterThan(40);
    expect(files.flatMap((file) => longFunctions(file, MAX_FUNCTION_LINES))).toEqual([]);
  });

  it('measures what it checks', () => {
    const file = 'src/storage/engine/writes/moveNode.ts';
    expect(longFunctions(file, 10).some((found) => found.includes(' moveNode ('))).toBe(false);
    expect(longFunctions(file, 5).some((found) => found.includes(' moveNode ('))).toBe(true);
  });
});
