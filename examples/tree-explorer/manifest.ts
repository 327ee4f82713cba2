import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { InMemoryCache } from '@apollo/client';
import { Kind, print, type DocumentNode } from 'graphql';
import * as operations from './src/operations.ts';

/**
 * `npm run example:manifest [-- FILE]`: registers the app's operations for a server in trusted
 * documents mode (TRUSTED_DOCUMENTS=FILE; default examples/tree-explorer/persisted-query-manifest.json).
 * Each operation is written as Apollo Client sends it (with the `__typename` fields its cache
 * adds), in Apollo's persisted query manifest format, its id the SHA-256 of its text.
 */
const out = process.argv[2] ?? new URL('./persisted-query-manifest.json', import.meta.url).pathname;
const cache = new InMemoryCache();
// The operations, not the fragments they spread (each operation's document holds its fragments).
const documents = Object.values(operations).filter(
  (value): value is DocumentNode =>
    typeof value === 'object' &&
    value !== null &&
    'definitions' in value &&
    (value as DocumentNode).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION),
);
const manifest = {
  format: 'apollo-persisted-query-manifest',
  version: 1,
  operations: documents.map((document) => {
    const body = print(cache.transformDocument(document));
    const definition = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    return {
      id: createHash('sha256').update(body).digest('hex'),
      name: definition && 'name' in definition ? (definition.name?.value ?? null) : null,
      type: definition && 'operation' in definition ? definition.operation : 'query',
      body,
    };
  }),
};
writeFileSync(out, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`${manifest.operations.length} operations registered in ${out}`);
