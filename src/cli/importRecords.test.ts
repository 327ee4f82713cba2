import { describe, expect, it } from 'vitest';
import { ImportProblems, inParentOrder, parseImport } from './importRecords.js';

const problemsOf = (text: string, format: 'json' | 'csv'): string[] => {
  try {
    parseImport(text, format);
  } catch (error) {
    if (error instanceof ImportProblems) return error.problems;
    throw error;
  }
  return [];
};

describe('parseImport', () => {
  it('reads CSV with quoted fields, line breaks inside them, optional columns and CRLF', () => {
    const text = 'id,parentId,name,data\r\na,,"Tables, ""chairs""",\r\nb,a,two,"{""k"":\n1}"\r\nc,a,plain,\r\n';
    expect(parseImport(text, 'csv')).toEqual([
      { id: 'a', parentId: null, name: 'Tables, "chairs"', data: null, position: null, at: 'line 2' },
      { id: 'b', parentId: 'a', name: 'two', data: { k: 1 }, position: null, at: 'line 3' },
      { id: 'c', parentId: 'a', name: 'plain', data: null, position: null, at: 'line 5' },
    ]);
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
    expect(parseImport(nested, 'json').map(({ id, parentId, at }) => [id, parentId, at])).toEqual([
      ['r', null, 'record 1'],
      ['r.1', 'r', 'record 2'],
      ['r.2', 'r', 'record 3'],
    ]);
    const flat = JSON.stringify([
      { id: 'b', parentId: 'a', name: 'B', position: 'a1' },
      { id: 'a', parentId: null, name: 'A' },
    ]);
    expect(inParentOrder(parseImport(flat, 'json')).map(({ record, depth }) => [record.id, depth])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });

  it('reports every problem with its line or record, and refuses the whole file', () => {
    const csv = ['id,parentId,name', 'a,,A', 'a,,again', 'bad id,,B', 'c,,', 'd,e,D', 'e,d,E', 'f,f,F'].join('\n');
    expect(problemsOf(csv, 'csv')).toEqual([
      expect.stringMatching(/^line 4: id must match/),
      expect.stringMatching(/^line 5: name must be 1\.\.256 characters/),
      'line 8: "f" names itself as its parent',
      'line 3: id "a" already used at line 2',
      'line 6: "d" is in a cycle of parents: d -> e -> d',
    ]);
    expect(problemsOf('id,name\na,A', 'csv')).toEqual([
      'line 1: the header must name parentId (id,parentId,name[,position][,data])',
    ]);
    expect(problemsOf('id,parentId,name,data\na,,A,{oops', 'csv')).toEqual(['line 2: data is not JSON']);
    expect(problemsOf('{"id": "a"}', 'json')).toEqual(['the file must hold a JSON array of records']);
    expect(problemsOf('[{"id": "a", "name": "A", "data": [1]}, 7]', 'json')).toEqual([
      'record 1: data must be a JSON object',
      'record 2: a record must be an object',
    ]);
    expect(problemsOf('[{"id": "a", "name": "A"', 'json')[0]).toMatch(/^the file is not JSON/);
  });
});
