import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { CanopyStack, ROOT, type CanopyStackProps } from '../../infra/canopyStack.js';
import { CONFIG_VARIABLES } from '../../src/configVariables.js';
import {
  ACTIONS_OF_COMMAND,
  STREAM_COMMANDS,
  TABLE_ACTIONS,
  TABLE_SETUP_COMMANDS,
} from '../../src/dynamodb/iamActions.js';

/**
 * The deployable stack (infra/canopyStack.ts), synthesized offline: its table, its policies
 * (every DynamoDB action the code uses, on the table alone, no wildcard), its services, and
 * cdk-nag's AwsSolutions rules with no finding left unanswered. The Lambda's bundling and the
 * image's staging are skipped: they are deploy-time work.
 */
const TABLE = JSON.parse(readFileSync(posix.join(ROOT, 'schema/table.json'), 'utf8')) as {
  KeySchema: unknown[];
  TimeToLiveSpecification: { AttributeName: string };
  StreamSpecification: { StreamViewType: string };
};

const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/00000000-0000-0000-0000-000000000000';

interface Synthesized {
  stack: CanopyStack;
  template: Template;
  json: { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
}

function synth(props: CanopyStackProps): Synthesized {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], 'aws:cdk:disable-asset-staging': true } });
  const stack = new CanopyStack(app, 'Canopy', { env: { region: 'eu-west-1' }, ...props });
  const template = Template.fromStack(stack);
  return { stack, template, json: template.toJSON() as Synthesized['json'] };
}

const resourcesOf = (s: Synthesized, type: string) => Object.values(s.json.Resources).filter((r) => r.Type === type);

/** Every statement of every IAM policy in the template. */
const statementsOf = (s: Synthesized) =>
  resourcesOf(s, 'AWS::IAM::Policy').flatMap(
    (policy) =>
      (policy.Properties.PolicyDocument as { Statement: Array<{ Action: string | string[]; Resource: unknown }> })
        .Statement,
  );
const actionsOf = (statement: { Action: string | string[] }) => [statement.Action].flat();

/** The names of the environment variables of every container and function. */
const environmentNames = (s: Synthesized): string[] => [
  ...resourcesOf(s, 'AWS::ECS::TaskDefinition').flatMap((task) =>
    (
      task.Properties.ContainerDefinitions as Array<{
        Environment: Array<{ Name: string }>;
        Secrets: Array<{ Name: string }>;
      }>
    )
      .flatMap((container) => [...container.Environment, ...(container.Secrets ?? [])])
      .map((variable) => variable.Name),
  ),
  ...resourcesOf(s, 'AWS::Lambda::Function').flatMap((fn) =>
    Object.keys((fn.Properties.Environment as { Variables: Record<string, string> }).Variables),
  ),
];

describe('the deployable stack', () => {
  let full: Synthesized;
  let plain: Synthesized;
  beforeAll(() => {
    full = synth({ tasks: 3, jobRunner: 'worker', strategy: 'path', certificateArn: CERTIFICATE, serverless: true });
    plain = synth({ tasks: 1 });
  });

  it('makes the table of schema/table.json: its keys, on demand, its time to live, recoverable, protected', () => {
    full.template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: TABLE.KeySchema,
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TABLE.TimeToLiveSpecification.AttributeName, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      StreamSpecification: { StreamViewType: TABLE.StreamSpecification.StreamViewType },
    });
    full.template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
    // The stream only for the stream worker.
    plain.template.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: Match.absent() });
  });

  it('grants every DynamoDB action the code uses, on the table alone, and no wildcard action', () => {
    for (const s of [full, plain]) {
      const statements = statementsOf(s);
      expect(statements.flatMap(actionsOf).filter((action) => action.includes('*'))).toEqual([]);
      const table = statements.filter((st) => actionsOf(st).includes('dynamodb:Query'));
      expect(table.length).toBeGreaterThan(0);
      for (const statement of table) {
        expect(actionsOf(statement).sort()).toEqual([...TABLE_ACTIONS]);
        expect(statement.Resource).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'Arn'] });
      }
      // The table is the stack's: nothing creates or reshapes it at run time.
      const setup = TABLE_SETUP_COMMANDS.flatMap((command) => ACTIONS_OF_COMMAND[command]);
      expect(statements.flatMap(actionsOf).filter((action) => setup.includes(action as never))).toEqual([]);
    }
  });

  it('runs the API on Fargate behind a load balancer that checks /readyz, with Valkey past one task', () => {
    full.template.hasResourceProperties('AWS::ECS::Service', { DesiredCount: 3, LaunchType: 'FARGATE' });
    full.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', { HealthCheckPath: '/readyz' });
    full.template.hasResourceProperties('AWS::ElastiCache::ServerlessCache', { Engine: 'valkey' });
    expect(resourcesOf(plain, 'AWS::ElastiCache::ServerlessCache')).toEqual([]);
    expect(environmentNames(full)).toContain('PUBSUB_URL');
    expect(environmentNames(plain)).not.toContain('PUBSUB_URL');
  });

  it('answers HTTPS with a certificate (HTTP redirected), and tells its URL, table and secrets', () => {
    full.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', {
      Protocol: 'HTTPS',
      Certificates: [{ CertificateArn: CERTIFICATE }],
    });
    full.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', {
      Protocol: 'HTTP',
      DefaultActions: [Match.objectLike({ Type: 'redirect' })],
    });
    expect(Object.keys(full.template.toJSON().Outputs as object)).toEqual(
      expect.arrayContaining(['Url', 'TableName', 'CursorSecretArn', 'JwtSecretArn']),
    );
    plain.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', { Protocol: 'HTTP' });
  });

  it('serves queries and mutations from a Lambda behind an HTTP API when asked, with access logs', () => {
    full.template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /graphql' });
    full.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
    expect(Object.keys(full.template.toJSON().Outputs as object)).toContain('ServerlessUrl');
    expect(resourcesOf(plain, 'AWS::ApiGatewayV2::Api')).toEqual([]);
  });

  it('runs the stream worker on the table stream and every minute, under JOB_RUNNER=worker only', () => {
    full.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { StartingPosition: 'LATEST' });
    full.template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)' });
    expect(resourcesOf(plain, 'AWS::Lambda::Function')).toEqual([]);
    expect(resourcesOf(full, 'AWS::Lambda::EventSourceMapping')).toHaveLength(1);
  });

  it('configures the server with its own variables only, its secrets from Secrets Manager', () => {
    for (const s of [full, plain]) {
      const names = environmentNames(s);
      expect(names.filter((name) => !(CONFIG_VARIABLES as readonly string[]).includes(name))).toEqual([]);
      expect(names).toEqual(expect.arrayContaining(['NODE_ENV', 'AUTH', 'CURSOR_SECRET', 'DYNAMODB_TABLE']));
      expect(names).not.toContain('DYNAMODB_ENDPOINT');
    }
    expect(resourcesOf(full, 'AWS::SecretsManager::Secret')).toHaveLength(2);
  });

  it("passes cdk-nag's AwsSolutions rules, every finding answered beside its construct", () => {
    for (const s of [full, plain]) {
      const report = new AwsSolutionsChecks(s.stack).validateScope(s.stack);
      expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
    }
  });
});

describe('the DynamoDB permissions', () => {
  /** Every SDK command the code sends (`new QueryCommand(`), by file. */
  const commandsInCode = (): string[] => {
    const files = (dir: string): string[] =>
      readdirSync(posix.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? files(posix.join(dir, entry.name))
          : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
            ? [posix.join(dir, entry.name)]
            : [],
      );
    return files('src').flatMap((file) =>
      [...readFileSync(posix.join(ROOT, file), 'utf8').matchAll(/new (\w+Command)\(/g)].map((m) => m[1]!),
    );
  };

  it('name every command the code sends: one it does not name fails here', () => {
    const commands = new Set(commandsInCode());
    expect(commands).toContain('TransactWriteCommand');
    expect(commands).toContain('QueryCommand');
    const known = Object.keys(ACTIONS_OF_COMMAND);
    expect([...commands].filter((command) => !known.includes(command))).toEqual([]);
    // The table's actions are those of every command but the table's setup and the stream's tailing.
    const served = known.filter(
      (command) => !TABLE_SETUP_COMMANDS.includes(command as never) && !STREAM_COMMANDS.includes(command as never),
    );
    for (const command of served)
      expect(TABLE_ACTIONS).toEqual(
        expect.arrayContaining([...ACTIONS_OF_COMMAND[command as keyof typeof ACTIONS_OF_COMMAND]]),
      );
  });
});

describe('the Dockerfile', () => {
  const dockerfile = readFileSync(posix.join(ROOT, 'Dockerfile'), 'utf8');
  const build = JSON.parse(readFileSync(posix.join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
    compilerOptions: { outDir: string };
  };
  // The server's routes, wherever src/server declares them.
  const app = readdirSync(posix.join(ROOT, 'src/server'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => readFileSync(posix.join(ROOT, 'src/server', name), 'utf8'))
    .join('\n');

  it("runs the compiled server as the unprivileged user, checked by the server's readiness probe", () => {
    const command = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(command.at(-1)).toBe(`${build.compilerOptions.outDir}/src/main.js`);
    expect(readdirSync(posix.join(ROOT, 'src'))).toContain('main.ts');
    expect(/^USER (\S+)$/m.exec(dockerfile)?.[1]).toBe('node');
    expect(dockerfile).toMatch(/^ENV NODE_ENV=production$/m);
    const probe = /HEALTHCHECK[\s\S]*?\/(\w+)`/.exec(dockerfile)?.[1];
    expect(probe).toBe('readyz');
    expect(app).toMatch(new RegExp(`\\.get\\('/${probe}'`));
    // The port the image listens on is the one the stack routes to.
    expect(/^ENV HOST=0\.0\.0\.0 PORT=(\d+)$/m.exec(dockerfile)?.[1]).toBe('4000');
    expect(dockerfile).toMatch(/^EXPOSE 4000$/m);
  });
});
