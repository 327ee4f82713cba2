import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './globalSetup.js';
import { reaches } from './network.js';

/** Whether redis-server is on PATH (`.ci/run` installs Debian's when it is missing). */
export const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** A real redis-server of its own, on a free port, keeping nothing on disk. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (await reaches('127.0.0.1', port)) break;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
