import { describe, expect, it } from 'vitest';
import { isTreeError } from '../../../errors.js';
import { planNewNodes } from './newNodes.js';

const PARENT = { id: 'p', place: { path: ['r'], lineage: ['a0', 'a1'], keys: [''] }, lastPosition: 'a3' };
const NOW = '2026-01-01T00:00:00.000Z';
let counter = 0;
const newId = () => `gen${++counter}`;

/** The refusal's field, or a failure when the list is accepted. */
function refusal(nodes: Array<Record<string, unknown>>): string | undefined {
  try {
    planNewNodes({ parentId: 'p', nodes: nodes as never }, PARENT, NOW, newId);
  } catch (error) {
    if (isTreeError(error, 'BAD_USER_INPUT')) return error.details?.field;
    throw error;
  }
  throw new Error('accepted');
}

describe('planNewNodes', () => {
  it('orders the nodes parents first, places the top ones after the last child, the others evenly', () => {
    const planned = planNewNodes(
      {
        parentId: 'p',
        nodes: [
          { id: 'b1', parentId: 'b', name: 'B1' },
          { id: 'a', name: 'A', data: { x: 1 } },
          { id: 'b', name: 'B' },
          { id: 'b2', parentId: 'b', name: 'B2' },
        ],
      },
      PARENT,
      NOW,
      newId,
    );
    expect(planned.map((n) => [n.node.id, n.node.parentId, n.below, n.top, n.node.childCount])).toEqual([
      ['a', 'p', 1, true, 0],
      ['b', 'p', 1, true, 2],
      ['b1', 'b', 2, false, 0],
      ['b2', 'b', 2, false, 0],
    ]);
    const [a, b, b1, b2] = planned;
    expect(a!.node.position > 'a3' && a!.node.position < b!.node.position).toBe(true);
    expect(b1!.node.position < b2!.node.position).toBe(true);
    expect(b1!.node.position.length).toBe(2);
    expect(a!.place).toEqual({ path: ['r', 'p'], lineage: ['a0', 'a1', a!.node.position], keys: ['', ''] });
    expect(b2!.place).toEqual({
      path: ['r', 'p', 'b'],
      lineage: ['a0', 'a1', b!.node.position, b2!.node.position],
      keys: ['', '', ''],
    });
    expect(a!.node).toMatchObject({ name: 'A', data: { x: 1 }, version: 1, createdAt: NOW, updatedAt: NOW });
  });

  it('places roots as roots, and generates the missing ids', () => {
    const planned = planNewNodes(
      { nodes: [{ name: 'R' }, { id: 's', name: 'S' }] },
      { id: null, place: PARENT.place, lastPosition: null },
      NOW,
      newId,
    );
    expect(planned.map((n) => n.node.parentId)).toEqual([null, null]);
    expect(planned[0]!.node.id).toMatch(/^gen\d+$/);
    expect(planned[1]!.place).toEqual({ path: [], lineage: [planned[1]!.node.position], keys: [] });
  });

  it('names the node of every refusal', () => {
    expect(refusal([])).toBe('nodes');
    expect(refusal(Array.from({ length: 1001 }, (_, i) => ({ id: `n${i}`, name: 'n' })))).toBe('nodes');
    expect(
      refusal([
        { id: 'x', name: 'a' },
        { id: 'x', name: 'b' },
      ]),
    ).toBe('nodes[1].id');
    expect(
      refusal([
        { id: 'x', name: 'a' },
        { id: 'y', parentId: 'z', name: 'b' },
      ]),
    ).toBe('nodes[1].parentId');
    expect(
      refusal([
        { id: 'x', parentId: 'y', name: 'a' },
        { id: 'y', parentId: 'x', name: 'b' },
        { id: 'z', name: 'c' },
      ]),
    ).toBe('nodes[0].parentId');
    expect(refusal([{ id: 'x', name: '' }])).toBe('nodes[0].name');
    expect(refusal([{ id: 'x y', name: 'a' }])).toBe('nodes[0].id');
    expect(refusal([{ id: 'x', name: 'a', data: { '': 1 } }])).toBe('nodes[0].data');
  });
});
