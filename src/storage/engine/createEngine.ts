import { meteredDoc } from '../../dynamodb/costMeter.js';
import { tenantDoc } from '../../dynamodb/tenantDoc.js';
import type { TreeStrategy } from '../strategy.js';
import type { StoreScope, TreeAdmin } from '../treeStore.js';
import { createCallerAccess } from './access/callerAccess.js';
import { adminOver } from './adminOver.js';
import type { EngineOptions, EngineParts } from './engineParts.js';

export type { EngineOptions } from './engineParts.js';

/**
 * The storage interface over one strategy: its admin, whose `store` is what the resolvers use.
 * The engine keeps the truth: node lookups, children pages and every mutation work on node and
 * edge items, with the strategy's guards and projection items riding in the same transactions;
 * ancestors and descendants are the strategy's own reads. Nothing here names a strategy. Its
 * wings (docs/architecture.md): core/ (the item layout, the pure plans, the truth's reads, the
 * open jobs and the read protocol), reads/ (job-aware reads), jobs/ (the jobs and their runner),
 * writes/ (every write, through a guarded place).
 */
export function createEngine(strategy: TreeStrategy, options: EngineOptions): TreeAdmin {
  const running = new Set<Promise<unknown>>();
  const background = (work: Promise<unknown>) => {
    running.add(work);
    void work.finally(() => running.delete(work));
  };
  const drain = async () => {
    while (running.size > 0) await Promise.allSettled([...running]);
  };
  const runsJobs = options.runsJobs ?? true;
  const root: EngineParts = {
    ...options,
    doc: tenantDoc(options.doc, null),
    tenant: null,
    runsJobs,
    background,
    drain,
    scopedTo,
  };
  function scopedTo({ tenant = null, cost, access, by }: StoreScope): EngineParts {
    const doc = tenantDoc(cost ? meteredDoc(options.doc, cost) : options.doc, tenant);
    const cursors = tenant === null ? options.cursors : options.cursors.forTenant(tenant);
    const caller: Partial<EngineParts> = access
      ? { access: createCallerAccess({ doc, table: options.table }, access) }
      : {};
    return Object.assign({}, root, { doc, tenant, cursors }, caller, by === undefined ? {} : { by }) as EngineParts;
  }
  return adminOver(strategy, root);
}
