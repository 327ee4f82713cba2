import { describe, expect, it } from 'vitest';
import { supergraphPorts } from '../../examples/supergraph/ports.js';
import { QUERIES } from '../../examples/supergraph/queries.js';
import { welcomeText } from '../../examples/supergraph/welcome.js';

/**
 * `npm run example:supergraph`: its ports from the environment, and what it prints once ready
 * (examples/supergraph/README.md).
 */
describe('the example supergraph', () => {
  it('listens on 4200 to 4204 and 8200, or wherever GATEWAY_PORT moves them', () => {
    const defaults = { gateway: 4200, canopy: 4201, builds: 4202, catalogue: 4203, accounts: 4204, dynamodb: 8200 };
    expect(supergraphPorts(undefined)).toEqual(defaults);
    expect(supergraphPorts('')).toEqual(defaults);
    expect(supergraphPorts('4300')).toEqual({
      gateway: 4300,
      canopy: 4301,
      builds: 4302,
      catalogue: 4303,
      accounts: 4304,
      dynamodb: 8300,
    });
    expect(supergraphPorts('61535').dynamodb).toBe(65535);
    for (const bad of ['42a', '0', '61536', '-1', '4300.5', ' 4300'])
      expect(() => supergraphPorts(bad)).toThrow(
        `GATEWAY_PORT must be a port number from 1 to 61535 (the example also listens on the four ports after it, ` +
          `and on the one 4000 above it), got ${JSON.stringify(bad)}`,
      );
  });

  it('prints where it listens, an offline way to explore it beside Apollo Sandbox, and curl lines', () => {
    const text = welcomeText({
      gatewayUrl: 'http://127.0.0.1:4300/',
      canopy: { url: 'http://127.0.0.1:4301/graphql', strategy: 'closure', table: 'supergraph-closure' },
      dynamodb: '127.0.0.1:8300',
      dataDir: '.data/supergraph',
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe('Supergraph gateway ready at http://127.0.0.1:4300/');
    expect(lines[1]).toBe(
      'Canopy at http://127.0.0.1:4301/graphql (strategy closure, SCHEMA_PREFIX=Tree, FEDERATION=true), ' +
        'table supergraph-closure on DynamoDB Local at 127.0.0.1:8300, files in .data/supergraph',
    );
    expect(text).toContain('Apollo Sandbox (open the gateway URL; it loads from the internet)');
    expect(text).toContain("offline, Canopy's own GraphiQL at http://127.0.0.1:4301/graphql");
    expect(text).toContain('Queries to try with curl, offline:');
    const curls = lines.filter((line) => line.startsWith('curl '));
    expect(curls).toHaveLength(Object.keys(QUERIES).length);
    for (const curl of curls) expect(curl).toMatch(/^curl -s http:\/\/127\.0\.0\.1:4300\/ /);
    expect(text.endsWith('Ctrl-C stops it.\n')).toBe(true);
  });
});
