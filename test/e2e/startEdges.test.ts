import { spawn, execFileSync } from 'node:child_process';
import { SignJWT } from 'jose';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/globalSetup.js';
import { uniqueTable } from '../support/server.js';
import { outsideAddress, reaches } from '../support/network.js';
import {
  REPO_ROOT,
  START_TIMEOUT_MS,
  STOP_TIMEOUT_MS,
  freshDataDir,
  spawnStart,
  waitUntil,
  startReady,
  stop,
  javaFor,
  serverNodeFor,
  expectNoJavaWithin,
  expectGroupGoneWithin,
  kill,
  killAllLeftovers,
  killTestLeftovers,
} from '../support/npmStart.js';

/**
 * The rest of `npm start`'s life (the long suite, `npm run test:long`): the production build
 * served by node alone, a DynamoDB Local that dies under the server, and stops before the server
 * is ready, none leaving a Java process behind.
 */

afterEach(killTestLeftovers);
afterAll(killAllLeftovers);

/** JWT_SECRET of the production-build server. */
const SECRET = 'a-production-secret-of-32-bytes-or-more';

describe('npm start, built or ended', () => {
  it('runs from the production build (npm run build, then node dist/src/main.js)', { timeout: 180_000 }, async () => {
    execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'ignore' });
    const port = await freePort();
    // Production never starts the embedded DynamoDB Local: the test run's, as a DynamoDB endpoint.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      DYNAMODB_TABLE: uniqueTable(),
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      AUTH: 'jwt',
      JWT_SECRET: SECRET,
      CURSOR_SECRET: 'a-cursor-secret',
    };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await waitUntil(
        'the built server to be ready',
        () => /"msg":"Canopy \S+ ready at /.test(output),
        START_TIMEOUT_MS,
      );
      const query = JSON.stringify({ query: '{ node(id: "catalog") { id depth } }' });
      const token = await new SignJWT({ sub: 'ops', exp: Math.floor(Date.now() / 1000) + 60 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET));
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: query,
      });
      expect(await response.json()).toMatchObject({ data: { node: { id: 'catalog', depth: 0 } } });
      const anonymous = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: query,
      });
      expect(anonymous.status).toBe(401);
      // HOST=0.0.0.0 (a container's setting): it listens on every interface.
      if (outsideAddress) expect(await reaches(outsideAddress, port)).toBe(true);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('says so and stops when its DynamoDB Local dies', async () => {
    const started = await startReady(freshDataDir());
    execFileSync('pkill', ['-KILL', '-f', `^java .* -port ${started.dynamoPort} `]);
    const { code } = await started.exited;
    expect(code).toBe(1);
    expect(started.output()).toMatch(/DynamoDB Local exited unexpectedly/);
  });
});

describe('npm start, stopped before it is ready', () => {
  it(
    'leaves no java after a SIGTERM 1.5 s after spawn',
    async () => {
      const started = await spawnStart(freshDataDir());
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await stop(started, 'SIGTERM');
      await expectGroupGoneWithin(started, 5_000);
      await expectNoJavaWithin(started.dataDir, 5_000);
    },
    START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );

  it(
    'leaves no java after a SIGTERM while DynamoDB Local starts',
    async () => {
      const started = await spawnStart(freshDataDir());
      await waitUntil('java to start', () => javaFor(started.dataDir).length > 0, START_TIMEOUT_MS, started);
      await stop(started, 'SIGTERM');
      await expectGroupGoneWithin(started, 5_000);
      await expectNoJavaWithin(started.dataDir, 5_000);
    },
    START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );

  it(
    'leaves no java after a SIGKILL of the server process while it starts',
    async () => {
      const started = await spawnStart(freshDataDir());
      await waitUntil('java to start', () => serverNodeFor(started.dataDir) !== undefined, START_TIMEOUT_MS, started);
      const node = serverNodeFor(started.dataDir);
      expect(node).toBeDefined();
      kill(node!.pid, 'SIGKILL');
      // Java stops as it does on SIGTERM, which takes longer while it is still starting on a
      // loaded machine (the rest of the suite runs beside it).
      await expectNoJavaWithin(started.dataDir, 15_000);
      await expectGroupGoneWithin(started, 5_000);
    },
    START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );
});
