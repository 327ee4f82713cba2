import { keyString, type Item, type Key } from '../../../dynamodb/keys.js';
import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { putAll, transactWrite } from '../../../dynamodb/transactWrite.js';
import { ConditionFailed } from '../../../dynamodb/conditionFailed.js';
import type { EngineContext } from '../core/engineContext.js';
import { edgeKey } from '../core/items.js';
import { Replan } from '../core/replan.js';
import { isPathKeyString, pathKeyTaken } from './pathKeyTaken.js';
import type { Slot } from '../core/writePlans.js';
import type { ChangeDraft } from '../changes/changeRecord.js';
import { recorded, withRecords } from '../changes/recordChanges.js';

/**
 * The guard: the one way every write of the tree commits. A write reads where it goes (a place
 * under a parent, a node, a job's lease: each a Guard), plans its own actions, and gets from the
 * guard a GuardedTransaction that also carries every guard of what it read; `commitWrite` alone
 * commits one, with the records of its changes (changes/recordChanges.ts). Nothing else of the
 * writes, the undo or the jobs' steps reaches DynamoDB's TransactWriteItems: the builder inside
 * a guarded transaction is private, and the layers test keeps `transactWrite` out of them.
 */
export abstract class Guard {
  protected constructor(private readonly table: string) {}

  /** Adds this guard's conditions (and renewals) to a write's transaction. */
  protected abstract planGuards(tx: TransactionBuilder): void;

  /** What a failure of this guard's conditions means (LeaseLost, Replan), from the failed keys. */
  protected explain(_failed: readonly string[]): Error | undefined {
    return undefined;
  }

  /**
   * The write's transaction: its own actions (`plan`, or those of a transaction planned
   * already, copied), then every guard. A guarded transaction given gets this guard's too.
   */
  transaction(plan: ((tx: TransactionBuilder) => void) | TransactionBuilder | GuardedTransaction): GuardedTransaction {
    const inner = plan instanceof GuardedTransaction ? sealed.get(plan) : undefined;
    const tx = inner ? inner.builder.clone() : plan instanceof TransactionBuilder ? plan.clone() : undefined;
    const builder = tx ?? new TransactionBuilder(this.table);
    if (typeof plan === 'function') plan(builder);
    this.planGuards(builder);
    return new GuardedTransaction(SEAL, builder, (failed) => this.explain(failed) ?? inner?.explain(failed));
  }
}

/** What only this module holds: a guarded transaction's builder, and how its guards' failures read. */
interface Sealed {
  builder: TransactionBuilder;
  explain: (failed: readonly string[]) => Error | undefined;
}
const sealed = new WeakMap<GuardedTransaction, Sealed>();
/** The token of the constructor: not exported, so no other module makes a guarded transaction. */
const SEAL: unique symbol = Symbol('guarded');

/** A write's transaction with every guard of what the write read: only a Guard makes one. */
export class GuardedTransaction {
  constructor(seal: typeof SEAL, builder: TransactionBuilder, explain: Sealed['explain']) {
    if (seal !== SEAL) throw new Error('a guarded transaction is made by a Guard');
    sealed.set(this, { builder, explain });
  }

  /** Its actions, guards included. */
  get size(): number {
    return this.builder.size;
  }

  /** Whether it also holds `more` actions and bytes within `items` actions (TransactionBuilder.holds). */
  holds(more: { size: number; bytes: number }, items: number): boolean {
    return this.builder.holds(more, items);
  }

  /** A copy with more of the write's actions (this one stays as it is). */
  extended(plan: (tx: TransactionBuilder) => void): GuardedTransaction {
    const { builder, explain } = sealed.get(this)!;
    const copy = builder.clone();
    plan(copy);
    return new GuardedTransaction(SEAL, copy, explain);
  }

  private get builder(): TransactionBuilder {
    return sealed.get(this)!.builder;
  }
}

export interface CommitOptions {
  /** The changes the write makes, recorded with it in their trees' logs. */
  changes?: readonly ChangeDraft[];
  /** The siblings a new position was computed between (a create's or a move's). */
  slot?: Slot;
  /** Items put before the transaction, that nothing reads until it commits (a big delete's packs). */
  ahead?: ReadonlyArray<Item & Key>;
}

/**
 * Commits a write: its items put ahead, then its guarded transaction with the records of its
 * changes, renumbered when readers gave their numbers up (recorded). A failed guard is told by
 * its Guard (a job's lost lease); when only the siblings of `slot` failed, another write placed
 * or took a sibling there and committed first: the write plans again (Replan) without counting
 * it among the re-plans of a tree that keeps changing under it (replan.ts, MAX_WAITS), so that
 * writes crowding one parent take turns instead of answering CONFLICT. A path key claimed by
 * another child first is ALREADY_EXISTS (pathKeyTaken.ts).
 */
export async function commitWrite(
  ctx: EngineContext,
  tx: GuardedTransaction,
  options: CommitOptions = {},
): Promise<void> {
  const { builder, explain } = sealed.get(tx)!;
  if (options.ahead && options.ahead.length > 0) await putAll(ctx.doc, ctx.table, options.ahead);
  const siblings = new Set(options.slot?.neighbours.map((node) => keyString(edgeKey(node))));
  await recorded(ctx, options.changes ?? [], async (planRecords) => {
    const attempt = withRecords(builder, planRecords);
    const keys = attempt.keys();
    try {
      await transactWrite(ctx.doc, attempt.build());
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      const failed = error.failedIndexes.map((i) => keyString(keys[i]!));
      const told = explain(failed);
      if (told) throw told;
      const taken = failed.find(isPathKeyString);
      if (taken) throw await pathKeyTaken(ctx, taken);
      if (failed.length > 0 && failed.every((key) => siblings.has(key)))
        throw new Replan('a sibling beside its place moved', true);
      throw error;
    }
  });
}
