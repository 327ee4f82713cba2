import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES } from '../../src/configVariables.js';

const repoFile = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));

/** The AWS SDK's own variables: not Canopy configuration, but the SDK needs credentials. */
const AWS_CREDENTIALS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'];

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  volumes?: Array<string | { source?: string; target?: string }>;
}

const compose = parse(readFileSync(repoFile('docker-compose.yml'), 'utf8')) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};

function environmentOf(service: ComposeService): Record<string, string> {
  const environment = service.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(
      environment.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, String(value ?? '')]));
}

const dynamodb = compose.services.dynamodb;
const server = Object.values(compose.services).find((service) => service.build !== undefined);

describe('docker-compose.yml', () => {
  it('runs Amazon DynamoDB Local, a pinned release, with its files on a volume', () => {
    expect(dynamodb).toBeDefined();
    // A version tag, never `latest` or none: the same DynamoDB Local on every machine.
    expect(dynamodb?.image).toMatch(/^amazon\/dynamodb-local:\d+\.\d+\.\d+$/);
    const command = Array.isArray(dynamodb?.command) ? dynamodb.command.join(' ') : (dynamodb?.command ?? '');
    expect(command).toContain('-sharedDb');
    expect(command).toContain('-dbPath');
    expect(dynamodb?.volumes?.length).toBeGreaterThan(0);
  });

  it('builds the server from the Dockerfile', () => {
    expect(server).toBeDefined();
    expect(existsSync(repoFile('Dockerfile'))).toBe(true);
  });

  it('configures the server only with documented variables', () => {
    const allowed = new Set<string>([...CONFIG_VARIABLES, ...AWS_CREDENTIALS]);
    const names = Object.keys(environmentOf(server ?? {}));
    expect(names.filter((name) => !allowed.has(name))).toEqual([]);
    for (const name of AWS_CREDENTIALS) expect(names).toContain(name);
  });

  it('serves a GraphiQL that can load the schema, although the image runs in production', () => {
    // NODE_ENV=production (the Dockerfile) turns both off by default; GraphiQL without
    // introspection opens with no schema and no docs.
    const environment = environmentOf(server ?? {});
    expect(environment.GRAPHIQL).toBe('true');
    expect(environment.INTROSPECTION).toBe('true');
  });

  it('points the server at the dynamodb service by its compose name and port', () => {
    const endpoint = new URL(environmentOf(server ?? {}).DYNAMODB_ENDPOINT ?? 'http://unset');
    expect(endpoint.hostname).toBe('dynamodb');
    // The container port: DynamoDB Local listens on 8000 unless its command says otherwise.
    const command = Array.isArray(dynamodb?.command) ? dynamodb.command.join(' ') : (dynamodb?.command ?? '');
    const port = /-port\s+(\d+)/.exec(command)?.[1] ?? '8000';
    expect(endpoint.port).toBe(port);
  });
});

describe('configuration variables', () => {
  /** The first cells of a file's configuration table: the one whose header starts `| variable |`. */
  const variablesIn = (file: string): string[] => {
    const lines = readFileSync(repoFile(file), 'utf8').split('\n');
    const header = lines.findIndex((line) => /^\|\s*variable\s*\|/.test(line));
    expect(header, `${file} has a configuration table`).toBeGreaterThanOrEqual(0);
    const rows = [];
    for (let i = header + 2; lines[i]?.trimStart().startsWith('|'); i++) rows.push(lines[i]!);
    return rows.map(
      (row) =>
        row
          .split('|')[1]
          ?.trim()
          .replace(/^`(.*)`$/, '$1') ?? '',
    );
  };

  it('are each documented in the configuration table of README.md, and only they', () => {
    const documented = variablesIn('README.md');
    expect(
      CONFIG_VARIABLES.filter((name) => !documented.includes(name)),
      'variables with no row',
    ).toEqual([]);
    const listed = new Set<string>(CONFIG_VARIABLES);
    expect(
      documented.filter((name) => !listed.has(name)),
      'rows for variables config.ts does not read',
    ).toEqual([]);
  });
});
