import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { useExplorer } from './explorer.ts';
import { explainFailure, type Failure } from './failure.ts';
import { NODE_HISTORY, UPDATE_PRICE } from './operations.ts';

/**
 * A Product's price, editable: Save sends a typed patch (`updateNode(product: { price })`, its
 * other fields untouched) with the node's version as `expectedVersion`, so that a price set on a
 * product changed since it was read is refused (VERSION_CONFLICT) instead of applied. The answer
 * updates the node in the cache (price, version) and the history panel is read again; the change
 * joins the tab's undo list.
 */
export function PriceField({ product }: { product: { id: string; name: string; price: number; version: number } }) {
  const explorer = useExplorer();
  const [price, setPrice] = useState(String(product.price));
  const [failure, setFailure] = useState<Failure | null>(null);
  const [updatePrice, { loading }] = useMutation(UPDATE_PRICE);
  const next = Number(price);
  const valid = price.trim() !== '' && Number.isFinite(next) && next >= 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || next === product.price) return;
    setFailure(null);
    try {
      await updatePrice({
        variables: { id: product.id, price: next, expectedVersion: product.version },
        // The history panel lists the change.
        refetchQueries: [NODE_HISTORY],
      });
      explorer.announce(`Set the price of ${product.name} to ${next}.`);
      explorer.remember(product.id, `price of ${product.name}`);
    } catch (error) {
      setFailure(await explainFailure(error));
    }
  };

  return (
    <form className="price-field" aria-label={`Price of ${product.name}`} onSubmit={(event) => void submit(event)}>
      <input
        type="number"
        aria-label={`New price of ${product.name}`}
        min="0"
        step="0.01"
        value={price}
        onChange={(event) => setPrice(event.target.value)}
      />
      <button type="submit" disabled={loading || !valid || next === product.price}>
        {loading ? 'Saving…' : 'Save price'}
      </button>
      {failure && (
        <span role="alert" className="error">
          <code className="code">{failure.code}</code> <span className="message">{failure.message}</span>
        </span>
      )}
    </form>
  );
}
