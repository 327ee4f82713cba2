import { itemSize } from './itemSize.js';
import type { Item } from './keys.js';

/**
 * What a write would consume on AWS, by its documented formula, since DynamoDB Local's own
 * figure is not the bill: 1 write unit per KB (rounded up) of each item written, the larger of
 * its size before and after the write; 2 per KB in a transaction, where a condition check is
 * billed as a write of the item it checks. The sizes come from the items the operation read or
 * wrote before (ItemImages); an item it never saw counts by what the write sends (its key and
 * the values set), the least it can weigh. The table has no index: nothing else is billed.
 */
export const KB = 1024;

/** The units of one item of `bytes` written alone, or in a transaction. */
export const unitsOf = (bytes: number, transactional: boolean): number =>
  Math.max(1, Math.ceil(bytes / KB)) * (transactional ? 2 : 1);

/** The most items an operation remembers: a write after a bigger read counts the rest by what it sends. */
const MAX_IMAGES = 10_000;

/**
 * The items one operation has seen, by key, as they stand after its last write: read (whole,
 * not projected), put, updated. Indexed lazily: an operation that never writes only keeps the
 * arrays its reads returned.
 */
export class ItemImages {
  private pending: Item[][] = [];
  private pendingCount = 0;
  private readonly byKey = new Map<string, Item>();

  /** Items a read returned whole. */
  saw(items: readonly unknown[]): void {
    if (items.length === 0 || this.pendingCount + items.length > MAX_IMAGES) return;
    this.pending.push(items as Item[]);
    this.pendingCount += items.length;
  }

  get(key: Item): Item | undefined {
    this.index();
    return this.byKey.get(keyOf(key));
  }

  set(key: Item, item: Item | undefined): void {
    this.index();
    if (item === undefined) this.byKey.delete(keyOf(key));
    else if (this.byKey.size < MAX_IMAGES || this.byKey.has(keyOf(key))) this.byKey.set(keyOf(key), item);
  }

  private index(): void {
    for (const items of this.pending) for (const item of items) this.byKey.set(keyOf(item), item);
    this.pending = [];
  }
}

const keyOf = (item: Item): string => `${String(item.pk)}\u0000${String(item.sk)}`;

interface Expression {
  Key?: Item;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

type WriteAction = { Put?: { Item: Item }; Update?: Expression; Delete?: Expression; ConditionCheck?: Expression };

/**
 * The AWS write units of a write command that succeeded, `input` as sent (lib-dynamodb's native
 * values), and the images it leaves in `images`. Anything but a write costs 0.
 */
export function awsWriteUnits(command: string, input: Record<string, unknown>, images: ItemImages): number {
  if (command.startsWith('TransactWrite')) {
    const actions = (input.TransactItems ?? []) as WriteAction[];
    return actions.reduce((sum, action) => sum + actionUnits(action, images, true), 0);
  }
  if (command.startsWith('BatchWrite')) {
    const requests = Object.values((input.RequestItems ?? {}) as Record<string, BatchRequest[]>).flat();
    return requests.reduce(
      (sum, r) => sum + actionUnits(r.PutRequest ? { Put: r.PutRequest } : { Delete: r.DeleteRequest! }, images, false),
      0,
    );
  }
  if (/^Put(Item|Command)/.test(command)) return actionUnits({ Put: input as { Item: Item } }, images, false);
  if (/^Update(Item|Command)/.test(command)) return actionUnits({ Update: input }, images, false);
  if (/^Delete(Item|Command)/.test(command)) return actionUnits({ Delete: input }, images, false);
  return 0;
}

interface BatchRequest {
  PutRequest?: { Item: Item };
  DeleteRequest?: { Key: Item };
}

function actionUnits(action: WriteAction, images: ItemImages, transactional: boolean): number {
  if (action.Put) {
    const before = images.get(action.Put.Item);
    images.set(action.Put.Item, action.Put.Item);
    return unitsOf(Math.max(sizeOf(before), itemSize(action.Put.Item)), transactional);
  }
  const expression = (action.Update ?? action.Delete ?? action.ConditionCheck)!;
  const key = expression.Key ?? {};
  const before = images.get(key);
  if (action.ConditionCheck) return unitsOf(sizeOf(before) || itemSize(key), transactional);
  if (action.Delete) {
    images.set(key, undefined);
    return unitsOf(sizeOf(before) || itemSize(key), transactional);
  }
  const after = updated(before ?? key, expression);
  images.set(key, after);
  return unitsOf(Math.max(sizeOf(before), itemSize(after)), transactional);
}

const sizeOf = (item: Item | undefined): number => (item ? itemSize(item) : 0);

/**
 * Pure. The item after an update expression of the forms Canopy writes (SET a = :v, ADD a :v,
 * REMOVE a, DELETE a :v, clauses in any order); a clause of another form leaves its attribute
 * as it was.
 */
export function updated(before: Item, expression: Expression): Item {
  const after: Item = { ...before };
  const names = expression.ExpressionAttributeNames ?? {};
  const values = expression.ExpressionAttributeValues ?? {};
  const name = (token: string) => names[token] ?? token;
  for (const [, verb, body] of (expression.UpdateExpression ?? '').matchAll(CLAUSES)) {
    for (const part of body!
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [target, ...rest] = part.split(/\s*=\s*|\s+/);
      const attr = name(target!);
      const value = rest.length === 1 && rest[0]!.startsWith(':') ? values[rest[0]!] : undefined;
      if (verb === 'REMOVE') delete after[attr];
      else if (verb === 'SET' && value !== undefined) after[attr] = value;
      else if (verb === 'ADD' && typeof value === 'number') after[attr] = Number(after[attr] ?? 0) + value;
      else if (verb === 'ADD' && value instanceof Set) after[attr] = new Set([...asSet(after[attr]), ...value]);
      else if (verb === 'DELETE' && value instanceof Set) {
        after[attr] = new Set([...asSet(after[attr])].filter((member) => !value.has(member)));
      }
    }
  }
  return after;
}

const CLAUSES = /\b(SET|ADD|REMOVE|DELETE)\s+(.*?)(?=\s+\b(?:SET|ADD|REMOVE|DELETE)\b|$)/g;

const asSet = (value: unknown): Set<unknown> => (value instanceof Set ? value : new Set());
