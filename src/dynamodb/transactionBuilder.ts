import { itemSize, TRANSACTION_BYTES, valueSize } from './itemSize.js';
import type { Key, Item } from './keys.js';
import type { TransactItem } from './transactWrite.js';

/**
 * Pure builder for one TransactWriteItems request. Conditions are structured, so that actions
 * on the same item merge (DynamoDB refuses two actions on one item in a transaction): a
 * condition check on an item that is also updated becomes part of the update's condition.
 * Every attribute name and value goes through placeholders (many of ours are reserved words).
 */
export type Condition =
  | { exists: true }
  | { notExists: true }
  | { missing: string }
  | { equals: [string, unknown] }
  /** attribute equals the value, or is absent when the value is null */
  | { equalsOrMissing: [string, string | number | null] }
  /** attribute absent, or a number below the value */
  | { missingOrBelow: [string, number] }
  /** attribute absent, or equal to the value */
  | { missingOrEquals: [string, string] };

export interface UpdateSpec {
  set?: Record<string, unknown>;
  add?: Record<string, number>;
  remove?: string[];
  /** Strings added to a string set (created when absent). */
  addToSet?: Record<string, string[]>;
  /** Strings taken out of a string set (DynamoDB removes a set left empty). */
  deleteFromSet?: Record<string, string[]>;
}

type Action =
  | { kind: 'check'; key: Key; conditions: Condition[] }
  | { kind: 'update'; key: Key; update: UpdateSpec; conditions: Condition[] }
  | { kind: 'put'; key: Key; item: Item; conditions: Condition[] }
  | { kind: 'delete'; key: Key; conditions: Condition[] };

const keyId = (key: Key): string => `${key.pk}\u0000${key.sk}`;

export class TransactionBuilder {
  private readonly actions = new Map<string, Action>();
  /** Each action's bytes once counted (`bytes`): writers that fill a transaction ask after every node. */
  private readonly sizes = new Map<string, number>();

  constructor(private readonly table: string) {}

  get size(): number {
    return this.actions.size;
  }

  /**
   * The bytes its actions send, as DynamoDB counts them (itemSize): whole items put, the values
   * updates set, the keys of the rest.
   */
  get bytes(): number {
    let bytes = 0;
    for (const [id, action] of this.actions) {
      let size = this.sizes.get(id);
      if (size === undefined) this.sizes.set(id, (size = actionSize(action)));
      bytes += size;
    }
    return bytes;
  }

  /**
   * Whether this transaction and `more` fit one of at most `items` actions and TRANSACTION_BYTES
   * bytes: the test of every writer that fills a transaction with as much as it holds.
   */
  holds(more: { size: number; bytes: number }, items: number): boolean {
    return this.size + more.size <= items && this.bytes + more.bytes <= TRANSACTION_BYTES;
  }

  check(key: Key, ...conditions: Condition[]): this {
    const existing = this.actions.get(keyId(key));
    if (existing) addConditions(existing.conditions, conditions);
    else this.actions.set(keyId(key), { kind: 'check', key, conditions });
    return this;
  }

  update(key: Key, update: UpdateSpec, ...conditions: Condition[]): this {
    return this.write({ kind: 'update', key, update, conditions });
  }

  put(item: Item & Key, ...conditions: Condition[]): this {
    return this.write({ kind: 'put', key: { pk: item.pk, sk: item.sk }, item, conditions });
  }

  delete(key: Key, ...conditions: Condition[]): this {
    return this.write({ kind: 'delete', key, conditions });
  }

  /**
   * A builder with the same actions, to extend without changing this one. What a builder changes
   * in place is an action (its merged update) and its list of conditions: those are copied; the
   * keys, items, updates and conditions themselves are never changed, and are shared.
   */
  clone(): TransactionBuilder {
    const copy = new TransactionBuilder(this.table);
    for (const [id, action] of this.actions) copy.actions.set(id, { ...action, conditions: [...action.conditions] });
    for (const [id, size] of this.sizes) copy.sizes.set(id, size);
    return copy;
  }

  /** The keys in request order, to map CancellationReasons back to items. */
  keys(): Key[] {
    return [...this.actions.values()].map((action) => action.key);
  }

  build(): TransactItem[] {
    return [...this.actions.values()].map((action) => render(this.table, action));
  }

  private write(action: Action): this {
    const id = keyId(action.key);
    this.sizes.delete(id);
    const existing = this.actions.get(id);
    if (existing?.kind === 'update' && action.kind === 'update') {
      // Two updates of one item (the truth's and a projection's) become one.
      existing.update = mergeUpdates(existing.update, action.update, action.key);
      addConditions(existing.conditions, action.conditions);
      return this;
    }
    if (existing && existing.kind !== 'check') {
      throw new Error(`two writes to one item in a transaction: ${action.key.pk} ${action.key.sk}`);
    }
    if (existing) addConditions(action.conditions, existing.conditions);
    this.actions.set(id, action);
    return this;
  }
}

/** The bytes an action sends: a whole item put, the key of the others and the values an update sets. */
const actionSize = (action: Action): number =>
  action.kind === 'put'
    ? itemSize(action.item)
    : itemSize(action.key) + (action.kind === 'update' ? updateSize(action.update) : 0);

/** The bytes an update sends: the names and values it sets or adds. */
const updateSize = (update: UpdateSpec): number =>
  itemSize({ ...update.set, ...update.add }) +
  Object.entries({ ...update.addToSet, ...update.deleteFromSet }).reduce(
    (sum, [name, members]) => sum + Buffer.byteLength(name) + valueSize(new Set(members)),
    0,
  );

/** Adds the conditions not already there (two plans may state the same one). */
function addConditions(to: Condition[], more: Condition[]): void {
  const known = new Set(to.map((c) => JSON.stringify(c)));
  for (const condition of more) if (!known.has(JSON.stringify(condition))) to.push(condition);
}

function mergeUpdates(a: UpdateSpec, b: UpdateSpec, key: Key): UpdateSpec {
  const attrs = (u: UpdateSpec) => [
    ...Object.keys(u.set ?? {}),
    ...Object.keys(u.add ?? {}),
    ...(u.remove ?? []),
    ...Object.keys(u.addToSet ?? {}),
    ...Object.keys(u.deleteFromSet ?? {}),
  ];
  const clash = attrs(a).find((attr) => attrs(b).includes(attr));
  if (clash) throw new Error(`two updates of ${clash} on one item in a transaction: ${key.pk} ${key.sk}`);
  return {
    set: { ...a.set, ...b.set },
    add: { ...a.add, ...b.add },
    remove: [...(a.remove ?? []), ...(b.remove ?? [])],
    addToSet: { ...a.addToSet, ...b.addToSet },
    deleteFromSet: { ...a.deleteFromSet, ...b.deleteFromSet },
  };
}

class Placeholders {
  names: Record<string, string> = {};
  values: Record<string, unknown> = {};
  private nameIds = new Map<string, string>();
  private valueCount = 0;

  name(attr: string): string {
    let id = this.nameIds.get(attr);
    if (!id) {
      id = `#n${this.nameIds.size}`;
      this.nameIds.set(attr, id);
      this.names[id] = attr;
    }
    return id;
  }

  value(value: unknown): string {
    const id = `:v${this.valueCount++}`;
    this.values[id] = value;
    return id;
  }
}

function conditionExpression(conditions: Condition[], p: Placeholders): string | undefined {
  const parts = conditions.map((c) => {
    if ('exists' in c) return `attribute_exists(${p.name('pk')})`;
    if ('notExists' in c) return `attribute_not_exists(${p.name('pk')})`;
    if ('missing' in c) return `attribute_not_exists(${p.name(c.missing)})`;
    if ('equals' in c) return `${p.name(c.equals[0])} = ${p.value(c.equals[1])}`;
    if ('missingOrBelow' in c) {
      const [name, limit] = c.missingOrBelow;
      return `(attribute_not_exists(${p.name(name)}) OR ${p.name(name)} < ${p.value(limit)})`;
    }
    if ('missingOrEquals' in c) {
      const [name, value] = c.missingOrEquals;
      return `(attribute_not_exists(${p.name(name)}) OR ${p.name(name)} = ${p.value(value)})`;
    }
    const [attr, value] = c.equalsOrMissing;
    return value === null ? `attribute_not_exists(${p.name(attr)})` : `${p.name(attr)} = ${p.value(value)}`;
  });
  return parts.length > 0 ? [...new Set(parts)].join(' AND ') : undefined;
}

function updateExpression(update: UpdateSpec, p: Placeholders): string {
  const clauses: string[] = [];
  const set = Object.entries(update.set ?? {});
  if (set.length) clauses.push(`SET ${set.map(([a, v]) => `${p.name(a)} = ${p.value(v)}`).join(', ')}`);
  const add = [
    ...Object.entries(update.add ?? {}),
    ...Object.entries(update.addToSet ?? {}).map(([a, v]) => [a, new Set(v)] as const),
  ];
  if (add.length) clauses.push(`ADD ${add.map(([a, v]) => `${p.name(a)} ${p.value(v)}`).join(', ')}`);
  if (update.remove?.length) clauses.push(`REMOVE ${update.remove.map((a) => p.name(a)).join(', ')}`);
  const taken = Object.entries(update.deleteFromSet ?? {});
  if (taken.length) clauses.push(`DELETE ${taken.map(([a, v]) => `${p.name(a)} ${p.value(new Set(v))}`).join(', ')}`);
  return clauses.join(' ');
}

function render(table: string, action: Action): TransactItem {
  const p = new Placeholders();
  const update = action.kind === 'update' ? updateExpression(action.update, p) : undefined;
  const condition = conditionExpression(action.conditions, p);
  const common = {
    TableName: table,
    ...(condition ? { ConditionExpression: condition } : {}),
    ...(Object.keys(p.names).length ? { ExpressionAttributeNames: p.names } : {}),
    ...(Object.keys(p.values).length ? { ExpressionAttributeValues: p.values } : {}),
  };
  switch (action.kind) {
    case 'check':
      return {
        ConditionCheck: { ...common, Key: action.key, ConditionExpression: condition ?? 'attribute_exists(pk)' },
      };
    case 'update':
      return { Update: { ...common, Key: action.key, UpdateExpression: update! } };
    case 'put':
      return { Put: { ...common, Item: action.item } };
    case 'delete':
      return { Delete: { ...common, Key: action.key } };
  }
}
