import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { LAUNCHER_CLASS } from './compileLauncher.js';

/**
 * DynamoDB Local's jar and the launcher's class in one jar that Java's class-data sharing can
 * record (classDataArchive.ts), in `cacheDir`; undefined when it cannot be built (no `jar` tool:
 * a Java runtime without its development kit), and Java then starts as it did.
 *
 * Why a copy: the jar's manifest puts its own folder (`.`) on the class path, and Java refuses to
 * record an archive of a class path holding a folder that is not empty ("Cannot have non-empty
 * directory in paths"; the launcher's folder is one too). The copy's manifest names the same
 * library jars (DynamoDBLocal_lib/*.jar in name order, as the original lists them after `.`, a
 * log4j2.xml that is not there, and native libraries, which are no classes), relative to the
 * copy. Nothing else changes: the same classes, the same options, the same files in DATA_DIR.
 *
 * Built once per release and launcher (its name says which), by the JDK's `jar` tool, beside,
 * then linked into place: a concurrent start never sees half a jar, and a jar in place is never
 * replaced (an archive recorded with it names its size and time).
 */
export async function launcherJar(
  cacheDir: string,
  releaseDir: string,
  launcherDir: string,
): Promise<string | undefined> {
  const original = join(releaseDir, 'DynamoDBLocal.jar');
  const { size, mtimeMs } = statSync(original);
  const digest = createHash('sha256')
    .update(JSON.stringify([releaseDir, size, mtimeMs, basename(launcherDir)]))
    .digest('hex')
    .slice(0, 12);
  const jar = join(cacheDir, `dynamodb-local-${digest}.jar`);
  if (existsSync(jar)) return jar;
  mkdirSync(cacheDir, { recursive: true });
  const scratch = mkdtempSync(join(cacheDir, `${basename(jar)}-`));
  try {
    const copy = join(scratch, basename(jar));
    copyFileSync(original, copy);
    const libraries = join(releaseDir, 'DynamoDBLocal_lib');
    const jars = readdirSync(libraries)
      .filter((name) => name.endsWith('.jar'))
      .sort()
      .map((name) => urlPath(relative(cacheDir, join(libraries, name))));
    writeFileSync(join(scratch, 'manifest.txt'), manifestLines(`Class-Path: ${jars.join(' ')}`));
    const args = ['--update', '--file', copy, '--manifest', join(scratch, 'manifest.txt')];
    await promisify(execFile)('jar', [...args, '-C', launcherDir, `${LAUNCHER_CLASS}.class`]);
    linkSync(copy, jar);
    return jar;
  } catch {
    return existsSync(jar) ? jar : undefined;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A relative file path as a manifest's relative URL: `/` between segments, each one encoded. */
function urlPath(path: string): string {
  return path.split(sep).map(encodeURIComponent).join('/');
}

/**
 * A manifest attribute in lines of at most 72 bytes (the jar format's limit), each continuation
 * starting with a space. The text is ASCII (urlPath encodes the rest).
 */
export function manifestLines(attribute: string): string {
  const lines = [attribute.slice(0, 70)];
  for (let at = 70; at < attribute.length; at += 69) lines.push(` ${attribute.slice(at, at + 69)}`);
  return `${lines.join('\n')}\n`;
}
