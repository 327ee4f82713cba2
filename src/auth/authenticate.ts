import type { IncomingHttpHeaders } from 'node:http';
import type { AuthConfig } from '../config.js';
import type { Dynamo } from '../dynamodb/client.js';
import { unauthenticated } from '../errors.js';
import { findApiKey, parseApiKey, secretMatches, type StoredApiKey } from './apiKeys.js';
import { ANONYMOUS, type Caller } from './caller.js';
import { grantsFrom } from './grants.js';
import { createJwtVerifier } from './verifyJwt.js';

/** Key records held at most (an unknown id is remembered too, so a flood of them costs little). */
const API_KEY_CACHE_SIZE = 10_000;

export type Authenticate = (headers: IncomingHttpHeaders) => Promise<Caller>;

/** The credentials of a request: `Authorization: Bearer <credential>`, or `X-API-Key`. */
function credentialOf(headers: IncomingHttpHeaders, acceptApiKeyHeader: boolean): string | undefined {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) throw unauthenticated('the Authorization header must be "Bearer <credential>"');
    return match[1];
  }
  const apiKey = headers['x-api-key'];
  return acceptApiKeyHeader && typeof apiKey === 'string' ? apiKey.trim() : undefined;
}

/**
 * Who a request comes from, established before anything of the operation runs: with AUTH=none,
 * anyone; with AUTH=jwt, the bearer token's subject (verified without any DynamoDB call); with
 * AUTH=apikey, the key's id (one BatchGetItem of the key's record per key id per API_KEY_CACHE_MS
 * in this process, shared by the requests and subscriptions that need it meanwhile).
 * Missing or bad credentials throw UNAUTHENTICATED (HTTP 401).
 */
export function createAuthenticator(auth: AuthConfig, doc: Dynamo['doc'], table: string): Authenticate {
  if (auth.mode === 'none') return async () => ANONYMOUS;
  if (auth.mode === 'jwt') {
    const verify = createJwtVerifier(auth);
    return async (headers) => {
      const token = credentialOf(headers, false);
      if (token === undefined) throw unauthenticated('credentials are missing: send "Authorization: Bearer <token>"');
      return verify(token);
    };
  }
  // A read is trusted from when it started: a revocation before then is in it.
  const cache = new Map<string, { record: Promise<StoredApiKey | null>; readAt: number }>();
  const recordOf = (id: string) => {
    const cached = cache.get(id);
    if (cached && Date.now() - cached.readAt < auth.cacheMs) return cached;
    const read = { record: findApiKey(doc, table, id), readAt: Date.now() };
    cache.delete(id);
    if (cache.size >= API_KEY_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(id, read);
    // A failed read is not remembered.
    read.record.catch(() => cache.get(id) === read && cache.delete(id));
    return read;
  };
  return async (headers) => {
    const presented = credentialOf(headers, true);
    if (presented === undefined)
      throw unauthenticated(
        'credentials are missing: send "Authorization: Bearer <API key>" or "X-API-Key: <API key>"',
      );
    const parsed = parseApiKey(presented);
    if (!parsed) throw unauthenticated('the API key is malformed');
    const { record: reading, readAt } = recordOf(parsed.id);
    const record = await reading;
    if (!record || !secretMatches(parsed.secret, record.hash)) throw unauthenticated('the API key is not valid');
    if (record.revokedAt !== null) throw unauthenticated('the API key has been revoked');
    const { id, name, tenant, trees } = record;
    return {
      via: 'apikey',
      subject: id,
      keyName: name || id,
      tenant: tenant ?? null,
      grants: grantsFrom(trees),
      principals: [`key:${name || id}`],
      checkAgainAt: readAt + auth.cacheMs,
    };
  };
}
