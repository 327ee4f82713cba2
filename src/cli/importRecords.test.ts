import { describe, expect, it } from 'vitest';
import { inParentOrder, parseImport } from './importRecords.js';

const problemsOf = (text: string, format: 'json' | 'csv'): string[] =>
  parseImport(text, format).problems.map((p) => p.message);

describe('parseImport', () => {
  it('reads CSV with quoted fields, line breaks inside them, optional columns and CRLF', () => {
    const text = 'id,parentId,name,data\r\na,,"Tables, ""chairs""",\r\nb,a,two,"{""k"":\n1}"\r\nc,a,plain,\r\n';
    expect(parseImport(text, 'csv')).toEqual({
      records: [
        { id: 'a', parentId: null, name: 'Tables, "chairs"', data: null, position: null, at: 'line 2', place: 2 },
        { id: 'b', parentId: 'a', name: 'two', data: { k: 1 }, position: null, at: 'line 3', place: 3 },
        { id: 'c', parentId: 'a', name: 'plain', data: null, position: null, at: 'line 5', place: 5 },
      ],
      problems: [],
      unplaced: new Set(),
    });
  });

  it('reads flat and nested JSON, numbering records depth-first', () => {
    const nested = JSON.stringify([
      {
        id: 'r',
        name: 'R',
        children: [
          { id: 'r.1', name: 'one', data: { x: true } },
          { id: 'r.2', name: 'two' },
        ],
      },
    ]);
    expect(parseImport(nested, 'json').records.map(({ id, parentId, at }) => [id, parentId, at])).toEqual([
      ['r', null, 'record 1'],
      ['r.1', 'r', 'record 2'],
      ['r.2', 'r', 'record 3'],
    ]);
    const flat = JSON.stringify([
      { id: 'b', parentId: 'a', name: 'B', position: 'a1' },
      { id: 'a', parentId: null, name: 'A' },
    ]);
    expect(inParentOrder(parseImport(flat, 'json').records).map(({ record, depth }) => [record.id, depth])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });

  it('reports every problem of the records with its line or record, keeping what the shape checks need', () => {
    const csv = [
      'id,parentId,name',
      'a,,A',
      'a,,again',
      'bad id,,B',
      'c,,',
      'd,bad id,D',
      'e,d,E',
      'f,f,F',
      'g,,G,{oops',
    ].join('\n');
    const parsed = parseImport(csv.replace('id,parentId,name', 'id,parentId,name,data'), 'csv');
    expect(parsed.problems.map((p) => p.message)).toEqual([
      'line 3: id "a" already used at line 2',
      expect.stringMatching(/^line 4: id must match/),
      expect.stringMatching(/^line 5: name must be 1\.\.256 characters/),
      expect.stringMatching(/^line 6: parentId must match/),
      'line 8: "f" names itself as its parent',
      'line 9: data is not JSON',
    ]);
    expect(parsed.problems.map((p) => p.place)).toEqual([3, 4, 5, 6, 8, 9]);
    // A record with a bad name or data still has its place in the tree (its children are checked
    // against it); one whose parent cannot be read is unplaced; a duplicate or a bad id is neither.
    expect(parsed.records.map((r) => r.id)).toEqual(['a', 'c', 'e', 'g']);
    expect(parsed.unplaced).toEqual(new Set(['d', 'f']));

    expect(problemsOf('id,name\na,A', 'csv')).toEqual([
      'line 1: the header must name parentId (id,parentId,name[,position][,data])',
    ]);
    expect(problemsOf('id,parentId,name\na,,"open', 'csv')).toEqual(['line 2: a quoted field is not closed']);
    expect(problemsOf('{"id": "a"}', 'json')).toEqual(['the file must hold a JSON array of records']);
    expect(problemsOf('[{"id": "a", "name": "A", "data": [1]}, 7]', 'json')).toEqual([
      'record 1: data must be a JSON object',
      'record 2: a record must be an object',
    ]);
    expect(problemsOf('[{"id": "a",\n "name": "A"', 'json')).toEqual([
      expect.stringMatching(/^the file is not JSON: .* \(line 2\)$/),
    ]);
    // A CSV file read as JSON: the message names --format csv.
    expect(problemsOf('ID,Parent,Name\na,,A', 'json')).toEqual([
      expect.stringMatching(/^the file is not JSON: .*; for a CSV file, give --format csv/),
    ]);
  });

  it('leaves the children of a nested record without a readable id unplaced, with no problem of their own', () => {
    const parsed = parseImport(JSON.stringify([{ name: 'no id', children: [{ id: 'k', name: 'K' }] }]), 'json');
    expect(parsed.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^record 1: id must match/)]);
    expect(parsed.records).toEqual([]);
    expect(parsed.unplaced).toEqual(new Set(['k']));
  });
});
