import { useState } from 'react';
import { explainFailure, type Failure } from './failure.ts';

/** "Load more": the next page of a list of siblings; a failed page says why and can be tried again. */
export function LoadMore({ label, onLoad }: { label: string; onLoad: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const load = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await onLoad();
    } catch (error) {
      setFailure(await explainFailure(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="load-more">
      <button type="button" aria-label={label} disabled={busy} onClick={() => void load()}>
        {busy ? 'Loading…' : 'Load more'}
      </button>
      {failure && (
        <span role="alert" className="error">
          <code className="code">{failure.code}</code> <span className="message">{failure.message}</span>
        </span>
      )}
    </div>
  );
}
