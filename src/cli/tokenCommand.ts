import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { signDevToken } from '../auth/devToken.js';
import { hoursOption, tenantOption } from './options.js';

/** `token [--sub NAME] [--hours N] [--tenant T]`: a development JWT; touches no table. */
export function tokenCommand(tree: Command): void {
  tree
    .command('token')
    .summary('print a development token for AUTH=jwt with JWT_SECRET')
    .usage('npm run -s tree -- token [--sub NAME] [--hours N] [--tenant T]')
    .description(
      [
        'Prints a JWT that this configuration (AUTH=jwt with JWT_SECRET, and JWT_ISSUER/JWT_AUDIENCE',
        'when set) accepts: subject NAME (default "developer"), valid for N hours (default 8), in',
        'tenant T (the TENANT_CLAIM claim; default: the default tenant). For development tools: the',
        "example app (VITE_CANOPY_TOKEN), curl, GraphiQL's Headers tab. With JWT_JWKS_URL, tokens come",
        'from your identity provider instead. Touches no table.',
      ].join('\n'),
    )
    .option('--sub <name>')
    .option('--hours <n>')
    .option('--tenant <tenant>')
    .action(async (options: { sub?: string; hours?: string; tenant?: string }) => {
      const tenant = tenantOption(options.tenant);
      const config = loadConfig();
      const hours = hoursOption(options.hours);
      try {
        console.log(await signDevToken(config.auth, options.sub ?? 'developer', hours, tenant ?? undefined));
        process.exitCode = 0;
      } catch (error) {
        console.error(error instanceof Error ? error.message : error);
        process.exitCode = 2;
      }
    });
}
