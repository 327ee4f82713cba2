import type { Key } from './keys.js';

/** The transaction was refused because one of its conditions failed: the caller re-plans. */
export class ConditionFailed extends Error {
  constructor(
    readonly failedIndexes: number[],
    /** The keys of the actions whose condition failed, as the transaction named them. */
    readonly failedKeys: Key[] = [],
  ) {
    super(`transaction condition failed at ${failedIndexes.join(', ')}`);
    this.name = 'ConditionFailed';
  }
}
