import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { transactWrite } from '../../../dynamodb/transactWrite.js';
import { ConditionFailed } from '../../../dynamodb/conditionFailed.js';
import { TreeError } from '../../../errors.js';
import type { StoredNode } from '../../strategy.js';
import type { TableContext } from '../core/engineContext.js';
import { planHold, planReleaseHold } from '../core/writePlans.js';

/**
 * Holds on a node, the guards a write takes before it commits when its transaction alone cannot
 * guard what it read: a move that goes deeper holds the moving node (no node is added below it
 * until the move commits and releases it), a respacing holds the parent (every create under it,
 * move into it and reorder among its children answers CONFLICT until it is done). A hold whose
 * process died expires by itself.
 */

/** How long a move's hold lasts if its move never commits (its process died). */
export const MOVE_HOLD_MS = 5000;
/** How long a respacing's hold lasts past its last step, if its process dies. */
export const RESPACE_HOLD_MS = 30_000;

/** Holds a node that moves deeper; the instant the hold lasts until, which the move's transaction releases. */
export async function holdMoving(ctx: TableContext, node: StoredNode): Promise<number> {
  const now = Date.now();
  const tx = new TransactionBuilder(ctx.table);
  planHold(tx, node, now, now + MOVE_HOLD_MS);
  await transactWrite(ctx.doc, tx.build());
  return now + MOVE_HOLD_MS;
}

/** Releases a hold taken for a move that did not commit. */
export async function releaseHold(ctx: TableContext, node: StoredNode, until: number): Promise<void> {
  const tx = new TransactionBuilder(ctx.table);
  planReleaseHold(tx, node, until);
  await transactWrite(ctx.doc, tx.build()).catch(() => {
    // Released already, or DynamoDB is away: the hold expires by itself.
  });
}

/** Holds a parent for a respacing of its children (CONFLICT when it changed or is held); until when. */
export async function holdParent(ctx: TableContext, parent: StoredNode): Promise<number> {
  const now = Date.now();
  const until = now + RESPACE_HOLD_MS;
  const tx = new TransactionBuilder(ctx.table);
  planHold(tx, parent, now, until, 'respacing');
  try {
    await transactWrite(ctx.doc, tx.build());
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    throw new TreeError(
      'CONFLICT',
      `"${parent.node.id}" changed, or is held by another respacing or a move; try again`,
    );
  }
  return until;
}

/** Releases a respacing's hold on its parent (best effort: it expires by itself). */
export async function releaseRespacing(ctx: TableContext, parent: StoredNode, until: number): Promise<void> {
  const tx = new TransactionBuilder(ctx.table);
  planReleaseHold(tx, parent, until, 'respacing');
  await transactWrite(ctx.doc, tx.build()).catch(() => {
    // Deleted meanwhile, or DynamoDB is away: the hold expires by itself.
  });
}
