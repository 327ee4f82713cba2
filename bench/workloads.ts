import { fullTree, specIds, type TreeSpec } from '../test/support/tree.js';

/** The trees every server of a benchmark holds; `moveSizes`: the subtrees the moves take. */
export function trees(moveSizes: readonly number[]): TreeSpec[] {
  const chain: TreeSpec = { id: 'chain-20' };
  let top = chain;
  for (let i = 19; i >= 0; i--) top = { id: `chain-${i}`, children: [top] };
  const subtree = (id: string, size: number): TreeSpec => {
    const nodes: TreeSpec[] = Array.from({ length: size }, (_, k) => ({
      id: k === 0 ? id : `${id}.n${k}`,
      children: [],
    }));
    for (let k = 1; k < size; k++) nodes[Math.floor((k - 1) / 10)]!.children!.push(nodes[k]!);
    return nodes[0]!;
  };
  return [
    fullTree('nest', [10, 10, 10]),
    fullTree('fan', [5, 5, 5]),
    top,
    fullTree('wide', [5, 6]),
    { id: 'src', children: moveSizes.map((size) => subtree(`m${size}`, size)) },
    { id: 'dst', children: [{ id: 'dst.1' }] },
  ];
}

export interface Workload {
  name: string;
  /** Operations run one after the other: one "operation" of the workload. */
  operations: string[];
}

const WIDE_LEAVES = specIds(fullTree('wide', [5, 6])).filter((id) => id.split('.').length === 3);
export const WORKLOADS: Workload[] = [
  { name: 'node lookup', operations: ['{ node(id: "fan.1") { id name } }'] },
  {
    name: 'nested children ×3 (fan-out 10, first 10)',
    operations: [
      '{ node(id: "nest") { children(first: 10) { nodes { id children(first: 10) { nodes { id ' +
        'children(first: 10) { nodes { id } } } } } } } }',
    ],
  },
  { name: 'breadcrumbs at depth 20', operations: ['{ node(id: "chain-20") { ancestors { id name } } }'] },
  {
    name: 'descendants(maxDepth: 3), fan-out 5',
    operations: ['{ node(id: "fan") { descendants(maxDepth: 3, first: 1000) { nodes { id } } } }'],
  },
  {
    name: '30 aliased lookups with parent',
    operations: [`{ ${WIDE_LEAVES.map((id, i) => `n${i}: node(id: "${id}") { id parent { id } }`).join(' ')} }`],
  },
  {
    name: 'SPA session (roots, children of 3, breadcrumb)',
    operations: [
      '{ roots(first: 10) { nodes { id name } } }',
      '{ a: node(id: "nest") { children { nodes { id name } } } ' +
        'b: node(id: "fan") { children { nodes { id name } } } ' +
        'c: node(id: "wide") { children { nodes { id name } } } }',
      '{ node(id: "nest.3.4.5") { ancestors { id name } } }',
    ],
  },
];
