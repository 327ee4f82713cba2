import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startDynamoLocal } from '../../../src/dynamodb/dynamoLocal.js';
import { freePort } from '../../support/globalSetup.js';

/** The rows of `ps` for this port's Java: its pid and state (Z: dead, not yet reaped). */
function javaOnPort(port: number): { pid: number; state: string }[] {
  const rows = execFileSync('ps', ['-ww', '-eo', 'pid=,stat=,args='], { encoding: 'utf8' }).split('\n');
  return rows
    .map((line) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .filter((match) => /^(\S*\/)?java\s/.test(match[3] ?? '') && match[3]!.includes(`-port ${port} `))
    .map((match) => ({ pid: Number(match[1]), state: match[2] ?? '' }));
}

function processState(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return ''; // ps exits 1: no such process
  }
}

/**
 * A stop that Java does not answer in time (here: Java stopped by SIGSTOP) kills Java, and its
 * watchdog reaps it: nothing is left, not even a dead entry for an adopter of orphans to reap.
 */
describe('DynamoDB Local stop', () => {
  it('kills a Java that does not end within the grace, and leaves no process behind', async () => {
    const port = await freePort();
    const local = await startDynamoLocal({ port, stopGraceMs: 300 });
    const [java] = javaOnPort(port);
    expect(java).toBeDefined();
    process.kill(java!.pid, 'SIGSTOP');
    await local.stop();
    expect(processState(java!.pid)).toBe('');
    expect(javaOnPort(port)).toEqual([]);
  }, 30_000);
});
