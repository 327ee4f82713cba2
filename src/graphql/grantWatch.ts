import { notFound, type TreeError } from '../errors.js';
import type { Context, LiveContext } from './context.js';

/** An open subscription's watch of its caller's grants on subtrees (watchGrants). */
export interface GrantWatch {
  /** Settles with NOT_FOUND when the watched node is no longer the caller's to read. */
  ended: Promise<TreeError>;
  stop(): void;
}

/**
 * The grants on subtrees of a subscription's caller, read again every GRANTS_CACHE_MS while it
 * is open: what it may read is then what its changes are filtered by (LiveContext.readable),
 * and a watched node it may no longer read (a grant revoked, the node moved out of reach) ends
 * the stream with the answer a new subscription would get, NOT_FOUND. One read of the caller's
 * grants and of the node (and, under adjacency, its ancestors) each time; nothing for a caller
 * whose credentials let it read every tree.
 */
export function watchGrants(context: Context & { live: LiveContext }, nodeId: string): GrantWatch {
  const { access, store, loaders, live } = context;
  let stop = () => {};
  const ended = new Promise<TreeError>((resolve) => {
    if (access.grants.all !== null || store.access.unlimited) return;
    const check = async () => {
      store.access.forget();
      loaders.clearAll();
      const readable = await access.readable();
      const node = await access.visible(await loaders.nodeById.load(nodeId));
      live.readable = readable;
      if (node) return;
      stop();
      resolve(notFound('node', nodeId));
    };
    // A failed read (DynamoDB unavailable) keeps the grants last read until the next one.
    const timer = setInterval(() => void check().catch(() => {}), live.grantsCacheMs);
    timer.unref();
    stop = () => clearInterval(timer);
  });
  return { ended, stop: () => stop() };
}
