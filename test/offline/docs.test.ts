import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The docs name files of the repository (`src/storage/engine/writes/moveNode.ts`, or under
 * src/storage `engine/core/openJobs.ts`): each must exist, so that a file moved or renamed takes
 * its docs along. Generated files (.gitignore) are left out.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(posix.join(ROOT, 'docs')).map((name) => `docs/${name}`),
  // The example README that names files from the repository's root (the tree explorer's names
  // them from its own folder).
  'examples/supergraph/README.md',
];
const IGNORED = readFileSync(posix.join(ROOT, '.gitignore'), 'utf8').split('\n').filter(Boolean);

/** Every repository path a document names in code spans, with its line. */
function pathsIn(doc: string): Array<{ path: string; line: number }> {
  const text = readFileSync(posix.join(ROOT, doc), 'utf8');
  const found: Array<{ path: string; line: number }> = [];
  const spans = [
    { pattern: /`((?:src|test|bench|examples|schema)\/[\w./-]+)`/g, prefix: '' },
    { pattern: /`((?:engine|strategies|maintenance|store)\/[\w./-]+\.ts)`/g, prefix: 'src/storage/' },
  ];
  for (const { pattern, prefix } of spans) {
    for (const match of text.matchAll(pattern)) {
      const path = prefix + match[1]!.replace(/\/$/, '');
      if (!IGNORED.includes(path)) found.push({ path, line: text.slice(0, match.index).split('\n').length });
    }
  }
  return found;
}

describe('the docs', () => {
  it('name files of the repository', () => {
    expect(DOCS.flatMap(pathsIn).length).toBeGreaterThan(50);
  });

  it.each(DOCS)('%s names only files that exist', (doc) => {
    const named = pathsIn(doc);
    expect(
      named.filter(({ path }) => !existsSync(posix.join(ROOT, path))).map(({ path, line }) => `${doc}:${line} ${path}`),
    ).toEqual([]);
  });
});
