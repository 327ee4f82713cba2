import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse, print } from 'graphql';
import { TreeError } from '../errors.js';

/**
 * Trusted documents (TRUSTED_DOCUMENTS): only the operations of a manifest written at build time
 * run. The manifest is Apollo's persisted query manifest format, which its tooling and
 * `npm run example:manifest` write: `{ "format": "apollo-persisted-query-manifest", "version": 1,
 * "operations": [{ "id": sha256(body), "name", "type", "body" }] }`. A request names an operation
 * by its id (`extensions.persistedQuery.sha256Hash`, with or without the text) or sends its text,
 * compared whatever its layout (the hash of its printed syntax tree).
 */
export interface TrustedDocuments {
  /** Operation text by manifest id. */
  byId: ReadonlyMap<string, string>;
  /** Layout-independent hashes of every operation (documentHash). */
  documents: ReadonlySet<string>;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Pure: the hash of a document whatever its layout; null when it does not parse. */
export function documentHash(text: string): string | null {
  try {
    return sha256(print(parse(text)));
  } catch {
    return null;
  }
}

/** Pure: the trusted documents of a manifest; throws with what is wrong in it. */
export function trustedDocumentsOf(manifest: unknown): TrustedDocuments {
  const { format, operations } = (manifest ?? {}) as { format?: unknown; operations?: unknown };
  if (format !== 'apollo-persisted-query-manifest' || !Array.isArray(operations)) {
    throw new Error(
      'not an Apollo persisted query manifest ({ "format": "apollo-persisted-query-manifest", "operations": [...] })',
    );
  }
  const byId = new Map<string, string>();
  const documents = new Set<string>();
  for (const [index, operation] of operations.entries()) {
    const { id, body } = (operation ?? {}) as { id?: unknown; body?: unknown };
    const hash = typeof body === 'string' ? documentHash(body) : null;
    if (typeof id !== 'string' || typeof body !== 'string' || hash === null)
      throw new Error(`operation ${index} needs an id and a body that parses`);
    if (sha256(body) !== id) throw new Error(`operation ${index}: its id is not the SHA-256 of its body`);
    byId.set(id, body);
    documents.add(hash);
  }
  return { byId, documents };
}

/** The manifest file at `path`, read once at start. */
export function loadTrustedDocuments(path: string): TrustedDocuments {
  try {
    return trustedDocumentsOf(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    throw new Error(`TRUSTED_DOCUMENTS (${path}): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Pure: the query text a request may run, from its text and its persisted query hash; a refusal
 * (HTTP 400 PERSISTED_QUERY_NOT_IN_LIST) for anything the manifest does not hold.
 */
export function trustedQuery(trusted: TrustedDocuments, query: unknown, hash: unknown): string | TreeError {
  if (typeof query === 'string') {
    const known = documentHash(query);
    if (known !== null && trusted.documents.has(known)) return query;
  } else if (typeof hash === 'string' && trusted.byId.has(hash)) {
    return trusted.byId.get(hash)!;
  }
  return new TreeError(
    'PERSISTED_QUERY_NOT_IN_LIST',
    'only the operations registered with this server run here (TRUSTED_DOCUMENTS)',
    undefined,
    {
      httpStatus: 400,
    },
  );
}
