import { QUERIES } from './queries.js';

/** What the example started, for its welcome. */
export interface Started {
  gatewayUrl: string;
  canopy: { url: string; strategy: string; table: string };
  /** DynamoDB Local's host:port. */
  dynamodb: string;
  dataDir: string;
}

/** The text as one shell word: single-quoted, each quote inside written '\\''. */
const shellQuoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * Pure. The welcome the example prints once it is ready: where each part listens, the queries to
 * try with curl, and the ways to explore in a browser: Apollo Sandbox for the supergraph (online),
 * Canopy's own GraphiQL for its subgraph (offline).
 */
export function welcomeText({ gatewayUrl, canopy, dynamodb, dataDir }: Started): string {
  const lines = [
    `Supergraph gateway ready at ${gatewayUrl}`,
    `Canopy at ${canopy.url} (strategy ${canopy.strategy}, SCHEMA_PREFIX=Tree, FEDERATION=true), ` +
      `table ${canopy.table} on DynamoDB Local at ${dynamodb}, files in ${dataDir}`,
    '',
    'In a browser: the supergraph in Apollo Sandbox (open the gateway URL; it loads from the internet), or,',
    `offline, Canopy's own GraphiQL at ${canopy.url} (Canopy's subgraph alone, without its neighbours' fields).`,
    '',
    'Queries to try with curl, offline:',
    ...Object.entries(QUERIES).flatMap(([name, { title, query }]) => [
      '',
      `# (${name}) ${title}`,
      `curl -s ${gatewayUrl} -H 'content-type: application/json' -d ${shellQuoted(JSON.stringify({ query }))}`,
    ]),
    '',
    'Ctrl-C stops it.',
  ];
  return `${lines.join('\n')}\n`;
}
