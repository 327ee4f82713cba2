import { describe, expect, it } from 'vitest';
import { importFormat } from './importFormat.js';

describe('importFormat', () => {
  it('goes by the content when it can tell, saying so when the extension says otherwise', () => {
    expect(importFormat('trees.json', '[{"id": "a"}]')).toEqual({ format: 'json', note: null });
    expect(importFormat('trees.csv', 'id,parentId,name\na,,A\n')).toEqual({ format: 'csv', note: null });
    expect(importFormat('trees.txt', '\uFEFFid,parentId,name,position,data\r\na,,A,a0,\r\n')).toEqual({
      format: 'csv',
      note: 'reading trees.txt as CSV: its first line is a CSV header (id,parentId,name,position,data)',
    });
    expect(importFormat('export', '"name","id","parentId"\n')).toMatchObject({ format: 'csv' });
    // The first line as a note shows it: its first 80 characters, control characters escaped.
    expect(importFormat('x.json', `id,parentId,name,\t${'c'.repeat(100)}\n`).note).toBe(
      `reading x.json as CSV: its first line is a CSV header (id,parentId,name,\\t${'c'.repeat(62)}…)`,
    );
    expect(importFormat('TREES.CSV', '\n  [\n]')).toEqual({
      format: 'json',
      note: 'reading TREES.CSV as JSON: it starts as JSON does',
    });
  });

  it('goes by the extension otherwise: the reader of that format then says what is wrong', () => {
    expect(importFormat('trees.csv', 'id,name\n')).toEqual({ format: 'csv', note: null });
    expect(importFormat('trees.json', 'id;parentId;name\n')).toEqual({ format: 'json', note: null });
    expect(importFormat('trees', '')).toEqual({ format: 'json', note: null });
  });
});
