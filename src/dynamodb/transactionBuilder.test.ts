import { describe, expect, it } from 'vitest';
import { TransactionBuilder } from './transactionBuilder.js';

const TABLE = 'tree';
const nodeA = { pk: 'N#a', sk: 'NODE' };
const nodeB = { pk: 'N#b', sk: 'NODE' };
const edgeA = { pk: 'ROOTS', sk: 'E#a0#a' };

describe('TransactionBuilder', () => {
  it('renders a put with its condition through placeholders', () => {
    const tx = new TransactionBuilder(TABLE).put({ ...nodeA, name: 'A', version: 1 }, { notExists: true });
    expect(tx.build()).toEqual([
      {
        Put: {
          TableName: TABLE,
          Item: { pk: 'N#a', sk: 'NODE', name: 'A', version: 1 },
          ConditionExpression: 'attribute_not_exists(#n0)',
          ExpressionAttributeNames: { '#n0': 'pk' },
        },
      },
    ]);
  });

  it('renders an update with SET, ADD and REMOVE clauses and its conditions', () => {
    const tx = new TransactionBuilder(TABLE).update(
      nodeA,
      { set: { name: 'B', data: { x: 1 } }, add: { rev: 1 }, remove: ['parentId'] },
      { exists: true },
      { missing: 'deleting' },
      { equals: ['rev', 4] },
    );
    expect(tx.build()).toEqual([
      {
        Update: {
          TableName: TABLE,
          Key: nodeA,
          UpdateExpression: 'SET #n0 = :v0, #n1 = :v1 ADD #n2 :v2 REMOVE #n3',
          ConditionExpression: 'attribute_exists(#n4) AND attribute_not_exists(#n5) AND #n2 = :v3',
          ExpressionAttributeNames: {
            '#n0': 'name',
            '#n1': 'data',
            '#n2': 'rev',
            '#n3': 'parentId',
            '#n4': 'pk',
            '#n5': 'deleting',
          },
          ExpressionAttributeValues: { ':v0': 'B', ':v1': { x: 1 }, ':v2': 1, ':v3': 4 },
        },
      },
    ]);
  });

  it('renders an update without conditions and without empty clauses', () => {
    const [item] = new TransactionBuilder(TABLE).update(nodeA, { add: { childCount: -1 }, remove: [] }).build();
    expect(item).toEqual({
      Update: {
        TableName: TABLE,
        Key: nodeA,
        UpdateExpression: 'ADD #n0 :v0',
        ExpressionAttributeNames: { '#n0': 'childCount' },
        ExpressionAttributeValues: { ':v0': -1 },
      },
    });
  });

  it('renders a delete and a condition check', () => {
    const tx = new TransactionBuilder(TABLE).delete(edgeA, { exists: true }).check(nodeB, { missing: 'deleting' });
    expect(tx.build()).toEqual([
      {
        Delete: {
          TableName: TABLE,
          Key: edgeA,
          ConditionExpression: 'attribute_exists(#n0)',
          ExpressionAttributeNames: { '#n0': 'pk' },
        },
      },
      {
        ConditionCheck: {
          TableName: TABLE,
          Key: nodeB,
          ConditionExpression: 'attribute_not_exists(#n0)',
          ExpressionAttributeNames: { '#n0': 'deleting' },
        },
      },
    ]);
  });

  it('renders a delete without a condition as a bare delete', () => {
    expect(new TransactionBuilder(TABLE).delete(edgeA).build()).toEqual([{ Delete: { TableName: TABLE, Key: edgeA } }]);
  });

  it('renders equalsOrMissing as equality, or attribute_not_exists for null', () => {
    const tx = new TransactionBuilder(TABLE)
      .check(nodeA, { equalsOrMissing: ['parentId', 'p'] })
      .check(nodeB, { equalsOrMissing: ['parentId', null] });
    expect(tx.build()).toEqual([
      {
        ConditionCheck: {
          TableName: TABLE,
          Key: nodeA,
          ConditionExpression: '#n0 = :v0',
          ExpressionAttributeNames: { '#n0': 'parentId' },
          ExpressionAttributeValues: { ':v0': 'p' },
        },
      },
      {
        ConditionCheck: {
          TableName: TABLE,
          Key: nodeB,
          ConditionExpression: 'attribute_not_exists(#n0)',
          ExpressionAttributeNames: { '#n0': 'parentId' },
        },
      },
    ]);
  });

  it('merges a check into the update of the same item that came before it', () => {
    const tx = new TransactionBuilder(TABLE)
      .update(nodeA, { add: { childCount: 1 } }, { exists: true })
      .check(nodeA, { exists: true }, { missing: 'deleting' }, { equalsOrMissing: ['parentId', null] });
    expect(tx.size).toBe(1);
    expect(tx.build()).toEqual([
      {
        Update: {
          TableName: TABLE,
          Key: nodeA,
          UpdateExpression: 'ADD #n0 :v0',
          // The repeated attribute_exists(pk) appears once.
          ConditionExpression: 'attribute_exists(#n1) AND attribute_not_exists(#n2) AND attribute_not_exists(#n3)',
          ExpressionAttributeNames: { '#n0': 'childCount', '#n1': 'pk', '#n2': 'deleting', '#n3': 'parentId' },
          ExpressionAttributeValues: { ':v0': 1 },
        },
      },
    ]);
  });

  it("merges a check into the write of the same item that comes after it, in the check's place", () => {
    const tx = new TransactionBuilder(TABLE)
      .check(nodeA, { missing: 'deleting' })
      .check(nodeB, { exists: true })
      .update(nodeA, { add: { childCount: 1 } }, { exists: true });
    expect(tx.keys()).toEqual([nodeA, nodeB]);
    const [first] = tx.build();
    expect(first).toEqual({
      Update: {
        TableName: TABLE,
        Key: nodeA,
        UpdateExpression: 'ADD #n0 :v0',
        ConditionExpression: 'attribute_exists(#n1) AND attribute_not_exists(#n2)',
        ExpressionAttributeNames: { '#n0': 'childCount', '#n1': 'pk', '#n2': 'deleting' },
        ExpressionAttributeValues: { ':v0': 1 },
      },
    });
  });

  it('merges checks into a put and into a delete', () => {
    const tx = new TransactionBuilder(TABLE)
      .check(nodeA, { missing: 'deleting' })
      .put({ ...nodeA, name: 'A' }, { notExists: true })
      .delete(nodeB, { exists: true })
      .check(nodeB, { equals: ['rev', 2] });
    expect(tx.build()).toEqual([
      {
        Put: {
          TableName: TABLE,
          Item: { ...nodeA, name: 'A' },
          ConditionExpression: 'attribute_not_exists(#n0) AND attribute_not_exists(#n1)',
          ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'deleting' },
        },
      },
      {
        Delete: {
          TableName: TABLE,
          Key: nodeB,
          ConditionExpression: 'attribute_exists(#n0) AND #n1 = :v0',
          ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'rev' },
          ExpressionAttributeValues: { ':v0': 2 },
        },
      },
    ]);
  });

  it('merges two checks of one item into one check', () => {
    const tx = new TransactionBuilder(TABLE).check(nodeA, { exists: true }).check(nodeA, { missing: 'deleting' });
    expect(tx.build()).toEqual([
      {
        ConditionCheck: {
          TableName: TABLE,
          Key: nodeA,
          ConditionExpression: 'attribute_exists(#n0) AND attribute_not_exists(#n1)',
          ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'deleting' },
        },
      },
    ]);
  });

  it('refuses two writes to one item, naming the key', () => {
    const writes = {
      update: (tx: TransactionBuilder) => tx.update(nodeA, { add: { rev: 1 } }),
      put: (tx: TransactionBuilder) => tx.put({ ...nodeA, name: 'A' }),
      delete: (tx: TransactionBuilder) => tx.delete(nodeA),
    };
    for (const [firstKind, first] of Object.entries(writes)) {
      for (const [secondKind, second] of Object.entries(writes)) {
        if (firstKind === 'update' && secondKind === 'update') continue;
        const tx = new TransactionBuilder(TABLE);
        first(tx);
        expect(() => second(tx), `${firstKind} then ${secondKind}`).toThrow(
          'two writes to one item in a transaction: N#a NODE',
        );
      }
    }
  });

  it('merges two updates of one item that touch different attributes, conditions included', () => {
    const tx = new TransactionBuilder(TABLE)
      .update(nodeA, { set: { position: 'a1' }, add: { rev: 1 }, remove: ['parentId'] }, { equals: ['rev', 3] })
      .check(nodeB, { exists: true })
      .update(nodeA, { set: { path: ['r'] } }, { exists: true });
    expect(tx.keys()).toEqual([nodeA, nodeB]);
    expect(tx.build()[0]).toEqual({
      Update: {
        TableName: TABLE,
        Key: nodeA,
        UpdateExpression: 'SET #n0 = :v0, #n1 = :v1 ADD #n2 :v2 REMOVE #n3',
        ConditionExpression: '#n2 = :v3 AND attribute_exists(#n4)',
        ExpressionAttributeNames: { '#n0': 'position', '#n1': 'path', '#n2': 'rev', '#n3': 'parentId', '#n4': 'pk' },
        ExpressionAttributeValues: { ':v0': 'a1', ':v1': ['r'], ':v2': 1, ':v3': 3 },
      },
    });
  });

  it('refuses two updates of one attribute of one item, naming the attribute and the key', () => {
    const tx = new TransactionBuilder(TABLE).update(nodeA, { add: { rev: 1 } });
    expect(() => tx.update(nodeA, { add: { childCount: 1, rev: 1 } })).toThrow(
      'two updates of rev on one item in a transaction: N#a NODE',
    );
    const other = new TransactionBuilder(TABLE).update(nodeA, { set: { path: [] } });
    expect(() => other.update(nodeA, { remove: ['path'] })).toThrow(
      'two updates of path on one item in a transaction: N#a NODE',
    );
  });

  it('tells items apart by both key attributes', () => {
    const tx = new TransactionBuilder(TABLE)
      .update({ pk: 'N#a', sk: 'NODE' }, { add: { rev: 1 } })
      .update({ pk: 'N#a', sk: 'E#a0#b' }, { add: { rev: 1 } })
      .update({ pk: 'N#b', sk: 'NODE' }, { add: { rev: 1 } });
    expect(tx.size).toBe(3);
    expect(tx.keys()).toEqual([
      { pk: 'N#a', sk: 'NODE' },
      { pk: 'N#a', sk: 'E#a0#b' },
      { pk: 'N#b', sk: 'NODE' },
    ]);
  });

  it('keeps placeholders local to each action', () => {
    const items = new TransactionBuilder(TABLE)
      .update(nodeA, { set: { name: 'x' } })
      .update(nodeB, { set: { name: 'y' } })
      .build();
    for (const item of items) {
      expect(item.Update?.UpdateExpression).toBe('SET #n0 = :v0');
      expect(item.Update?.ExpressionAttributeNames).toEqual({ '#n0': 'name' });
    }
  });

  it('counts its bytes as DynamoDB does, again after an action changes, and in a clone', () => {
    const tx = new TransactionBuilder('t');
    // Key: pk + "N#a" (5), sk + "NODE" (6); name + "🌳" (4 + 4 bytes in UTF-8).
    tx.put({ pk: 'N#a', sk: 'NODE', name: '🌳' });
    expect(tx.bytes).toBe(19);
    tx.check({ pk: 'N#b', sk: 'NODE' }, { exists: true });
    expect(tx.bytes).toBe(30);
    tx.update({ pk: 'N#b', sk: 'NODE' }, { set: { name: 'é' } });
    expect(tx.bytes).toBe(36);
    const copy = tx.clone();
    copy.update({ pk: 'N#b', sk: 'NODE' }, { set: { data: 'xx' } });
    expect([tx.bytes, copy.bytes]).toEqual([36, 42]);
    expect(tx.holds({ size: 98, bytes: 0 }, 100)).toBe(true);
    expect(tx.holds({ size: 99, bytes: 0 }, 100)).toBe(false);
    expect(tx.holds({ size: 0, bytes: 3_500_000 - 36 }, 100)).toBe(true);
    expect(tx.holds({ size: 0, bytes: 3_500_000 - 35 }, 100)).toBe(false);
  });

  it('leaves the builder it was cloned from as it was, whatever the clone adds', () => {
    const tx = new TransactionBuilder(TABLE)
      .put({ ...nodeA, name: 'A' }, { notExists: true })
      .update(nodeB, { set: { name: 'b' } }, { exists: true })
      .check(edgeA, { exists: true });
    const before = tx.build();
    const copy = tx.clone();
    // Every way a builder changes what it holds: an update merged, conditions added, a check turned into a write.
    copy.update(nodeB, { set: { data: 'x' } }, { equals: ['version', 2] });
    copy.check(nodeA, { equals: ['version', 1] });
    copy.delete(edgeA);
    expect(tx.build()).toEqual(before);
    expect(copy.build()).not.toEqual(before);
    expect(tx.clone().build()).toEqual(before);
  });
});
