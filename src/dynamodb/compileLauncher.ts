import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'BoundDynamoDBLocal.java');

/** The launcher's class name: `java -cp <dir>:<jar> BoundDynamoDBLocal HOST ...options`. */
export const LAUNCHER_CLASS = 'BoundDynamoDBLocal';

/** The line the launcher prints once DynamoDB Local listens: its own Java bound the port, no other program. */
export const LAUNCHER_LISTENING = 'BoundDynamoDBLocal: listening';

/**
 * The directory of the compiled launcher that binds DynamoDB Local to one address, compiled by
 * `javac` once per jar release and launcher source into the system's temporary directory; or
 * why it could not be (no `javac`: a Java runtime without its development kit).
 */
export async function compileLauncher(jar: string): Promise<{ dir: string } | { problem: string }> {
  const source = readFileSync(SOURCE);
  const digest = createHash('sha256').update(source).update(jar).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `canopy-dynamodb-local-launcher-${digest}`);
  if (existsSync(join(dir, `${LAUNCHER_CLASS}.class`))) return { dir };
  // Compiled beside, then renamed into place: a concurrent start never sees half a class.
  const scratch = mkdtempSync(join(tmpdir(), `${basename(dir)}-`));
  try {
    await promisify(execFile)('javac', ['-nowarn', '-cp', jar, '-d', scratch, SOURCE]);
    renameSync(scratch, dir);
    return { dir };
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    if (existsSync(join(dir, `${LAUNCHER_CLASS}.class`))) return { dir };
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    return {
      problem: failure.code === 'ENOENT' ? 'no javac on PATH' : `javac failed: ${failure.stderr ?? failure.message}`,
    };
  }
}
