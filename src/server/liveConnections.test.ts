import { describe, expect, it } from 'vitest';
import type { Caller } from '../auth/caller.js';
import { unauthenticated } from '../errors.js';
import type { ChangeHub } from '../live/changeHub.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { liveConnections } from './liveConnections.js';
import type { Metrics } from './metrics.js';

const ana: Caller = {
  via: 'jwt',
  subject: 'ana',
  tenant: 't',
  grants: { all: 'read', trees: new Map() },
  principals: [],
};

function connections() {
  const scopes: unknown[] = [];
  const admin = {
    store: { scoped: (scope: unknown) => (scopes.push(scope), { access: { forget() {} } }) },
  } as unknown as TreeAdmin;
  const counter = { inc() {}, observe() {} };
  const live = liveConnections({
    admin,
    hub: {} as ChangeHub,
    config: { changeRetentionHours: 1, liveQueueLimit: 10, grantsCacheMs: 1000 },
    metrics: { liveEvents: counter, liveLag: counter, liveDropped: counter } as unknown as Metrics,
  });
  return { live, scopes };
}

describe('liveConnections', () => {
  it('authenticates a connection once and shares its caller and store, each subscription its own loaders', async () => {
    const { live, scopes } = connections();
    let authenticated = 0;
    const authenticate = async () => (authenticated++, ana);
    const socket = {};
    const first = await live.subscribe(socket, authenticate);
    const second = await live.subscribe(socket, authenticate);
    expect(authenticated).toBe(1);
    expect(scopes).toHaveLength(1);
    expect(second.caller).toBe(first.caller);
    expect(second.context.store).toBe(first.context.store);
    expect(second.context.live?.connection).toBe(first.context.live?.connection);
    expect(second.context).not.toBe(first.context);

    const loaders = first.context.loaders;
    expect(first.context.loaders).toBe(loaders);
    expect(second.context.loaders).not.toBe(loaders);
    first.context.live?.release();
    expect(first.context.loaders).not.toBe(loaders);

    await live.subscribe({}, authenticate);
    expect(authenticated).toBe(2);
    expect(scopes).toHaveLength(2);
  });

  it('authenticates again once the credentials no longer hold, and after the connection closed', async () => {
    const { live } = connections();
    const answers: Array<() => Caller> = [
      () => ({ ...ana, checkAgainAt: Date.now() - 1 }),
      () => {
        throw unauthenticated('the token has expired');
      },
      () => {
        throw unauthenticated('the token has expired');
      },
    ];
    const authenticate = async () => answers.shift()!();
    const socket = {};
    await live.subscribe(socket, authenticate);
    await expect(live.subscribe(socket, authenticate)).rejects.toThrow('the token has expired');
    expect(answers).toHaveLength(0);

    let authenticated = 0;
    const other = {};
    await live.subscribe(other, async () => (authenticated++, ana));
    live.closed(other);
    await live.subscribe(other, async () => (authenticated++, ana));
    expect(authenticated).toBe(2);
  });
});
