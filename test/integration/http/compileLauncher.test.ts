import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileLauncher, LAUNCHER_CLASS } from '../../../src/dynamodb/compileLauncher.js';
import { bundledJarDir } from '../../../src/dynamodb/dynamoLocal.js';

/** The launcher that binds the embedded DynamoDB Local to HOST, compiled into a fresh TMPDIR. */
describe('compileLauncher', () => {
  const saved = { TMPDIR: process.env.TMPDIR, PATH: process.env.PATH };
  let scratch: string;
  const jar = join(bundledJarDir(), 'DynamoDBLocal.jar');

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'canopy-launcher-'));
    process.env.TMPDIR = scratch;
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it('compiles once, against the bundled jar, and then reuses the class', async () => {
    const first = await compileLauncher(jar);
    expect('dir' in first && existsSync(join(first.dir, `${LAUNCHER_CLASS}.class`))).toBe(true);
    process.env.PATH = scratch; // no javac any more: the compiled class is enough
    expect(await compileLauncher(jar)).toEqual(first);
  });

  it('says why when there is no javac, so that the caller can warn', async () => {
    process.env.PATH = scratch;
    expect(await compileLauncher(jar)).toEqual({ problem: 'no javac on PATH' });
  });
});
