import { useEffect, useState } from 'react';
import { explainFailure, failureOf, isNetworkError, type Failure } from './failure.ts';

/**
 * A list that could not be loaded: why (for a request that got no answer, once the connection
 * check tells whether the server is down or refuses this page's origin), and a Retry button.
 */
export function LoadError({
  what,
  error,
  onRetry,
  nested = false,
}: {
  what: string;
  error: unknown;
  onRetry: () => Promise<unknown>;
  nested?: boolean;
}) {
  const [failure, setFailure] = useState<Failure | null>(() => (isNetworkError(error) ? null : failureOf(error)));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let current = true;
    void explainFailure(error).then((explained) => current && setFailure(explained));
    return () => {
      current = false;
    };
  }, [error]);
  const retry = async () => {
    setBusy(true);
    try {
      await onRetry();
    } catch {
      // The query shows its new error in place of this one.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div role="alert" className={nested ? 'load-error nested' : 'load-error'}>
      <p>
        Could not load {what}:{' '}
        {failure ? (
          <>
            <span className="message">{failure.message}</span> <code className="code">{failure.code}</code>
          </>
        ) : (
          'checking the connection…'
        )}
      </p>
      <button type="button" disabled={busy} onClick={() => void retry()}>
        {busy ? 'Retrying…' : 'Retry'}
      </button>
    </div>
  );
}
