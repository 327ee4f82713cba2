import { tableAnswers } from '../../dynamodb/table.js';
import type { TreeStrategy } from '../strategy.js';
import type { TreeAdmin } from '../treeStore.js';
import { builtStrategies } from './builtStrategies.js';
import { contextOf, type EngineParts } from './engineParts.js';
import { listedTenants, startSweeper, sweepTenants, takeUpJob } from './jobs/jobRunner.js';
import { startReindex } from './jobs/startReindex.js';
import { readOpenJobs } from './reads/visibleNodes.js';
import { crowdedParents, respaceChildren } from './writes/respace.js';
import { storeOver } from './storeOver.js';

/** The maintenance side of the store (TreeAdmin), over the parts of one tenant. */
export function adminOver(strategy: TreeStrategy, options: EngineParts): TreeAdmin {
  const ctx = contextOf(strategy, options, undefined);
  const tenantContext = (tenant: string) => contextOf(strategy, options.scopedTo({ tenant }), undefined);
  return {
    strategy: strategy.name,
    store: storeOver(strategy, options, undefined),
    forTenant: (tenant, cost) => adminOver(strategy, options.scopedTo({ tenant, cost })),
    async openJobCount() {
      const [own, tenants] = await Promise.all([readOpenJobs(options), listedTenants(ctx)]);
      const theirs = await Promise.all(
        tenants.map(async (tenant) => (await readOpenJobs(options.scopedTo({ tenant }))).count),
      );
      return theirs.reduce((sum, count) => sum + count, own.count);
    },
    reindex: (target) => startReindex(ctx, target),
    respace: (parentId) => respaceChildren(ctx, parentId),
    crowdedParents: (longerThan) => crowdedParents(ctx, longerThan),
    takeUpJob: (jobId) => takeUpJob(ctx, jobId),
    sweepJobs: () => sweepTenants(ctx, tenantContext),
    startJobs() {
      const sweeper = startSweeper(ctx, tenantContext);
      return {
        async stop() {
          await sweeper.stop();
          await options.drain();
        },
      };
    },
    ready: () => tableAnswers(options.doc, options.table),
    builtStrategies: () => builtStrategies((tenant) => contextOf(strategy, options.scopedTo({ tenant }), undefined)),
  };
}
