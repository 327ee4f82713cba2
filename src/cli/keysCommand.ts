import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { createApiKey, listApiKeys, parseTrees, revokeApiKey } from '../auth/apiKeys.js';
import { ensureTable } from '../dynamodb/table.js';
import { isTreeError } from '../errors.js';
import { COMMON } from './help.js';
import { tenantOption, UsageError } from './options.js';
import { withTable } from './withTable.js';

/** `keys create|list|revoke`: the API keys of AUTH=apikey. */
export function keysCommand(tree: Command): void {
  const keys = tree
    .command('keys')
    .summary('create, list and revoke the API keys of AUTH=apikey')
    .usage(
      [
        'npm run tree -- keys create [--name NAME] [--trees ROOT=read|write|admin,...] [--tenant T]',
        '       npm run tree -- keys list',
        '       npm run tree -- keys revoke KEY_ID',
      ].join('\n'),
    )
    .description(
      [
        'API keys for AUTH=apikey. `create` prints a new key once (canopy_<id>_<secret>): the table keeps',
        'only the SHA-256 of its secret, so a lost key cannot be shown again (create another). --trees',
        'limits the key to some trees by their root ids (`*` for all), e.g. catalog=write,*=read;',
        "without it the key may administer every tree. --tenant binds the key to tenant T's trees (default:",
        "the default tenant's). `list` shows each key's id, name, tenant, trees, creation and",
        'revocation. `revoke` ends a key for good; servers stop taking it within 30 s (how long a server',
        'trusts what it read of a key).',
        '',
        COMMON,
      ].join('\n'),
    );
  keys
    .command('create')
    .option('--name <name>')
    .option('--trees <grants>')
    .option('--tenant <tenant>')
    .action(async (options: { name?: string; trees?: string; tenant?: string }) => {
      process.exitCode = await createKey(options.name ?? '', options.trees, tenantOption(options.tenant));
    });
  keys.command('list').action(async () => {
    process.exitCode = await listKeys();
  });
  keys
    .command('revoke')
    .argument('[keyId]')
    .action(async (id: string | undefined) => {
      if (!id) throw new UsageError("keys revoke needs the key's id (npm run tree -- keys list)");
      process.exitCode = await revokeKey(id);
    });
}

async function createKey(name: string, trees: string | undefined, tenant: string | null): Promise<number> {
  let grants;
  try {
    grants = trees === undefined ? undefined : parseTrees(trees);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const config = loadConfig();
  return withTable(config, async ({ doc, client }) => {
    await ensureTable(client, config.table);
    const created = await createApiKey(doc, config.table, name, {
      ...(grants ? { trees: grants } : {}),
      ...(tenant ? { tenant } : {}),
    });
    const named = created.name ? ` (${created.name})` : '';
    console.log(`API key ${created.id}${named} created; it is shown once, keep it now:`);
    console.log(created.key);
    return 0;
  });
}

async function listKeys(): Promise<number> {
  const config = loadConfig();
  return withTable(config, async ({ doc }) => {
    const listed = await listApiKeys(doc, config.table);
    for (const key of listed) {
      const trees = key.trees
        ? Object.entries(key.trees)
            .map(([root, level]) => `${root}=${level}`)
            .join(',')
        : '*=admin';
      const tenant = key.tenant ? `tenant ${key.tenant}  ` : '';
      const state = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
      console.log(`${key.id}  ${key.name || '-'}  ${tenant}${trees}  created ${key.createdAt}  ${state}`);
    }
    if (listed.length === 0) console.log('no API keys');
    return 0;
  });
}

async function revokeKey(id: string): Promise<number> {
  const config = loadConfig();
  return withTable(config, async ({ doc }) => {
    try {
      const revoked = await revokeApiKey(doc, config.table, id);
      console.log(`API key ${revoked.id} revoked at ${revoked.revokedAt}`);
      return 0;
    } catch (error) {
      if (!isTreeError(error, 'NOT_FOUND')) throw error;
      console.error(`no API key ${id}`);
      return 1;
    }
  });
}
