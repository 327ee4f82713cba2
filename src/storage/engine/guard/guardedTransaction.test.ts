import { describe, expect, it } from 'vitest';
import { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { readable } from '../../../../test/support/transactionSteps.js';
import { Guard, GuardedTransaction } from './guardedTransaction.js';

/** A guard whose one condition is that item `G` exists: what every transaction it makes must carry. */
class TestGuard extends Guard {
  constructor() {
    super('tree');
  }
  protected planGuards(tx: TransactionBuilder): void {
    tx.check({ pk: 'G', sk: 'G' }, { exists: true });
  }
}

const put = (tx: TransactionBuilder) => tx.put({ pk: 'N#x', sk: 'NODE', name: 'x' });
const keysOf = (tx: TransactionBuilder) => tx.build().map((item) => readable(item).key);

describe('a guarded transaction', () => {
  it("carries its guard's conditions, whatever the write planned", () => {
    const guard = new TestGuard();
    expect(guard.transaction(put).size).toBe(2);
    expect(guard.transaction(() => {}).size).toBe(1);
    const planned = put(new TransactionBuilder('tree'));
    // Planned already: copied, guards added, the plan left as it was.
    expect(guard.transaction(planned).size).toBe(2);
    expect(keysOf(planned)).toEqual(['N#x NODE']);
    // A guarded transaction given to another guard carries both guards.
    class OtherGuard extends TestGuard {
      protected override planGuards(tx: TransactionBuilder): void {
        tx.check({ pk: 'H', sk: 'H' }, { exists: true });
      }
    }
    expect(new OtherGuard().transaction(guard.transaction(put)).size).toBe(3);
  });

  it('extends a copy: the transaction it came from stays as it is', () => {
    const base = new TestGuard().transaction(put);
    const more = base.extended((tx) => tx.check({ pk: 'N#y', sk: 'NODE' }, { exists: true }));
    expect([base.size, more.size]).toEqual([2, 3]);
  });

  it('cannot be built without a guard, nor opened', () => {
    const raw = new TransactionBuilder('tree');
    // @ts-expect-error a raw builder is no guarded transaction: commitWrite refuses it.
    const unguarded: GuardedTransaction = raw;
    // @ts-expect-error nor is an object that looks like one.
    const lookalike: GuardedTransaction = { size: 0, holds: () => true, extended: () => lookalike };
    // @ts-expect-error its constructor takes a token only its module holds.
    expect(() => new GuardedTransaction(Symbol('guarded'), raw, () => undefined)).toThrow(/made by a Guard/);
    // @ts-expect-error its builder is private: no one commits it but commitWrite.
    const opened = () => new TestGuard().transaction(put).builder;
    // @ts-expect-error a guard must say what its guards are.
    const guardless = () => new (class extends Guard {})('tree');
    expect([unguarded, lookalike, typeof opened, typeof guardless]).toHaveLength(4);
  });
});
