import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { EDGE_SK_PREFIX, JOB_SK_PREFIX } from '../dynamodb/keys.js';
import { badInput, isTreeError } from '../errors.js';
import type { ChangeCursors, DepthWindow, NewestFirstPage } from './treeStore.js';

/**
 * Opaque pagination cursors, sealed with the configured secret: base64url of a 16-byte synthetic
 * IV (a truncated HMAC of the tenant and the JSON payload) followed by the payload encrypted with
 * AES-256-CTR under that IV (the SIV construction: deterministic, authenticated). A cursor is
 * a position, not a snapshot: it stays valid across requests and processes that share the
 * secret, and whatever happened to the tree meanwhile, the next page starts after the position
 * it names. Sealed rather than only signed: a position may be a key of something the caller
 * cannot see (a change in another tree, a deletion passed over), and a cursor tells nothing of
 * it. Anything garbled, forged or issued for another tenant or list is BAD_USER_INPUT.
 *
 * This module is the one home of every cursor the API hands out, each a payload tagged with its
 * list (`t`) and bound to its owner: children and roots (`c`, the collection), jobs (`j`),
 * descendants (`d`, the origin and the depth window; its order's position fields), the lists
 * kept newest first (history, deleted subtrees: their tag and owner) and treeChanges (`ch`).
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

/** An edge of a parent's children (or of the roots): its cursor names the collection and the edge's sort key. */
export const childEdge = <T>(cursors: CursorCodec, pk: string, sk: unknown, node: T): { cursor: string; node: T } =>
  edgeWithCursor(cursors, { t: 'c', p: pk, s: sk }, node);

/** The edge sort key a children cursor of collection `pk` names (BAD_USER_INPUT for any other). */
export function decodeChildCursor(cursors: CursorCodec, pk: string, raw: string): string {
  const cursor = cursors.decode(raw);
  if (cursor.t !== 'c' || cursor.p !== pk || typeof cursor.s !== 'string' || !cursor.s.startsWith(EDGE_SK_PREFIX)) {
    throw badInput('the cursor is not one of this list of children');
  }
  return cursor.s;
}

/** An edge of the list of jobs: its cursor names the job's sort key. */
export const jobEdge = <T>(cursors: CursorCodec, sk: unknown, job: T): { cursor: string; node: T } =>
  edgeWithCursor(cursors, { t: 'j', s: sk }, job);

/** The job sort key a cursor of the list of jobs names (BAD_USER_INPUT for any other). */
export function decodeJobCursor(cursors: CursorCodec, raw: string): string {
  const cursor = cursors.decode(raw);
  if (cursor.t !== 'j' || typeof cursor.s !== 'string' || !cursor.s.startsWith(JOB_SK_PREFIX)) {
    throw badInput('the cursor is not one of the list of jobs');
  }
  return cursor.s;
}

/**
 * The cursors of the lists kept newest first (history, deleted subtrees): the list's fields
 * (`t`, its tag, and its owner) and `s`, the position the next page starts after. Sealed by the
 * tenant's codec, so a position names nothing the caller can read (a change of a tree it may
 * not read, a deletion passed over).
 */

/** The position a cursor of `list` names; BAD_USER_INPUT `message` (field `after`) for any other cursor. */
export function positionIn(
  cursors: CursorCodec,
  raw: string,
  list: Readonly<Record<string, string>>,
  validPosition: (s: unknown) => boolean,
  message: string,
): string {
  const payload = decodeListCursor(
    cursors,
    raw,
    message,
    (p) => Object.entries(list).every(([field, value]) => p[field] === value) && validPosition(p.s),
  );
  return payload.s as string;
}

/** Pure. A page's edges and end, each cursor naming `list` and a position in it. */
export function withCursors<T>(
  cursors: CursorCodec,
  list: Readonly<Record<string, string>>,
  page: { entries: ReadonlyArray<{ value: T; after: string }>; hasNextPage: boolean; end?: string },
): NewestFirstPage<T> {
  return {
    edges: page.entries.map(({ value, after }) => edgeWithCursor(cursors, { ...list, s: after }, value)),
    hasNextPage: page.hasNextPage,
    endCursor: page.end === undefined ? null : cursors.encode({ ...list, s: page.end }),
  };
}

/** Pure. The change cursors of a tenant, signed with its cursor codec (storage/cursor.ts). */
export function changeCursors(cursors: CursorCodec): ChangeCursors {
  return {
    encode: ({ rootId, seq, at, skip, watch }) =>
      cursors.encode({
        t: 'ch',
        r: rootId,
        s: seq,
        a: at,
        ...(skip.length > 0 ? { k: skip } : {}),
        ...(watch ? { n: watch.nodeId, p: watch.path } : {}),
      }),
    decode(raw) {
      const invalid = badInput('after is not a cursor of treeChanges', { field: 'after' });
      let c: Record<string, unknown>;
      try {
        c = cursors.decode(raw);
      } catch (error) {
        throw isTreeError(error, 'BAD_USER_INPUT') ? invalid : error;
      }
      const { r, s, a, k = [], n, p } = c;
      const seqs = (value: unknown): value is number[] =>
        Array.isArray(value) && value.every((x) => Number.isSafeInteger(x) && (x as number) > (s as number));
      const ids = (value: unknown): value is string[] =>
        Array.isArray(value) && value.every((x) => typeof x === 'string');
      const valid =
        c.t === 'ch' &&
        typeof r === 'string' &&
        Number.isSafeInteger(s) &&
        (s as number) >= 0 &&
        Number.isSafeInteger(a) &&
        seqs(k) &&
        (n === undefined || (typeof n === 'string' && ids(p) && (p[0] ?? n) === r));
      if (!valid) throw invalid;
      return {
        rootId: r,
        seq: s as number,
        at: a as number,
        skip: k,
        ...(typeof n === 'string' ? { watch: { nodeId: n, path: p as string[] } } : {}),
      };
    },
  };
}
