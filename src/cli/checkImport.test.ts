import { describe, expect, it } from 'vitest';
import { checkImport, type TableFacts } from './checkImport.js';
import { ImportProblems } from './importProblems.js';
import { parseImport } from './importRecords.js';

const EMPTY_TABLE: TableFacts = { parentOf: new Map(), depthOf: new Map() };

const problemsOf = (csv: string[], table: TableFacts = EMPTY_TABLE, maxTreeDepth = 64): string[] =>
  checkImport(parseImport(csv.join('\n'), 'csv'), table, maxTreeDepth).map((p) => p.message);

describe('checkImport', () => {
  it("finds every problem in one pass, the file's own and the tree's, in the order of the lines", () => {
    // In the table: home (a root) > home.1; taken, a root elsewhere.
    const table: TableFacts = {
      parentOf: new Map([
        ['home.1', 'home'],
        ['taken', null],
      ]),
      depthOf: new Map([
        ['home', 0],
        ['home.1', 1],
      ]),
    };
    const csv = [
      'id,parentId,name',
      'x.4,x.3,too deep', // depth 4: home.1 (1) > x.1 (2) > x.2 (3) > x.3 (4) > x.4 (5)
      'x.1,home.1,fine',
      'x.2,x.1,"bad\tname"',
      'x.3,x.2,deep',
      'taken,x.1,elsewhere',
      'orphan,nowhere,no parent',
      'home.1,home,already imported',
      'c.1,c.2,one',
      'c.2,c.1,two',
      'c.3,c.2,under the cycle',
      'x.1,,again',
    ];
    expect(problemsOf(csv, table, 4)).toEqual([
      'line 2: "x.4" would lie at depth 5, past MAX_TREE_DEPTH (4)',
      'line 4: name must be well-formed Unicode without control characters (tabs, line breaks); ' +
        'got "bad\\tname", which holds a tab',
      'line 6: id "taken" is taken by a node that is a root',
      'line 7: parent "nowhere" is neither in the file nor in the table',
      'line 9: "c.1" is in a cycle of parents: c.1 -> c.2 -> c.1',
      'line 12: id "x.1" already used at line 3',
    ]);
    expect(problemsOf(csv.slice(0, 8), table, 5)).toEqual([
      expect.stringMatching(/^line 4: name must be well-formed Unicode/),
      'line 6: id "taken" is taken by a node that is a root',
      'line 7: parent "nowhere" is neither in the file nor in the table',
    ]);
  });

  it('reports a cycle once, at its first line, and nothing under it or under an unplaced record', () => {
    expect(problemsOf(['id,parentId,name', 'a,c,A', 'b,a,B', 'c,b,C', 'd,c,D', 'e,d,E'])).toEqual([
      'line 2: "a" is in a cycle of parents: a -> c -> b -> a',
    ]);
    expect(problemsOf(['id,parentId,name', 'z.1,z.2,Z', 'z.2,z.1,Z', 'a,c,A', 'c,a,C'])).toEqual([
      'line 2: "z.1" is in a cycle of parents: z.1 -> z.2 -> z.1',
      'line 4: "a" is in a cycle of parents: a -> c -> a',
    ]);
    // p cannot be placed (its parent id is bad): its child is in the file, its depth unknown.
    expect(problemsOf(['id,parentId,name', 'p,bad id,P', 'q,p,Q', 's,s,S', 't,s,T'], EMPTY_TABLE, 0)).toEqual([
      'line 2: parentId must be 1 to 64 letters, digits, or any of _ . : -; got "bad id", which holds a space',
      'line 4: "s" names itself as its parent',
    ]);
  });

  it('lists the first 100 of thousands of problems, with their count; a clean file has none', () => {
    // Two lines whose fields are wrong, and 4,821 records whose parent is nowhere.
    const csv = ['id,parentId,name', 'a,,', 'b,,"x\ty"'];
    for (let i = 0; i < 4821; i++) csv.push(`n${i},gone${i},N`);
    const problems = checkImport(parseImport(csv.join('\n'), 'csv'), EMPTY_TABLE, 64);
    expect(problems).toHaveLength(4823);
    const message = new ImportProblems(problems).message.split('\n');
    expect(message[0]).toBe('nothing was written: the file has 4,823 problems; the first 100:');
    expect(message).toHaveLength(101);
    expect(message[1]).toBe('  line 2: name must be 1 to 256 characters and not blank; got an empty name');
    expect(message[2]).toMatch(/^ {2}line 3: name must be well-formed .*; got "x\\ty", which holds a tab$/);
    expect(message[3]).toBe('  line 4: parent "gone0" is neither in the file nor in the table');
    expect(message[100]).toBe('  line 101: parent "gone97" is neither in the file nor in the table');
    expect(new ImportProblems(problems.slice(0, 1)).message).toMatch(
      /^nothing was written: the file has 1 problem:\n {2}line 2/,
    );

    const clean = ['id,parentId,name', 'r,,R', 'r.1,r,one', 'r.1.1,r.1,two', 'u,home,under a node of the table'];
    expect(problemsOf(clean, { parentOf: new Map([['r', null]]), depthOf: new Map([['home', 0]]) }, 2)).toEqual([]);
  });
});
