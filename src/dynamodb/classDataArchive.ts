import { execFile } from 'node:child_process';
import { randomBytes, createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { launcherJar } from './launcherJar.js';
import { processAlive } from './processAlive.js';

/**
 * Java's class-data sharing for the embedded DynamoDB Local (Java 17's dynamic AppCDS): the
 * classes it loads to start, parsed and verified once, kept in an archive that later starts map
 * instead of reading them from the jars again. About 50 MB in `cacheDir`, beside the jar it was
 * recorded with (launcherJar.ts), named after that jar and the `java` on PATH: another release
 * or another Java records its own.
 *
 * Without an archive, Java records one when it exits (-XX:ArchiveClassesAtExit: a few seconds
 * more at the stop), into a file of its own that `settle` renames into place only when Java had
 * started and then stopped in order (exit codes 0, 129, 130, 143: Java's own exit after a
 * signal). A Java killed while writing leaves a partial file, which Java would crash on: it is
 * removed, here or, when this process died first, by the next start.
 */
export interface ClassDataArchive {
  /** The jar to run: DynamoDB Local's classes and the launcher's (launcherJar.ts). */
  jar: string;
  /** Java's options: use the archive, or record one when Java exits. */
  options: string[];
  /** True when Java runs with an archive recorded before: `discard` it if Java then fails to start. */
  using: boolean;
  /** Once Java has exited: keeps the archive it recorded when it had `started` and exited in order. */
  settle(started: boolean, code: number | null): void;
  /** Removes the archive in use (Java could not start with it); the next start records another. */
  discard(): void;
}

/** Exit codes of a Java that ran its shutdown, archive included: normal exit, SIGHUP, SIGINT, SIGTERM. */
const ORDERLY_EXIT = new Set([0, 129, 130, 143]);

/**
 * Undefined when there is no jar to record with (no `jar` tool), no `java` on PATH, or no
 * `cacheDir` to write in (a read-only node_modules): Java then starts as it comes.
 */
export async function classDataArchive(
  cacheDir: string,
  releaseDir: string,
  launcherDir: string,
): Promise<ClassDataArchive | undefined> {
  const java = await javaOnPath();
  const jar = java && (await launcherJar(cacheDir, releaseDir, launcherDir).catch(() => undefined));
  if (!java || !jar) return undefined;
  const { size, mtimeMs } = statSync(jar);
  const digest = createHash('sha256')
    .update(JSON.stringify([jar, size, mtimeMs, java]))
    .digest('hex')
    .slice(0, 12);
  const archive = join(cacheDir, `dynamodb-local-${digest}.jsa`);
  quietly(() => removeAbandoned(cacheDir));
  if (existsSync(archive)) {
    return {
      jar,
      options: [`-XX:SharedArchiveFile=${archive}`],
      using: true,
      settle: () => {},
      discard: () => quietly(() => rmSync(archive, { force: true })),
    };
  }
  const partial = `${archive}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  return {
    jar,
    // The recording's notes (classes it leaves out) would fill DynamoDB Local's output.
    options: [`-XX:ArchiveClassesAtExit=${partial}`, '-Xlog:cds*=off'],
    using: false,
    settle(started, code) {
      quietly(() => {
        if (started && code !== null && ORDERLY_EXIT.has(code) && existsSync(partial)) {
          flush(partial);
          renameSync(partial, archive);
        }
      });
      quietly(() => rmSync(partial, { force: true }));
    },
    discard: () => {},
  };
}

/** The `java` that the watchdog's shell runs, by its real path, size and time: another Java, another archive. */
async function javaOnPath(): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)('sh', ['-c', 'command -v java']);
    const java = realpathSync(stdout.trim());
    const { size, mtimeMs } = statSync(java);
    return `${java}:${size}:${mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** Runs `work`, and lets it fail: the archive is a cache, and without it the next start records another. */
function quietly(work: () => void): void {
  try {
    work();
  } catch {
    // nothing kept, nothing lost
  }
}

/** Writes the file's data to the disk, so that a crash after the rename cannot leave a partial archive. */
function flush(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Removes the partial archives of processes that died before they settled them. */
function removeAbandoned(cacheDir: string): void {
  for (const name of readdirSync(cacheDir)) {
    const pid = /\.jsa\.(\d+)-[0-9a-f]+\.tmp$/.exec(name)?.[1];
    if (pid !== undefined && !processAlive(Number(pid))) rmSync(join(cacheDir, name), { force: true });
  }
}
