import type { NodeDetails } from './operations.ts';
import { PriceField } from './PriceField.tsx';

/**
 * The selected node's fields: its type, place and version, and those of its type, read through
 * the fragments on the node types (`... on Category { slug title }`, `... on Product { slug price
 * status }`): a Category's slug and title, a Product's slug, status and price, which can be
 * changed here.
 */
export function NodeFields({ node }: { node: NodeDetails }) {
  return (
    <dl className="fields">
      <dt>id</dt>
      <dd>{node.id}</dd>
      <dt>type</dt>
      <dd>{node.__typename === 'UntypedNode' ? '(untyped)' : node.__typename}</dd>
      {node.__typename === 'Category' && (
        <>
          <dt>slug</dt>
          <dd>{node.slug}</dd>
          <dt>title</dt>
          <dd>{node.title ?? '—'}</dd>
        </>
      )}
      {node.__typename === 'Product' && (
        <>
          <dt>slug</dt>
          <dd>{node.slug}</dd>
          <dt>status</dt>
          <dd>{node.status}</dd>
          <dt>price</dt>
          <dd>
            {/* A new form for each version: the field shows the price the server has. */}
            <PriceField key={node.version} product={node} />
          </dd>
        </>
      )}
      <dt>parent</dt>
      <dd>{node.parentId ?? '(root)'}</dd>
      <dt>depth</dt>
      <dd>{node.depth}</dd>
      <dt>children</dt>
      <dd>{node.childCount}</dd>
      <dt>version</dt>
      <dd>{node.version}</dd>
      <dt>updated</dt>
      <dd>{new Date(node.updatedAt).toLocaleString()}</dd>
    </dl>
  );
}
