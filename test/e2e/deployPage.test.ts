import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/npmStart.js';

/**
 * The commands of docs/deploy.md that run without an AWS account, run as the page writes them:
 * the template's synthesis with cdk-nag's checks, and a token made with a JWT secret.
 */
const page = readFileSync(`${REPO_ROOT}docs/deploy.md`, 'utf8');
const sh = promisify(execFile);
const run = (command: string, env: NodeJS.ProcessEnv = {}) =>
  sh('/bin/sh', ['-c', command], { cwd: REPO_ROOT, env: { ...process.env, ...env }, maxBuffer: 1 << 24 });

describe('docs/deploy.md, offline', () => {
  afterAll(() => rmSync(`${REPO_ROOT}cdk.out`, { recursive: true, force: true }));

  it('synthesizes the stack it shows, cdk-nag passing', async () => {
    const command = 'AWS_REGION=eu-west-1 npx cdk synth -q -c tasks=3 -c jobRunner=worker';
    expect(page).toContain(command);
    await run(command);
    const template = JSON.parse(readFileSync(`${REPO_ROOT}cdk.out/Canopy.template.json`, 'utf8')) as {
      Resources: Record<string, { Type: string }>;
    };
    const types = Object.values(template.Resources).map((r) => r.Type);
    expect(types).toEqual(
      expect.arrayContaining(['AWS::DynamoDB::Table', 'AWS::ECS::Service', 'AWS::Lambda::Function']),
    );
    // The app runs cdk-nag's AwsSolutions pack; a finding would have failed the synthesis.
    expect(readFileSync(`${REPO_ROOT}infra/app.ts`, 'utf8')).toContain('addPlugins(new AwsSolutionsChecks(app');
    const report = JSON.parse(readFileSync(`${REPO_ROOT}cdk.out/validation-report.json`, 'utf8')) as {
      pluginReports: Array<{ conclusion: string }>;
    };
    expect(report.pluginReports.filter((r) => r.conclusion !== 'success')).toEqual([]);
    expect(existsSync(`${REPO_ROOT}cdk.out/manifest.json`)).toBe(true);
  }, 180_000);

  it('makes the token of its first query from the secret', async () => {
    const command = 'AUTH=jwt npm run -s tree -- token --hours 1';
    expect(page).toContain(`TOKEN=$(${command})`);
    const { stdout } = await run(command, { JWT_SECRET: 'a generated secret of forty-eight characters ok!' });
    expect(stdout.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  }, 60_000);

  // The deploy builds the image with Docker; this machine may have no engine.
  const engine = spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;
  it.runIf(engine)(
    'builds the image the stack deploys: its user, command and health check',
    async () => {
      await run('docker build -q -t canopy:deploy-page-test .');
      try {
        const { stdout } = await run("docker image inspect canopy:deploy-page-test --format '{{json .Config}}'");
        const config = JSON.parse(stdout) as { User: string; Cmd: string[]; Healthcheck: { Test: string[] } };
        expect(config.User).toBe('node');
        expect(config.Cmd).toEqual(['node', '--max-semi-space-size=128', 'dist/src/main.js']);
        expect(config.Healthcheck.Test.join(' ')).toContain('/readyz');
      } finally {
        await run('docker image rm -f canopy:deploy-page-test');
      }
    },
    900_000,
  );
});
