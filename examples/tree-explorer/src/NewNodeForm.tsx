import { useId, useState, type FormEvent } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { explainFailure, type Failure } from './failure.ts';
import type { CreateNodeMutationVariables } from './gql/graphql.ts';
import { showInList } from './listCache.ts';
import { CHILDREN, CREATE_NODE, PAGE_SIZE, type TreeNode } from './operations.ts';
import { refreshScreen } from './refreshScreen.ts';

/** The node type of a new node ('': untyped), and the fields the form asks for. */
interface TypeChoice {
  type: 'Category' | 'Product' | '';
  slug: string;
  price: string;
}

/** A slug from a name: "Home & Garden" → "home-garden". */
const slugOf = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** createNode's typed input: `category` or `product` with their fields, or neither (untyped). */
function typedInput(choice: TypeChoice, name: string): Pick<CreateNodeMutationVariables, 'category' | 'product'> {
  const slug = choice.slug.trim() || slugOf(name);
  if (choice.type === 'Category') return { category: { slug } };
  if (choice.type === 'Product') return { product: { slug, price: choice.price === '' ? 0 : Number(choice.price) } };
  return {};
}

/**
 * Creates a node with the name typed in: the last child of `parent`, or a new root; a Category,
 * a Product (its slug, by default the name's, and its price) or an untyped node. A Category's
 * children are Categories by default, other nodes' untyped. Once the server has it, the lists on
 * screen are refetched and the new node is shown in its parent's list even when it sits past
 * the pages loaded so far (showInList).
 */
export function NewNodeForm({ parent, onCreated }: { parent: TreeNode | null; onCreated: (node: TreeNode) => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const [choice, setChoice] = useState<TypeChoice>({
    type: parent?.__typename === 'Category' ? 'Category' : '',
    slug: '',
    price: '',
  });
  const { create, busy, failure } = useCreateNode(parent);
  const label = parent ? `New child of ${parent.name}` : 'New root';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return;
    const created = await create({ name: trimmed, parentId: parent?.id ?? null, ...typedInput(choice, trimmed) });
    if (!created) return;
    setName('');
    setChoice({ ...choice, slug: '', price: '' });
    onCreated(created);
  };

  return (
    <form className="new-node" aria-labelledby={`${id}-label`} onSubmit={(event) => void submit(event)}>
      <label id={`${id}-label`} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        value={name}
        placeholder="Name"
        autoComplete="off"
        onChange={(event) => setName(event.target.value)}
      />
      <TypeFields choice={choice} name={name} onChange={setChoice} />
      <button type="submit" disabled={busy || name.trim() === ''}>
        {busy ? 'Adding…' : 'Add'}
      </button>
      {failure && (
        <p role="alert" className="error">
          <code className="code">{failure.code}</code> <span className="message">{failure.message}</span>
        </p>
      )}
    </form>
  );
}

/** The new node's type, and the fields of that type the form asks for. */
function TypeFields({
  choice,
  name,
  onChange,
}: {
  choice: TypeChoice;
  name: string;
  onChange: (choice: TypeChoice) => void;
}) {
  return (
    <>
      <select
        aria-label="Type"
        value={choice.type}
        onChange={(event) => onChange({ ...choice, type: event.target.value as TypeChoice['type'] })}
      >
        <option value="Category">Category</option>
        <option value="Product">Product</option>
        <option value="">No type</option>
      </select>
      {choice.type !== '' && (
        <input
          aria-label="Slug"
          className="slug"
          value={choice.slug}
          placeholder={slugOf(name) || 'slug'}
          autoComplete="off"
          onChange={(event) => onChange({ ...choice, slug: event.target.value })}
        />
      )}
      {choice.type === 'Product' && (
        <input
          type="number"
          aria-label="Price"
          className="price"
          min="0"
          step="0.01"
          value={choice.price}
          placeholder="0.00"
          onChange={(event) => onChange({ ...choice, price: event.target.value })}
        />
      )}
    </>
  );
}

/** createNode, then the lists on screen refetched with the new node in its parent's list; null when refused. */
function useCreateNode(parent: TreeNode | null) {
  const client = useApolloClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const create = async (variables: CreateNodeMutationVariables): Promise<TreeNode | null> => {
    setBusy(true);
    setFailure(null);
    try {
      const result = await client.mutate({ mutation: CREATE_NODE, variables });
      const created = result.data?.createNode;
      if (!created) throw new Error('createNode answered no node');
      // The parent's list may never have been loaded (a closed node): load its first page, so
      // that the new node has a list to be shown in once the parent opens.
      if (parent)
        await client
          .query({ query: CHILDREN, variables: { id: parent.id, first: PAGE_SIZE }, fetchPolicy: 'network-only' })
          .catch(() => undefined);
      await refreshScreen(client);
      showInList(client.cache, parent?.id ?? null, created.id);
      return created;
    } catch (error) {
      setFailure(await explainFailure(error));
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { create, busy, failure };
}
