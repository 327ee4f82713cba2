import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { countTokens, DEFAULT_LIMITS, measureOperation, type OperationMeasure } from './limitsPlugin.js';

/** Measures the first operation of `source`, with every fragment it defines. */
function measure(
  source: string,
  variables: Record<string, unknown> = {},
  maxNodes?: number,
  ancestors?: number,
): OperationMeasure {
  const document = parse(source);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    if (definition.kind === Kind.OPERATION_DEFINITION) operation ??= definition;
  }
  if (!operation) throw new Error('no operation in the source');
  return measureOperation(operation, fragments, { variables, maxNodes, ancestors });
}

describe('measureOperation', () => {
  it('counts one level per nested field', () => {
    expect(measure('{ __typename }')).toMatchObject({ nesting: 1, aliases: 0 });
    expect(measure('{ node(id: "a") { id } }')).toMatchObject({ nesting: 2, aliases: 0 });
    expect(measure('{ node(id: "a") { id parent { id parent { name } } } }')).toMatchObject({ nesting: 4, aliases: 0 });
  });

  it('takes the deepest branch', () => {
    expect(measure('{ a: node(id: "a") { id } b: node(id: "b") { parent { parent { id } } } }').nesting).toBe(4);
  });

  it('counts depth through named fragments, without a level for the spread', () => {
    const source = `
      query { node(id: "a") { ...Deep } }
      fragment Deep on Node { parent { ...Deeper } }
      fragment Deeper on Node { parent { id } }
    `;
    expect(measure(source)).toMatchObject({ nesting: 4, aliases: 0 });
  });

  it('counts depth through inline fragments, without a level for the fragment', () => {
    expect(measure('{ node(id: "a") { ... on Node { parent { ... { id } } } } }').nesting).toBe(3);
  });

  it('counts every aliased field, including those inside fragments', () => {
    const source = `
      query { a: node(id: "a") { ...F } b: node(id: "b") { id } node(id: "c") { n: name } }
      fragment F on Node { x: id y: name ... on Node { z: id } }
    `;
    expect(measure(source).aliases).toBe(6);
  });

  it('counts the aliases of a fragment each time it is spread', () => {
    const source = `
      query { a: node(id: "a") { ...F } b: node(id: "b") { ...F } }
      fragment F on Node { x: id y: name }
    `;
    expect(measure(source).aliases).toBe(6);
  });

  it('terminates on fragments that spread themselves or each other', () => {
    const source = `
      query { node(id: "a") { ...A } }
      fragment A on Node { parent { ...B } }
      fragment B on Node { parent { ...A } }
    `;
    // node > parent (A) > parent (B), whose spread of A is the cycle and is not followed.
    expect(measure(source).nesting).toBe(3);
    expect(measure('query { node(id: "a") { ...S } } fragment S on Node { id ...S }').nesting).toBe(2);
  });

  it('ignores spreads of unknown fragments (validation reports them)', () => {
    expect(measure('{ node(id: "a") { id ...Missing } }')).toMatchObject({ nesting: 2, aliases: 0 });
  });

  it('measures mutations the same way', () => {
    expect(measure('mutation { c: createNode(input: { name: "n" }) { id parent { id } } }')).toEqual({
      nesting: 3,
      aliases: 1,
      nodes: 0,
      deepestAt: 'c.parent.id',
    });
  });

  it('estimates the nodes a query may return: each list multiplies by its first', () => {
    expect(measure('{ node(id: "a") { children { nodes { id } } } }').nodes).toBe(100);
    expect(measure('{ roots(first: 10) { nodes { children(first: 20) { edges { node { id } } } } } }').nodes).toBe(
      10 + 200,
    );
    expect(
      measure('query($n: Int) { roots(first: $n) { nodes { descendants(first: 1000) { nodes { id } } } } }', { n: 50 })
        .nodes,
    ).toBe(50 + 50_000);
    expect(measure('{ nodes(ids: ["a", "b", "c"]) { children(first: 5) { nodes { id } } } }').nodes).toBe(3 + 15);
    // Read backwards, a list holds its `last`.
    expect(measure('{ roots(last: 10) { nodes { children(last: 1000, before: "c") { nodes { id } } } } }').nodes).toBe(
      10 + 10_000,
    );
    const entities =
      'query($r: [_Any!]!) { _entities(representations: $r) { ' +
      '... on Node { children(first: 1000) { nodes { id } } } } }';
    expect(
      measure(entities, { r: Array.from({ length: 600 }, (_, i) => ({ __typename: 'Node', id: `n${i}` })) }).nodes,
    ).toBe(600 + 600_000);
  });

  it('names the field at which the estimate went over the limit, and the deepest field', () => {
    const nested = '{ node(id: "a") { kids: children(first: 50) { nodes { children(first: 50) { nodes { id } } } } } }';
    expect(measure(nested, {}, 1000)).toMatchObject({
      nodes: 50 + 2500,
      nodesOverAt: 'node.kids.nodes.children',
      deepestAt: 'node.kids.nodes.children.nodes.id',
    });
    expect(measure(nested, {}, 10_000)).not.toHaveProperty('nodesOverAt');
  });

  it('has limits that a reasonable client stays within: three nested children with defaults, not four', () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxTokens: 5000,
      maxNesting: 16,
      maxAliases: 100,
      maxDirectives: 50,
      maxNodes: 2_000_000,
    });
    const nest = (levels: number): string => (levels === 0 ? 'id' : `children { nodes { ${nest(levels - 1)} } }`);
    expect(measure(`{ node(id: "a") { ${nest(3)} } }`).nodes).toBe(1_010_100);
    expect(measure(`{ node(id: "a") { ${nest(3)} } }`, {}, DEFAULT_LIMITS.maxNodes)).not.toHaveProperty('nodesOverAt');
    expect(measure(`{ node(id: "a") { ${nest(4)} } }`, {}, DEFAULT_LIMITS.maxNodes).nodesOverAt).toBe(
      'node.children.nodes.children.nodes.children.nodes.children',
    );
  });
});

describe('measureOperation on hostile documents', () => {
  /** `fragment Fk on Node { ...Fk-1 ...Fk-1 }` up to F`levels`: 2^levels leaves from a short text. */
  const fanOut = (levels: number): string => {
    let text = 'fragment F0 on Node { a: id }\n';
    for (let k = 1; k <= levels; k++) text += `fragment F${k} on Node { ...F${k - 1} ...F${k - 1} }\n`;
    return `{ node(id: "a") { ...F${levels} } }\n${text}`;
  };

  it('measures fragments spread twice over in time linear in the document, counting every spread', () => {
    // 2^60 spreads of F0: a walk that followed every spread would never end.
    const measured = measure(fanOut(60));
    expect(measured.aliases).toBe(2 ** 60);
    expect(measured.nesting).toBe(2);
    expect(measure(fanOut(3)).aliases).toBe(8);
  });

  it('counts ancestors as a list as long as the tree may be deep', () => {
    expect(measure('{ node(id: "a") { ancestors { id } } }').nodes).toBe(64);
    expect(measure('{ node(id: "a") { ancestors { id } } }', {}, undefined, 10).nodes).toBe(10);
    const nested = '{ node(id: "a") { ancestors { ancestors { ancestors { ancestors { ancestors { id } } } } } } }';
    expect(measure(nested, {}, DEFAULT_LIMITS.maxNodes)).toMatchObject({
      nodes: 64 + 64 ** 2 + 64 ** 3 + 64 ** 4 + 64 ** 5,
      nodesOverAt: 'node.ancestors.ancestors.ancestors.ancestors',
    });
  });

  it('counts variables by the defaults of their definitions when they are not sent', () => {
    const query = 'query($f: Int = 1000) { roots(first: $f) { nodes { children(first: $f) { nodes { id } } } } }';
    expect(measure(query).nodes).toBe(1000 + 1000 * 1000);
    expect(measure(query, { f: 2 }).nodes).toBe(2 + 4);
    const ids = 'query($ids: [ID!]! = ["a", "b"]) { nodes(ids: $ids) { children(first: 1000) { nodes { id } } } }';
    expect(measure(ids).nodes).toBe(2 + 2000);
  });

  it('names the field where the estimate goes over, through fragments', () => {
    const source = `
      query { node(id: "a") { id ...Wide } }
      fragment Wide on Node {
        small: children(first: 2) { nodes { id } }
        big: children(first: 1000) { nodes { ...Deeper } }
      }
      fragment Deeper on Node { children(first: 1000) { nodes { id } } }
    `;
    expect(measure(source, {}, 500_000)).toMatchObject({
      nodes: 2 + 1000 + 1_000_000,
      nodesOverAt: 'node.big.nodes.children',
    });
  });
});

describe('countTokens', () => {
  it("counts as graphql-js's parser does: punctuation and names, not comments, commas or the end", () => {
    expect(countTokens('{ node(id: "a") { id } }', 100)).toBe(11);
    expect(countTokens('# a comment\n{ a, b }', 100)).toBe(4);
    expect(countTokens('', 100)).toBe(0);
  });

  it('stops one past the limit, and leaves an unlexable document to the parser', () => {
    expect(countTokens('{ a }'.repeat(1000), 10)).toBe(11);
    expect(countTokens('{ a } ^ { b }', 100)).toBe(3);
  });
});
