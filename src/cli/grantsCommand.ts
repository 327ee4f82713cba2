import type { Command } from 'commander';
import { LEVELS } from '../auth/grants.js';
import { loadConfig } from '../config.js';
import { isTreeError } from '../errors.js';
import type { AccessLevel, StoreAccess } from '../storage/treeStore.js';
import { checkedAdmin } from './checkedAdmin.js';
import { COMMON } from './help.js';
import { tenantOption, UsageError } from './options.js';
import { withTable } from './withTable.js';

/** `grants add|remove|list`: the grants on subtrees, for bootstrap and repair (docs/security.md). */
export function grantsCommand(tree: Command): void {
  const grants = tree
    .command('grants')
    .summary('give, take and list grants on subtrees')
    .usage(
      [
        'npm run tree -- grants add NODE_ID PRINCIPAL read|write|admin [--tenant T]',
        '       npm run tree -- grants remove NODE_ID PRINCIPAL [--tenant T]',
        '       npm run tree -- grants list NODE_ID [--tenant T]',
      ].join('\n'),
    )
    .description(
      [
        'Grants on a node, inherited by its subtree, as grantAccess and revokeAccess give and take them,',
        'without a caller: the first ADMIN of a tree is given so. PRINCIPAL is sub:<token subject>,',
        'group:<group claim value> or key:<API key name>. `add` gives a grant (or changes its level),',
        '`remove` takes it (exit 1 when there was none), `list` prints the grants on the node, one a line:',
        'principal, level, who granted it, when. Open subscriptions see a change within GRANTS_CACHE_MS.',
        '',
        COMMON,
      ].join('\n'),
    );
  addCommand(grants);
  removeCommand(grants);
  listCommand(grants);
}

const tenant = (options: { tenant?: string }) => tenantOption(options.tenant);

function addCommand(grants: Command): void {
  grants
    .command('add')
    .argument('[nodeId]')
    .argument('[principal]')
    .argument('[level]')
    .option('--tenant <tenant>')
    .action(async (node?: string, principal?: string, level?: string, options: { tenant?: string } = {}) => {
      if (!node || !principal || !level || !LEVELS.includes(level as AccessLevel))
        throw new UsageError('grants add needs NODE_ID PRINCIPAL read|write|admin');
      process.exitCode = await onGrants(tenant(options), async (access) => {
        const grant = await access.grant(node, principal, level as AccessLevel);
        console.log(`${grant.principal} may now ${grant.level} ${grant.nodeId} and its subtree`);
        return 0;
      });
    });
}

function removeCommand(grants: Command): void {
  grants
    .command('remove')
    .argument('[nodeId]')
    .argument('[principal]')
    .option('--tenant <tenant>')
    .action(async (node?: string, principal?: string, options: { tenant?: string } = {}) => {
      if (!node || !principal) throw new UsageError('grants remove needs NODE_ID PRINCIPAL');
      process.exitCode = await onGrants(tenant(options), async (access) => {
        const removed = await access.revoke(node, principal);
        console.log(removed ? `${principal}'s grant on ${node} removed` : `${principal} holds no grant on ${node}`);
        return removed ? 0 : 1;
      });
    });
}

function listCommand(grants: Command): void {
  grants
    .command('list')
    .argument('[nodeId]')
    .option('--tenant <tenant>')
    .action(async (node?: string, options: { tenant?: string } = {}) => {
      if (!node) throw new UsageError('grants list needs NODE_ID');
      process.exitCode = await onGrants(tenant(options), async (access) => {
        for (const g of await access.grantsOn(node))
          console.log(`${g.principal}\t${g.level}\t${g.grantedBy ?? '-'}\t${g.at}`);
        return 0;
      });
    });
}

/**
 * Runs `work` on the grants of a tenant's store; a typed refusal (NOT_FOUND, BAD_USER_INPUT) is its message
 * and exit 1.
 */
async function onGrants(tenant: string | null, work: (access: StoreAccess) => Promise<number>): Promise<number> {
  const config = loadConfig();
  return withTable(config, async (dynamo) => {
    const admin = await checkedAdmin(config, dynamo);
    try {
      return await work(admin.forTenant(tenant).store.access);
    } catch (error) {
      if (!isTreeError(error)) throw error;
      console.error(`${error.code}: ${error.message}`);
      return 1;
    }
  });
}
