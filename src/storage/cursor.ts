import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { EDGE_SK_PREFIX } from '../dynamodb/keys.js';
import { badInput } from '../errors.js';
import type { DepthWindow } from './treeStore.js';

/**
 * Opaque pagination cursors, sealed with the configured secret: base64url of a 16-byte synthetic
 * IV (a truncated HMAC of the tenant and the JSON payload) followed by the payload encrypted with
 * AES-256-CTR under that IV (the SIV construction: deterministic, authenticated). A cursor is
 * a position, not a snapshot: it stays valid across requests and processes that share the
 * secret, and whatever happened to the tree meanwhile, the next page starts after the position
 * it names. Sealed rather than only signed: a position may be a key of something the caller
 * cannot see (a change in another tree, a deletion passed over), and a cursor tells nothing of
 * it. Anything garbled, forged or issued for another tenant or list is BAD_USER_INPUT.
 */
export interface CursorCodec {
  encode(payload: Record<string, unknown>): string;
  decode(cursor: string): Record<string, unknown>;
  /** The codec of one tenant: its cursors are sealed for it, and refused from any other tenant. */
  forTenant(tenant: string): CursorCodec;
}

const MAX_CURSOR_LENGTH = 16384;
const IV_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function createCursorCodec(secret: string, tenant?: string): CursorCodec {
  const keys = {
    mac: createHmac('sha256', secret).update('cursor mac').digest(),
    seal: createHmac('sha256', secret).update('cursor seal').digest(),
  };
  return codecOf(keys, tenant);
}

function codecOf(keys: { mac: Buffer; seal: Buffer }, tenant: string | undefined): CursorCodec {
  // A tenant's cursors authenticate the tenant's name with the payload; the default tenant's the payload alone.
  const bound = tenant === undefined ? '' : `${tenant}\u0000`;
  const ivOf = (plain: Buffer) =>
    createHmac('sha256', keys.mac).update(bound).update(plain).digest().subarray(0, IV_BYTES);
  const ctr = (iv: Buffer, text: Buffer, open: boolean) => {
    const cipher = open ? createDecipheriv('aes-256-ctr', keys.seal, iv) : createCipheriv('aes-256-ctr', keys.seal, iv);
    return Buffer.concat([cipher.update(text), cipher.final()]);
  };
  return {
    forTenant: (other) => codecOf(keys, other),
    encode(payload) {
      const plain = Buffer.from(JSON.stringify(payload));
      const iv = ivOf(plain);
      return Buffer.concat([iv, ctr(iv, plain, false)]).toString('base64url');
    },
    decode(cursor) {
      const invalid = badInput(`the cursor is not one issued by this list (got "${cursor.slice(0, 40)}")`);
      if (cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) throw invalid;
      const sealed = Buffer.from(cursor, 'base64url');
      if (sealed.length <= IV_BYTES || sealed.toString('base64url') !== cursor) throw invalid;
      const iv = sealed.subarray(0, IV_BYTES);
      const plain = ctr(iv, sealed.subarray(IV_BYTES), true);
      if (!timingSafeEqual(iv, ivOf(plain))) throw invalid;
      try {
        const payload = JSON.parse(plain.toString('utf8')) as unknown;
        if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw invalid;
        return payload as Record<string, unknown>;
      } catch {
        throw invalid;
      }
    },
  };
}

/**
 * The payload of a cursor of one list, which `valid` recognizes (its tag, its owner, its
 * position); BAD_USER_INPUT `message` (field `after`) for anything else: garbled, forged,
 * another tenant's, or another list's.
 */
export function decodeListCursor(
  cursors: CursorCodec,
  raw: string,
  message: string,
  valid: (payload: Record<string, unknown>) => boolean,
): Record<string, unknown> {
  let payload: Record<string, unknown> | undefined;
  try {
    payload = cursors.decode(raw);
  } catch {
    // reported below
  }
  if (!payload || !valid(payload)) throw badInput(message, { field: 'after' });
  return payload;
}

/**
 * A page's edge, whose cursor is signed only when read: most queries select no cursor. A class
 * rather than an object literal with a getter, which V8 builds through its runtime, one a node.
 */
class LazyEdge<T> {
  private signed: string | undefined;
  constructor(
    private readonly cursors: CursorCodec,
    private readonly payload: Record<string, unknown>,
    readonly node: T,
  ) {}

  get cursor(): string {
    return (this.signed ??= this.cursors.encode(this.payload));
  }
}

export function edgeWithCursor<T>(
  cursors: CursorCodec,
  payload: Record<string, unknown>,
  node: T,
): { cursor: string; node: T } {
  return new LazyEdge(cursors, payload, node);
}

/**
 * An edge of a descendants list: its cursor names the node and the depth window it was issued
 * for (one used with another node or window is refused), and the strategy's position fields.
 */
export function windowEdge<T>(
  cursors: CursorCodec,
  originId: string,
  window: DepthWindow,
  position: Record<string, unknown>,
  node: T,
): { cursor: string; node: T } {
  return edgeWithCursor(cursors, { t: 'd', o: originId, w: [window.minDepth, window.maxDepth], ...position }, node);
}

export function decodeWindowCursor(
  cursors: CursorCodec,
  raw: string,
  originId: string,
  window: DepthWindow,
  validPosition: (payload: Record<string, unknown>) => boolean,
): Record<string, unknown> {
  const c = cursors.decode(raw);
  const valid =
    c.t === 'd' &&
    c.o === originId &&
    Array.isArray(c.w) &&
    c.w[0] === window.minDepth &&
    c.w[1] === window.maxDepth &&
    validPosition(c);
  if (!valid) throw badInput('the cursor is not one of this list of descendants');
  return c;
}

/** The node id an edge sort key ends with (`E#<position>#<id>`; neither holds a `#`). */
export const idOfEdgeSk = (sk: string): string => sk.slice(sk.lastIndexOf('#') + 1);

/**
 * The chain of edge sort keys a PREORDER cursor of this origin and window names: the engine's
 * walk of the truth (engine/reads/preorderPage.ts) and a strategy's own document order read
 * (TreeStrategy.preorder) issue and take the same cursors.
 */
export function decodePreorderCursor(
  cursors: CursorCodec,
  maxTreeDepth: number,
  raw: string,
  originId: string,
  window: DepthWindow,
): string[] {
  const c = decodeWindowCursor(
    cursors,
    raw,
    originId,
    window,
    (p) =>
      p.x === 'pre' &&
      Array.isArray(p.c) &&
      p.c.length <= maxTreeDepth &&
      p.c.every(
        (sk) => typeof sk === 'string' && sk.startsWith(EDGE_SK_PREFIX) && sk.lastIndexOf('#') > EDGE_SK_PREFIX.length,
      ),
  );
  return c.c as string[];
}
