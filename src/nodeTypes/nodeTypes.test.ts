import { describe, expect, it } from 'vitest';
import { parseNodeTypes } from './nodeTypes.js';
import { nodeTest } from './nodeFilter.js';
import { mergePatch, TypedData } from './typedData.js';
import type { TreeNode } from '../storage/treeStore.js';

const RESERVED = { types: new Set(['Node', 'Query']), fields: new Set(['id', 'name', 'children', 'data']) };

const CATALOG = /* GraphQL */ `
  "A shelf of the catalogue."
  type Category @children(types: [Category, Product]) {
    slug: String! @pathKey
    "Shown above the shelf."
    title: String
  }
  type Product @children(types: []) {
    slug: String! @pathKey
    price: Float! @default(value: 0)
    stock: Int
    status: Status! @default(value: DRAFT)
    tags: [String!]
    launchedAt: DateTime
    onSale: Boolean
  }
  enum Status {
    DRAFT
    LIVE
  }
`;

describe('parseNodeTypes', () => {
  it('reads types, fields, defaults, children rules, path keys and enums', () => {
    const types = parseNodeTypes(CATALOG, RESERVED);
    expect([...types.types.keys()]).toEqual(['Category', 'Product']);
    const category = types.types.get('Category')!;
    expect(category).toMatchObject({ description: 'A shelf of the catalogue.', children: ['Category', 'Product'] });
    expect(category.pathKey).toBe('slug');
    expect(category.fields[1]).toEqual({
      name: 'title',
      description: 'Shown above the shelf.',
      type: { named: 'String', required: false, list: false, itemRequired: false },
    });
    const product = types.types.get('Product')!;
    expect(product.children).toEqual([]);
    expect(product.fields.find((f) => f.name === 'status')!.default).toBe('DRAFT');
    expect(product.fields.find((f) => f.name === 'tags')!.type).toEqual({
      named: 'String',
      required: false,
      list: true,
      itemRequired: true,
    });
    expect(types.enums.get('Status')!.values).toEqual(['DRAFT', 'LIVE']);
  });

  it('refuses a file with every problem listed, by line', () => {
    const bad = /* GraphQL */ `
      type Node { x: String }
      type Folder @children(types: [Nope]) @color {
        id: String
        size: Long
        key: Int @pathKey
        when: DateTime @default(value: "yesterday")
        grid: [[Int]]
      }
      input Other { x: Int }
    `;
    let message = '';
    try {
      parseNodeTypes(bad, RESERVED);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'line 10: only node types (type) and enums (enum) may be declared, not InputObjectTypeDefinition',
      "Node is a name of Canopy's schema: name the type otherwise",
      "line 3: @color is not a node type's directive (@children)",
      'line 4: Folder.id is a field of every node: name it otherwise',
      'line 5: Folder.size: Long is neither String, Int, Float, Boolean, DateTime nor an enum of the file',
      'line 6: Folder.key: a @pathKey is a String!',
      'line 7: Folder.when @default: must be a date-time (ISO 8601, with its offset)',
      'line 8: Folder.grid: a list of lists is not a field type',
      'Folder @children names Nope, which is no node type of the file',
    ]);
  });

  it('refuses SDL that does not parse, with graphql’s message', () => {
    expect(() => parseNodeTypes('type {', RESERVED)).toThrow(/Syntax Error/);
  });
});

describe('TypedData', () => {
  const typed = new TypedData(parseNodeTypes(CATALOG, RESERVED));

  it('gives a create its defaults and checks every field', () => {
    expect(typed.created('Product', { slug: 'lamp' })).toEqual({ slug: 'lamp', price: 0, status: 'DRAFT' });
    expect(() => typed.created('Product', { slug: 'lamp', price: 'cheap' })).toThrow(
      'Product.price must be a finite number',
    );
    expect(() => typed.created('Product', {})).toThrow('Product.slug is required');
    expect(() => typed.created('Product', { slug: 'x', colour: 'red' })).toThrow(
      'Product.colour is not a field of Product',
    );
    expect(() => typed.created('Product', { slug: 'x', tags: ['a', null] })).toThrow('Product.tags [1] is required');
    expect(() => typed.created('Product', { slug: 'x', status: 'GONE' })).toThrow('must be one of DRAFT, LIVE');
    expect(() => typed.created('Shelf', {})).toThrow(
      'type Shelf is not a node type (NODE_TYPES declares Category, Product)',
    );
    expect(typed.created(null, { free: 1 })).toEqual({ free: 1 });
  });

  it('patches as JSON merge patch, then checks the whole', () => {
    const before = { slug: 'lamp', price: 3, status: 'DRAFT', stock: 2 };
    expect(typed.patched('Product', before, { price: 4, stock: null })).toEqual({
      slug: 'lamp',
      price: 4,
      status: 'DRAFT',
    });
    expect(() => typed.patched('Product', before, { slug: null })).toThrow('Product.slug is required');
    expect(typed.patched(null, { a: { b: 1, c: 2 } }, { a: { c: null }, d: [1] })).toEqual({ a: { b: 1 }, d: [1] });
    expect(typed.patched(null, { a: 1 }, { a: null })).toBeNull();
  });

  it('lets a parent hold only the children its type allows', () => {
    expect(() => typed.checkChild('Category', 'Product', 'c')).not.toThrow();
    expect(() => typed.checkChild('Product', 'Product', 'p')).toThrow(
      'Product "p" holds no children: it cannot hold a Product',
    );
    expect(() => typed.checkChild('Category', null, 'c')).toThrow(
      'Category "c" holds only Category, Product: it cannot hold an untyped node',
    );
    expect(() => typed.checkChild(null, 'Product', null)).not.toThrow();
  });

  it('merges RFC 7386’s examples', () => {
    expect(mergePatch({ a: 'b', c: { d: 'e', f: 'g' } }, { a: 'z', c: { f: null } })).toEqual({
      a: 'z',
      c: { d: 'e' },
    });
    expect(mergePatch({ a: [1] }, { a: { b: 'c' } })).toEqual({ a: { b: 'c' } });
  });
});

describe('nodeTest', () => {
  const types = parseNodeTypes(CATALOG, RESERVED);
  const node = (name: string, data: Record<string, unknown> | null, type?: string) =>
    ({ id: name, name, data, ...(type ? { type } : {}) }) as TreeNode;
  const lamp = node(
    'Lamp',
    { slug: 'lamp', price: 5, tags: ['light', 'desk'], launchedAt: '2026-01-02T00:00:00Z' },
    'Product',
  );

  it('compares typed fields, any item of a list, date-times as instants; a missing field fails', () => {
    expect(nodeTest({ price: { gt: 4, lte: 5 } }, types)(lamp)).toBe(true);
    expect(nodeTest({ tags: { eq: 'desk' } }, types)(lamp)).toBe(true);
    expect(nodeTest({ launchedAt: { gt: '2026-01-01T23:00:00-02:00' } }, types)(lamp)).toBe(false);
    expect(nodeTest({ stock: { lt: 100 } }, types)(lamp)).toBe(false);
    expect(nodeTest({ not: { stock: { lt: 100 } } }, types)(lamp)).toBe(true);
    expect(nodeTest({ name: { prefix: 'La' }, type: ['Product'] }, types)(lamp)).toBe(true);
    expect(nodeTest({ or: [{ type: ['Category'] }, { price: { in: [1, 2] } }] }, types)(lamp)).toBe(false);
  });

  it('refuses an empty filter and one past 50 conditions', () => {
    expect(() => nodeTest({}, types)).toThrow('a filter holds at least one condition');
    const many = { or: Array.from({ length: 50 }, () => ({ name: { eq: 'x' } })) };
    expect(() => nodeTest(many, types)).toThrow('a filter holds at most 50 conditions, got 51');
  });

  it('refuses a field name with two types of value across node types', () => {
    expect(() => parseNodeTypes('type A { size: Int }\ntype B { size: String }', RESERVED)).toThrow(
      'size is Int in A but String in B: a field name has one type of value in every node type',
    );
  });
});
