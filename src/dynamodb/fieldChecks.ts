import { z } from 'zod';

/** A check of one attribute's value. */
export type FieldCheck = (value: unknown) => boolean;

const isString: FieldCheck = (value) => typeof value === 'string';
const isNumber: FieldCheck = (value) => typeof value === 'number';
const isBoolean: FieldCheck = (value) => typeof value === 'boolean';
const isMap: FieldCheck = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const anything: FieldCheck = () => true;

/**
 * Pure. The checks of an object schema's fields, derived from its shape, one per field: plain
 * predicates that answer as the schema's parse does, at a small part of its cost (for the kinds
 * of item decoded by the thousand in a request: decodeItem.ts decoderOf). The kinds a check
 * stands for: strings, numbers, booleans, literals and enums, arrays, tuples and records of
 * them, unknown (as a field of its own: optional), each optional or nullable. Where they answer
 * otherwise, the parse refuses what the check takes: a record's check takes any object but an
 * array (a set or bytes where the schema wants a map), a number's NaN and the infinities (which
 * no number read from DynamoDB is). A field of any other kind (a refinement, a transform, a
 * nested object) throws here: items of such a schema are decoded by the schema itself.
 */
export function fieldChecks(schema: z.ZodObject): Array<[name: string, check: FieldCheck]> {
  // A strict object refuses attributes it does not name, which no check of a field sees.
  const { catchall } = schema.def;
  if (catchall && !(catchall instanceof z.ZodUnknown || catchall instanceof z.ZodAny))
    throw new Error('no check stands for what a strict object refuses: decode its items with decodeItem');
  return Object.entries(schema.shape).map(([name, field]) => {
    // A key the parse wants there, whatever it holds: a check cannot tell it missing from undefined.
    const present = field instanceof z.ZodUnknown || field instanceof z.ZodAny;
    const check = present ? undefined : checkOf(field as z.ZodType);
    if (!check) throw new Error(`no check stands for the kind of field ${name}: decode its items with decodeItem`);
    return [name, check];
  });
}

/** The check of one field's kind; undefined for a kind no check stands for. */
function checkOf(field: z.ZodType): FieldCheck | undefined {
  if (field instanceof z.ZodOptional) return either(checkOf(field.unwrap() as z.ZodType), undefined);
  if (field instanceof z.ZodNullable) return either(checkOf(field.unwrap() as z.ZodType), null);
  if ((field.def.checks?.length ?? 0) > 0 || ('coerce' in field.def && field.def.coerce)) return undefined;
  if (field instanceof z.ZodString) return isString;
  if (field instanceof z.ZodNumber) return isNumber;
  if (field instanceof z.ZodBoolean) return isBoolean;
  if (field instanceof z.ZodUnknown || field instanceof z.ZodAny) return anything;
  if (field instanceof z.ZodLiteral || field instanceof z.ZodEnum) {
    const values = new Set<unknown>(field instanceof z.ZodEnum ? field.options : field.values);
    return (value) => values.has(value);
  }
  if (field instanceof z.ZodArray) {
    const element = checkOf(field.element as z.ZodType);
    return element && ((value) => Array.isArray(value) && value.every(element));
  }
  if (field instanceof z.ZodTuple) return tupleCheck(field);
  if (field instanceof z.ZodRecord) {
    const value = checkOf(field.valueType as z.ZodType);
    if (!value || !(field.keyType instanceof z.ZodString) || (field.keyType.def.checks?.length ?? 0) > 0)
      return undefined;
    return value === anything ? isMap : (map) => isMap(map) && Object.values(map as object).every(value);
  }
  return undefined;
}

/** The check of a field that may also be `also` (undefined: optional, null: nullable). */
const either = (check: FieldCheck | undefined, also: undefined | null): FieldCheck | undefined =>
  check && ((value) => value === also || check(value));

/** A tuple of required items and no rest: an array of exactly as many, each its item's kind. */
function tupleCheck(tuple: z.ZodTuple): FieldCheck | undefined {
  const items = (tuple.def.items as z.ZodType[]).map((item) =>
    item instanceof z.ZodOptional ? undefined : checkOf(item),
  );
  if (tuple.def.rest !== null || items.some((item) => item === undefined)) return undefined;
  const checks = items as FieldCheck[];
  return (value) =>
    Array.isArray(value) && value.length === checks.length && checks.every((check, i) => check(value[i]));
}
