import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TENANT_PK_PREFIX } from '../../src/dynamodb/keys.js';
import { ITEM_KINDS } from '../../src/storage/engine/itemKinds.js';
import { STRATEGIES } from '../../src/storage/strategies/strategies.js';

/**
 * docs/design.md's table of the items in the table says what the code keeps: every kind of item
 * (src/storage/engine/itemKinds.ts, each with its schema) has its row, and every row is a kind,
 * a strategy's projection item (TreeStrategy.keyPrefixes), or a tenant's copy of the rest.
 */
const DESIGN = readFileSync(new URL('../../docs/design.md', import.meta.url), 'utf8');

/** The code spans of each pk and sk cell of the table under "### The table". */
function rows(): Array<{ line: string; pks: string[]; sks: string[] }> {
  const section = DESIGN.slice(DESIGN.indexOf('### The table'), DESIGN.indexOf('\n## 2.'));
  const spans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| pk') && !line.startsWith('| ---'))
    .map((line) => {
      const [pk = '', sk = ''] = line.split(' | ').map((cell) => cell.replace(/^\| /, ''));
      return { line, pks: spans(pk), sks: spans(sk) };
    });
}

const kindKeys = new Set(ITEM_KINDS.flatMap((kind) => kind.keys.map((key) => `${key.pk} ${key.sk}`)));
const strategyPk = STRATEGIES.flatMap((s) => s.keyPrefixes.pk);
const strategySk = STRATEGIES.flatMap((s) => s.keyPrefixes.sk);

describe("docs/design.md's table of items", () => {
  it('has a row for every kind of item the code keeps', () => {
    const documented = new Set(rows().flatMap((row) => row.pks.flatMap((pk) => row.sks.map((sk) => `${pk} ${sk}`))));
    expect([...kindKeys].filter((key) => !documented.has(key))).toEqual([]);
    expect(ITEM_KINDS.length).toBeGreaterThan(15);
  });

  it('lists only kinds with a schema, projection items of a strategy, and the tenants', () => {
    const unknown = rows().filter((row) => {
      if (row.pks.some((pk) => pk.startsWith(TENANT_PK_PREFIX))) return false;
      if (row.pks.some((pk) => strategyPk.some((prefix) => pk.startsWith(prefix)))) return false;
      if (row.sks.some((sk) => strategySk.some((prefix) => sk.startsWith(prefix)))) return false;
      return row.pks.length === 0 || row.pks.some((pk) => row.sks.some((sk) => !kindKeys.has(`${pk} ${sk}`)));
    });
    expect(unknown.map((row) => row.line)).toEqual([]);
  });
});
