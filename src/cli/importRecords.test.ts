import { describe, expect, it } from 'vitest';
import { CATALOG_TYPES } from '../graphql/buildSchema.js';
import { loadNodeTypes } from '../nodeTypes/loadNodeTypes.js';
import { TypedData } from '../nodeTypes/typedData.js';
import { inParentOrder, parseImport } from './importRecords.js';

const problemsOf = (text: string, format: 'json' | 'csv'): string[] =>
  parseImport(text, format).problems.map((p) => p.message);

describe('parseImport', () => {
  it('reads CSV with quoted fields, line breaks inside them, optional columns and CRLF', () => {
    const text = 'id,parentId,name,data\r\na,,"Tables, ""chairs""",\r\nb,a,two,"{""k"":\n1}"\r\nc,a,plain,\r\n';
    expect(parseImport(text, 'csv')).toEqual({
      records: [
        {
          id: 'a',
          parentId: null,
          name: 'Tables, "chairs"',
          data: null,
          type: null,
          position: null,
          at: 'line 2',
          place: 2,
        },
        { id: 'b', parentId: 'a', name: 'two', data: { k: 1 }, type: null, position: null, at: 'line 3', place: 3 },
        { id: 'c', parentId: 'a', name: 'plain', data: null, type: null, position: null, at: 'line 5', place: 5 },
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
      'g,,G,"{""a"": 1,,}"',
    ].join('\n');
    const parsed = parseImport(csv.replace('id,parentId,name', 'id,parentId,name,data'), 'csv');
    expect(parsed.problems.map((p) => p.message)).toEqual([
      'line 3: id "a" already used at line 2',
      'line 4: id must be 1 to 64 letters, digits, or any of _ . : -; got "bad id", which holds a space',
      'line 5: name must be 1 to 256 characters and not blank; got an empty name',
      'line 6: parentId must be 1 to 64 letters, digits, or any of _ . : -; got "bad id", which holds a space',
      'line 8: "f" names itself as its parent',
      'line 9: data is not JSON: {"a": 1,,} (Expected double-quoted property name in JSON at position 8)',
    ]);
    expect(parsed.problems.map((p) => p.place)).toEqual([3, 4, 5, 6, 8, 9]);
    // A record with a bad name or data still has its place in the tree (its children are checked
    // against it); one whose parent cannot be read is unplaced; a duplicate or a bad id is neither.
    expect(parsed.records.map((r) => r.id)).toEqual(['a', 'c', 'e', 'g']);
    expect(parsed.unplaced).toEqual(new Set(['d', 'f']));

    expect(problemsOf('id,name\na,A', 'csv')).toEqual([
      'line 1: the header must name parentId (id,parentId,name[,position][,data]); got "id,name"',
    ]);
    expect(problemsOf('\n', 'csv')).toEqual([
      'line 1: the header must name id, parentId, name (id,parentId,name[,position][,data]); got an empty line',
    ]);
    expect(problemsOf('id,parentId,name\na,A,"open', 'csv')).toEqual([
      'line 2: a quoted field is not closed (no " ends it); got "open',
    ]);
    expect(problemsOf('{"id": "a"}', 'json')).toEqual([
      'the file must hold a JSON array of records; got an object: {"id":"a"}',
    ]);
    expect(
      problemsOf('[{"id": "a", "name": "A", "data": [1]}, 7, {"id": "b", "name": "B", "children": "c"}]', 'json'),
    ).toEqual([
      'record 1: data must be a JSON object; got an array: [1]',
      'record 2: a record must be an object; got a number: 7',
      'record 3: children must be an array; got a string: "c"',
    ]);
    expect(problemsOf('[{"id": "a",\n "name": "A"', 'json')).toEqual([
      "the file is not JSON: Expected ',' or '}' after property value in JSON at position 25 (line 2), " +
        'near: [{"id": "a",\\n "name": "A"',
    ]);
    expect(problemsOf(`[{"id": "a", "name": "${'x'.repeat(50)}"}] ]`, 'json')).toEqual([
      'the file is not JSON: Unexpected non-whitespace character after JSON at position 76 (line 1), ' +
        `near: …${'x'.repeat(26)}"}] ]`,
    ]);
    // A CSV file read as JSON: the message names --format csv.
    expect(problemsOf('ID,Parent,Name\na,,A', 'json')).toEqual([
      expect.stringMatching(/^the file is not JSON: .*; for a CSV file, give --format csv/),
    ]);
  });

  it('says what each wrong field holds, an excerpt of at most 40 characters with control characters escaped', () => {
    const long = (c: string, n: number) => c.repeat(n);
    const problem = (line: string, header = 'id,parentId,name,data,position') =>
      problemsOf(`${header}\n${line}`, 'csv').map((message) => message.replace(/^line 2: /, ''));
    const ID = 'id must be 1 to 64 letters, digits, or any of _ . : -; got';
    expect(problem(',,A')).toEqual([`${ID} an empty id`]);
    expect(problem(`${long('n', 70)},,A`)).toEqual([`${ID} 70 characters: "${long('n', 40)}…"`]);
    expect(problem('"a\u0001b",,A')).toEqual([`${ID} "a\\u0001b", which holds a control character (U+0001)`]);
    const NAME = 'name must be 1 to 256 characters and not blank; got';
    expect(problem(`a,,${long('é', 300)}`)).toEqual([`${NAME} 300 characters: "${long('é', 40)}…"`]);
    expect(problem('a,,"  "')).toEqual([`${NAME} a blank name: "  "`]);
    expect(problem('a,,"two\nlines"')).toEqual([
      'name must be well-formed Unicode without control characters (tabs, line breaks); ' +
        'got "two\\nlines", which holds a line break',
    ]);
    expect(problem('a,,A,5')).toEqual(['data must be a JSON object; got a number: 5']);
    expect(problem('a,,A,"{""n"": 1e400}"')).toEqual(['data.n is not a finite number; got {"n": 1e400}']);
    expect(problem(`a,,A,"{""t"": ""${long('y', 70_000)}""}"`)).toEqual([
      `data must be at most 65,536 bytes of JSON in UTF-8; got 70,008 bytes: {"t": "${long('y', 33)}…`,
    ]);
    expect(problem('a,,A,,a-1')).toEqual([
      'position must be 1 to 200 letters and digits (a sort key, as an export writes); got "a-1", which holds "-"',
    ]);
    expect(
      problemsOf('[{"name": "A"}, {"id": {"k": 1}, "name": "B", "data": {"k": [[[]]], "s": "\\ud800"}}]', 'json'),
    ).toEqual([
      `record 1: ${ID} no id`,
      `record 2: ${ID} an object: {"k":1}`,
      'record 2: data.s holds a string that is not well-formed Unicode (a lone surrogate); ' +
        'got {"k":[[[]]],"s":"\\ud800"}',
    ]);
  });

  it('leaves the children of a nested record without a readable id unplaced, with no problem of their own', () => {
    const parsed = parseImport(JSON.stringify([{ name: 'no id', children: [{ id: 'k', name: 'K' }] }]), 'json');
    expect(parsed.problems.map((p) => p.message)).toEqual([
      'record 1: id must be 1 to 64 letters, digits, or any of _ . : -; got no id',
    ]);
    expect(parsed.records).toEqual([]);
    expect(parsed.unplaced).toEqual(new Set(['k']));
  });
});

describe('parseImport under NODE_TYPES', () => {
  const typed = new TypedData(loadNodeTypes(CATALOG_TYPES));

  it('checks each record against its type, the children its parent allows, its path key: by line, in one pass', () => {
    const csv = [
      'id,parentId,name,data,type',
      'shop,,Shop,"{""slug"":""shop""}",Category',
      'lamp,shop,Lamp,"{""slug"":""lamp"",""price"":""cheap""}",Product',
      'bulb,lamp,Bulb,"{""slug"":""bulb""}",Product',
      'note,shop,Note,,',
      'odd,shop,Odd,,Shelf',
      'desk,shop,Desk,"{""slug"":""lamp"",""price"":3}",Product',
      'shop2,,Shop 2,"{""slug"":""shop""}",Category',
    ].join('\n');
    const parsed = parseImport(csv, 'csv', typed);
    expect(parsed.problems.map((p) => p.message)).toEqual([
      'line 3: Product.price must be a finite number',
      'line 4: Product "lamp" holds no children: it cannot hold a Product',
      'line 5: Category "shop" holds only Category, Product: it cannot hold an untyped node',
      'line 6: type Shelf is not a node type (NODE_TYPES declares Category, Product)',
      // Path keys unique under a parent (the roots need none).
      'line 7: path key "lamp" is taken under "shop" by line 3',
    ]);
    expect(parsed.records.find((r) => r.id === 'shop')?.type).toBe('Category');
  });

  it('reads a JSON record’s type, and refuses one without NODE_TYPES', () => {
    const json = JSON.stringify([{ id: 'a', name: 'A', type: 'Category', data: { slug: 'a' } }]);
    expect(parseImport(json, 'json', typed).records[0]?.type).toBe('Category');
    expect(problemsOf(json, 'json')).toEqual(['record 1: type Category: no node types are declared (NODE_TYPES)']);
  });
});
