import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { checkBeforeStart, listenProblem, portProblems } from './checkBeforeStart.js';

/** A port held by a real listening socket on 127.0.0.1, as another program would hold it. */
let squatter: Server;
let taken: number;

beforeAll(async () => {
  squatter = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  taken = (squatter.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => squatter.close(() => resolve())));

const ENDPOINT = { DYNAMODB_ENDPOINT: 'http://localhost:8000' };

describe('checkBeforeStart', () => {
  it('tries a port by listening on it, and lets it go', async () => {
    expect(await listenProblem('127.0.0.1', taken)).toBe('EADDRINUSE');
    const free = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    expect(await listenProblem('127.0.0.1', free)).toBeUndefined();
    // Let go: it can be had again.
    expect(await listenProblem('127.0.0.1', free)).toBeUndefined();
  });

  it('names PORT when the server port is taken; PORT=0 always passes', async () => {
    expect(await portProblems(loadConfig({ ...ENDPOINT, PORT: String(taken) }))).toEqual([
      `PORT: port ${taken} is already in use on 127.0.0.1 (by another npm start, or another server?); ` +
        'stop what holds it, or set PORT to a free port',
    ]);
    expect(await portProblems(loadConfig({ ...ENDPOINT, PORT: '0' }))).toEqual([]);
  });

  it('names DYNAMODB_LOCAL_PORT when the embedded DynamoDB Local would start on a taken port, only then', async () => {
    expect(await portProblems(loadConfig({ PORT: '0', DYNAMODB_LOCAL_PORT: String(taken) }))).toEqual([
      `DYNAMODB_LOCAL_PORT: port ${taken} is already in use on 127.0.0.1 (by another npm start, or ` +
        'another DynamoDB Local?); stop what holds it, or set DYNAMODB_LOCAL_PORT to a free port; ' +
        `or, if it is a DynamoDB Local, use it: DYNAMODB_ENDPOINT=http://localhost:${taken}`,
    ]);
    expect(await portProblems(loadConfig({ ...ENDPOINT, PORT: '0', DYNAMODB_LOCAL_PORT: String(taken) }))).toEqual([]);
  });

  it('refuses one port for both, and a HOST that is no address of this machine (once)', async () => {
    expect(await portProblems(loadConfig({ PORT: '4321', DYNAMODB_LOCAL_PORT: '4321' }))).toEqual([
      'PORT and DYNAMODB_LOCAL_PORT are both 4321: the server and the embedded DynamoDB Local need a port ' +
        'each; set one of them to another port',
    ]);
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of a machine.
    expect(await portProblems(loadConfig({ HOST: '192.0.2.1', PORT: '4321', DYNAMODB_LOCAL_PORT: '8321' }))).toEqual([
      'HOST: 192.0.2.1 is no address of this machine, so nothing can listen on it; set HOST to one of its ' +
        'addresses, or 0.0.0.0 for all',
    ]);
  });

  it("lists the ports' problems with production's, every one at once, as a ConfigError", async () => {
    const config = loadConfig({ ...ENDPOINT, NODE_ENV: 'production', AUTH: 'none', PORT: String(taken) });
    const refusal = await checkBeforeStart(config).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).problems).toEqual([
      expect.stringMatching(/^CURSOR_SECRET must be set with NODE_ENV=production/),
      expect.stringMatching(new RegExp(`^PORT: port ${taken} is already in use`)),
    ]);
    expect((refusal as Error).message).toMatch(/^invalid configuration:\n {2}- CURSOR_SECRET .*\n {2}- PORT: /);
    await expect(checkBeforeStart(loadConfig({ ...ENDPOINT, PORT: '0' }))).resolves.toBeUndefined();
  });
});
