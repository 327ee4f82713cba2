import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isTreeError } from '../errors.js';
import { documentHash, trustedDocumentsOf, trustedQuery } from './trustedDocuments.js';

const body = 'query Roots { roots { nodes { id } } }';
const id = createHash('sha256').update(body).digest('hex');
const manifest = {
  format: 'apollo-persisted-query-manifest',
  version: 1,
  operations: [{ id, name: 'Roots', type: 'query', body }],
};

describe('trusted documents', () => {
  it('compares documents whatever their layout', () => {
    expect(documentHash('query Roots {\n  roots {\n    nodes { id }\n  }\n}')).toBe(documentHash(body));
    expect(documentHash('query Roots { roots { nodes { id name } } }')).not.toBe(documentHash(body));
    expect(documentHash('{ not a document')).toBeNull();
  });

  it('answers the text to run, or a refusal', () => {
    const trusted = trustedDocumentsOf(manifest);
    expect(trustedQuery(trusted, 'query Roots { roots { nodes { id } } }', undefined)).toBe(
      'query Roots { roots { nodes { id } } }',
    );
    expect(trustedQuery(trusted, undefined, id)).toBe(body);
    for (const [query, hash] of [
      ['{ roots { nodes { id } } }', undefined],
      [undefined, 'f'.repeat(64)],
      [undefined, undefined],
      ['{ broken', id],
    ]) {
      const refused = trustedQuery(trusted, query, hash);
      expect(isTreeError(refused, 'PERSISTED_QUERY_NOT_IN_LIST')).toBe(true);
    }
  });

  it('refuses manifests it cannot trust', () => {
    expect(() => trustedDocumentsOf({ operations: [] })).toThrow(/not an Apollo persisted query manifest/);
    expect(() => trustedDocumentsOf({ ...manifest, operations: [{ id: 'f'.repeat(64), body }] })).toThrow(
      /not the SHA-256 of its body/,
    );
    expect(() => trustedDocumentsOf({ ...manifest, operations: [{ id, body: '{ broken' }] })).toThrow(
      /a body that parses/,
    );
  });
});
