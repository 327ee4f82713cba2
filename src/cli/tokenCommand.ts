import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { signDevToken } from '../auth/devToken.js';
import { parseTrees } from '../auth/apiKeys.js';
import { hoursOption, tenantOption, UsageError } from './options.js';

/** `token [--sub NAME] [--hours N] [--tenant T] [--trees SPEC] [--groups G,...]`: a development JWT. */
export function tokenCommand(tree: Command): void {
  tree
    .command('token')
    .summary('print a development token for AUTH=jwt with JWT_SECRET')
    .usage("npm run -s tree -- token [--sub NAME] [--hours N] [--tenant T] [--trees 'ROOT=level,...'] [--groups G,...]")
    .description(
      [
        'Prints a JWT that this configuration (AUTH=jwt with JWT_SECRET, and JWT_ISSUER/JWT_AUDIENCE',
        'when set) accepts: subject NAME (default "developer"), valid for N hours (default 8), in',
        'tenant T (the TENANT_CLAIM claim; default: the default tenant). For development tools: the',
        "example app (VITE_CANOPY_TOKEN), curl, GraphiQL's Headers tab. With JWT_JWKS_URL, tokens come",
        'from your identity provider instead. --trees limits it to some trees as keys create does',
        "(--trees '' gives nothing on whole trees: only the grants on subtrees its subject and groups",
        'hold); --groups names its groups (the GROUPS_CLAIM claim). Touches no table.',
      ].join('\n'),
    )
    .option('--sub <name>')
    .option('--hours <n>')
    .option('--tenant <tenant>')
    .option('--trees <grants>')
    .option('--groups <groups>')
    .action(async (options: TokenOptions) => {
      const tenant = tenantOption(options.tenant);
      const config = loadConfig();
      const hours = hoursOption(options.hours);
      const limits = limitsOf(options);
      try {
        console.log(await signDevToken(config.auth, options.sub ?? 'developer', hours, tenant ?? undefined, limits));
        process.exitCode = 0;
      } catch (error) {
        console.error(error instanceof Error ? error.message : error);
        process.exitCode = 2;
      }
    });
}

interface TokenOptions {
  sub?: string;
  hours?: string;
  tenant?: string;
  trees?: string;
  groups?: string;
}

/** The token's trees and groups claims, from --trees and --groups (a usage error when malformed). */
function limitsOf(options: TokenOptions): { trees?: Record<string, string>; groups?: string[] } {
  try {
    return {
      ...(options.trees === undefined ? {} : { trees: parseTrees(options.trees) }),
      ...(options.groups === undefined
        ? {}
        : {
            groups: options.groups
              .split(',')
              .map((g) => g.trim())
              .filter(Boolean),
          }),
    };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
