/**
 * Whether two values are equal as JSON, whatever the order of object keys (DynamoDB keeps none):
 * what comparing their JSON texts with sorted keys says, without building either text. Plain
 * objects and arrays are walked; anything else (a Set, a Date, a NumberValue) is compared by its
 * canonical JSON text.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    // JSON writes an undefined member of an array as null.
    return a.length === b.length && a.every((value, i) => sameJson(value ?? null, b[i] ?? null));
  if (plainObject(a) && plainObject(b)) {
    // JSON leaves out the keys whose value is undefined.
    const keys = definedKeys(a);
    return (
      keys.length === definedKeys(b).length && keys.every((key) => b[key] !== undefined && sameJson(a[key], b[key]))
    );
  }
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

const plainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

const definedKeys = (value: Record<string, unknown>): string[] =>
  Object.keys(value).filter((key) => value[key] !== undefined);

/** The value with every object's keys in order, for its JSON text. */
export const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : value;
