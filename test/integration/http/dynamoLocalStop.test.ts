import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { QUICK_START_JAVA_OPTIONS, startDynamoLocal } from '../../../src/dynamodb/dynamoLocal.js';
import { freePort } from '../../support/globalSetup.js';
import { isJava, processTable } from '../../support/npmStart.js';

/** This port's Java, as `ps` lists it. */
const javaOnPort = (port: number) => processTable().filter((row) => isJava(row) && row.args.includes(`-port ${port} `));

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
    // Java's quick-start options: it serves nothing here, and starts for a fraction of the CPU.
    const local = await startDynamoLocal({ port, stopGraceMs: 300, javaOptions: QUICK_START_JAVA_OPTIONS });
    const [java] = javaOnPort(port);
    expect(java).toBeDefined();
    process.kill(java!.pid, 'SIGSTOP');
    await local.stop();
    expect(processState(java!.pid)).toBe('');
    expect(javaOnPort(port)).toEqual([]);
  }, 30_000);
});
