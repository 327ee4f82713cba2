import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as apigateway from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as ecsPatterns from 'aws-cdk-lib/aws-ecs-patterns';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as elasticache from 'aws-cdk-lib/aws-elasticache';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secrets from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { TABLE_ACTIONS } from '../src/dynamodb/iamActions.js';

/** The repository's root: the image's build context, the Lambda's sources. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The table definition the server creates a table from (schema/table.json): one source for both. */
const TABLE = JSON.parse(readFileSync(`${ROOT}schema/table.json`, 'utf8')) as {
  KeySchema: Array<{ AttributeName: string; KeyType: 'HASH' | 'RANGE' }>;
  StreamSpecification: { StreamViewType: keyof typeof dynamodb.StreamViewType };
  TimeToLiveSpecification: { AttributeName: string };
};

/** What a deployment chooses; each one also a context value of `npx cdk deploy -c name=value`. */
export interface CanopyStackProps extends StackProps {
  /** Tasks serving the API (default 2). Past one, a Valkey cache carries live updates between them. */
  tasks?: number;
  /** Who runs the jobs (JOB_RUNNER): `process` (default), or `worker`, the stream worker Lambda. */
  jobRunner?: 'process' | 'worker';
  /** TREE_STRATEGY (default `adjacency`). */
  strategy?: string;
  /** AUTH: `jwt` (default; an HS256 secret made here, or `jwksUrl`) or `apikey`. */
  auth?: 'jwt' | 'apikey';
  /** JWT_JWKS_URL: the issuer's keys, instead of a shared secret. */
  jwksUrl?: string;
  /** Serve an existing table of this name (its data stays when the stack goes) instead of a new one. */
  existingTable?: string;
  /** An ACM certificate's ARN: the load balancer then answers HTTPS, and redirects HTTP to it. */
  certificateArn?: string;
  /** Also serve queries and mutations from a Lambda behind an HTTP API (no live updates there). */
  serverless?: boolean;
}

/**
 * Canopy on AWS: its DynamoDB table (on demand, time to live on `expiresAt`, point-in-time
 * recovery, deletion protection, the stream of JOB_RUNNER=worker), the API as a Fargate service
 * behind an Application Load Balancer (which keeps WebSockets and server-sent events open, unlike
 * App Runner), Valkey for live updates across tasks, the stream worker Lambda with its schedule,
 * the secrets in Secrets Manager, logs, and the alarms to page on. Every DynamoDB permission is
 * one the code uses (src/dynamodb/iamActions.ts), on the table alone.
 */
export class CanopyStack extends Stack {
  readonly table: dynamodb.ITable;
  readonly service: ecsPatterns.ApplicationLoadBalancedFargateService;

  constructor(scope: Construct, id: string, props: CanopyStackProps = {}) {
    super(scope, id, props);
    const worker = props.jobRunner === 'worker';
    this.table = props.existingTable
      ? dynamodb.Table.fromTableAttributes(this, 'Table', {
          tableName: props.existingTable,
          grantIndexPermissions: false,
        })
      : canopyTable(this, worker);
    const vpc = network(this);
    const secretsOf = canopySecrets(this, props);
    const tasks = props.tasks ?? 2;
    const cache = tasks > 1 ? valkey(this, vpc) : undefined;
    const environment: Record<string, string> = {
      NODE_ENV: 'production',
      DYNAMODB_TABLE: this.table.tableName,
      AWS_REGION: this.region,
      TREE_STRATEGY: props.strategy ?? 'adjacency',
      AUTH: props.auth ?? 'jwt',
      JOB_RUNNER: props.jobRunner ?? 'process',
      SEED_DEMO: 'false',
      LOG_FORMAT: 'json',
      ...(props.jwksUrl ? { JWT_JWKS_URL: props.jwksUrl } : {}),
      ...(cache ? { PUBSUB_URL: cache.url } : {}),
    };
    const apiLogs = new logs.LogGroup(this, 'ApiLogs', { retention: logs.RetentionDays.ONE_MONTH });
    const certificate = props.certificateArn
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn)
      : undefined;
    this.service = apiService(this, { vpc, tasks, environment, secrets: secretsOf, cache, logs: apiLogs, certificate });
    grantTable(this.service.taskDefinition.taskRole, this.table);
    if (worker) streamWorker(this, { table: this.table, environment, secrets: secretsOf });
    const httpApi = props.serverless
      ? serverlessApi(this, { table: this.table, environment, secrets: secretsOf })
      : undefined;
    alarms(this, { api: this.service, logs: apiLogs, table: this.table });
    outputs(this, { secrets: secretsOf, https: certificate !== undefined, httpApi });
  }
}

/** The table: schema/table.json's keys, on demand, its time to live, recoverable, protected. */
function canopyTable(stack: Stack, stream: boolean): dynamodb.Table {
  const key = (type: 'HASH' | 'RANGE') => ({
    name: TABLE.KeySchema.find((k) => k.KeyType === type)!.AttributeName,
    type: dynamodb.AttributeType.STRING,
  });
  return new dynamodb.Table(stack, 'Table', {
    partitionKey: key('HASH'),
    sortKey: key('RANGE'),
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: TABLE.TimeToLiveSpecification.AttributeName,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
    ...(stream ? { stream: dynamodb.StreamViewType[TABLE.StreamSpecification.StreamViewType] } : {}),
  });
}

/** Two availability zones, one NAT gateway, flow logs. */
function network(stack: Stack): ec2.Vpc {
  const vpc = new ec2.Vpc(stack, 'Network', { maxAzs: 2, natGateways: 1 });
  vpc.addFlowLog('FlowLog', {
    destination: ec2.FlowLogDestination.toCloudWatchLogs(
      new logs.LogGroup(stack, 'FlowLogs', { retention: logs.RetentionDays.ONE_MONTH }),
    ),
  });
  return vpc;
}

/** CURSOR_SECRET, and JWT_SECRET unless the tokens' keys come from a JWKS URL. */
function canopySecrets(stack: Stack, props: CanopyStackProps): Record<string, ecs.Secret> {
  const generated = (id: string) =>
    new secrets.Secret(stack, id, { generateSecretString: { passwordLength: 48, excludePunctuation: true } });
  const made: Record<string, secrets.Secret> = { CURSOR_SECRET: generated('CursorSecret') };
  if ((props.auth ?? 'jwt') === 'jwt' && !props.jwksUrl) made.JWT_SECRET = generated('JwtSecret');
  for (const secret of Object.values(made)) {
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating it ends every cursor (or token) issued before: done by hand (docs/deploy.md).',
    });
  }
  return Object.fromEntries(
    Object.entries(made).map(([name, secret]) => [name, ecs.Secret.fromSecretsManager(secret)]),
  );
}

/** A serverless Valkey cache in the network's private subnets: `rediss://` for PUBSUB_URL. */
function valkey(stack: Stack, vpc: ec2.Vpc): { url: string; securityGroup: ec2.SecurityGroup } {
  const securityGroup = new ec2.SecurityGroup(stack, 'CacheSecurity', { vpc, description: 'Valkey for live updates' });
  const cache = new elasticache.CfnServerlessCache(stack, 'Cache', {
    engine: 'valkey',
    serverlessCacheName: `${stack.stackName}-live`.toLowerCase().slice(0, 40),
    securityGroupIds: [securityGroup.securityGroupId],
    subnetIds: vpc.privateSubnets.map((subnet) => subnet.subnetId),
  });
  return { url: `rediss://${cache.attrEndpointAddress}:${cache.attrEndpointPort}`, securityGroup };
}

interface ServiceParts {
  vpc: ec2.Vpc;
  tasks: number;
  environment: Record<string, string>;
  secrets: Record<string, ecs.Secret>;
  cache: { securityGroup: ec2.SecurityGroup } | undefined;
  logs: logs.LogGroup;
  certificate: acm.ICertificate | undefined;
}

/**
 * The API: the repository's Dockerfile on Fargate, `tasks` of them in the private subnets behind
 * a public Application Load Balancer that checks /readyz, rolls a failed deployment back, and
 * keeps idle WebSockets open for an hour.
 */
function apiService(stack: Stack, parts: ServiceParts): ecsPatterns.ApplicationLoadBalancedFargateService {
  const cluster = new ecs.Cluster(stack, 'Cluster', {
    vpc: parts.vpc,
    containerInsightsV2: ecs.ContainerInsights.ENABLED,
  });
  const service = new ecsPatterns.ApplicationLoadBalancedFargateService(stack, 'Api', {
    cluster,
    desiredCount: parts.tasks,
    cpu: 1024,
    memoryLimitMiB: 2048,
    publicLoadBalancer: true,
    circuitBreaker: { rollback: true },
    minHealthyPercent: 100,
    idleTimeout: Duration.hours(1),
    ...(parts.certificate
      ? { certificate: parts.certificate, protocol: elbv2.ApplicationProtocol.HTTPS, redirectHTTP: true }
      : {}),
    taskImageOptions: {
      image: ecs.ContainerImage.fromAsset(ROOT, { exclude: IMAGE_EXCLUDES }),
      containerPort: 4000,
      environment: { ...parts.environment, HOST: '0.0.0.0', PORT: '4000' },
      secrets: parts.secrets,
      logDriver: ecs.LogDrivers.awsLogs({ streamPrefix: 'api', logGroup: parts.logs }),
    },
  });
  service.targetGroup.configureHealthCheck({ path: '/readyz', healthyHttpCodes: '200' });
  service.loadBalancer.logAccessLogs(accessLogBucket(stack));
  if (parts.cache)
    parts.cache.securityGroup.connections.allowFrom(service.service, ec2.Port.tcp(6379), 'the API tasks');
  Validations.of(service).acknowledge(
    { id: 'AwsSolutions-EC23', reason: 'A public API: its load balancer takes HTTP from anywhere.' },
    { id: 'AwsSolutions-ECS2', reason: 'The configuration is not secret; the secrets come from Secrets Manager.' },
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: "The execution role's ecr:GetAuthorizationToken, which IAM grants only on every resource.",
    },
  );
  return service;
}

/** What the image's build context leaves out: what the Dockerfile does not copy, and what is big. */
const IMAGE_EXCLUDES = ['node_modules', 'dist', '.data', 'cdk.out', 'test-artifacts', '.git', 'examples', 'bench'];

/** The load balancer's access logs, encrypted, kept a year; the bucket refuses plain HTTP. */
function accessLogBucket(stack: Stack): s3.Bucket {
  const bucket = new s3.Bucket(stack, 'AccessLogs', {
    encryption: s3.BucketEncryption.S3_MANAGED,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    lifecycleRules: [{ expiration: Duration.days(365) }],
    removalPolicy: RemovalPolicy.RETAIN,
  });
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'The bucket of access logs: logging its own access would loop.',
  });
  return bucket;
}

/** Every action the code takes on its table (src/dynamodb/iamActions.ts), on that table only. */
function grantTable(role: iam.IGrantable, table: dynamodb.ITable): void {
  role.grantPrincipal.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: [...TABLE_ACTIONS], resources: [table.tableArn] }),
  );
}

interface FunctionParts {
  table: dynamodb.ITable;
  environment: Record<string, string>;
  secrets: Record<string, ecs.Secret>;
}

/**
 * A Lambda function of the repository's code (`entry`'s `handler`), bundled, with its own role:
 * its log group and its table (src/dynamodb/iamActions.ts), rather than a managed policy's every
 * log group.
 */
function canopyFunction(
  stack: Stack,
  id: string,
  parts: FunctionParts & { entry: string; timeout: Duration },
): { fn: nodejs.NodejsFunction; role: iam.Role } {
  const logGroup = new logs.LogGroup(stack, `${id}Logs`, { retention: logs.RetentionDays.ONE_MONTH });
  const role = new iam.Role(stack, `${id}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  role.addToPolicy(
    new iam.PolicyStatement({
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [logGroup.logGroupArn],
    }),
  );
  const fn = new nodejs.NodejsFunction(stack, id, {
    entry: `${ROOT}${parts.entry}`,
    handler: 'handler',
    runtime: lambda.Runtime.NODEJS_24_X,
    timeout: parts.timeout,
    memorySize: 1024,
    role,
    // Lambda sets AWS_REGION itself (a reserved name).
    environment: { ...withoutRegion(parts.environment), ...secretReferences(parts.secrets) },
    logGroup,
    bundling: {
      format: nodejs.OutputFormat.ESM,
      target: 'node22',
      sourceMap: true,
      // type-graphql loads class-validator only when asked to validate, which Canopy never does.
      externalModules: ['class-validator'],
      // The CommonJS modules of the bundle find `require` in an ES module.
      banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  grantTable(fn, parts.table);
  return { fn, role };
}

/**
 * JOB_RUNNER=worker: the stream worker (src/worker/lambda.ts), fed by the table's stream, and run
 * every minute to take over the jobs of runners that stopped.
 */
function streamWorker(stack: Stack, parts: FunctionParts): void {
  const { fn, role } = canopyFunction(stack, 'Worker', {
    ...parts,
    entry: 'src/worker/lambda.ts',
    timeout: Duration.minutes(5),
  });
  fn.addEventSource(
    new DynamoEventSource(parts.table, {
      startingPosition: lambda.StartingPosition.LATEST,
      batchSize: 100,
      retryAttempts: 3,
      bisectBatchOnError: true,
    }),
  );
  new events.Rule(stack, 'Sweep', {
    schedule: events.Schedule.rate(Duration.minutes(1)),
    targets: [new targets.LambdaFunction(fn)],
  });
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: "dynamodb:ListStreams, which the stream's event source needs, applies to no resource: IAM takes only *.",
  });
}

/**
 * `serverless`: queries and mutations also from a Lambda (src/server/lambdaApi.ts) behind an
 * HTTP API, with access logs and a throttle; no live updates there (docs/deploy.md).
 */
function serverlessApi(stack: Stack, parts: FunctionParts): apigateway.HttpApi {
  const { fn } = canopyFunction(stack, 'ServerlessApi', {
    ...parts,
    entry: 'src/server/lambdaApi.ts',
    timeout: Duration.seconds(29),
  });
  const httpApi = new apigateway.HttpApi(stack, 'HttpApi', { createDefaultStage: false });
  new apigateway.HttpStage(stack, 'HttpStage', {
    httpApi,
    stageName: '$default',
    autoDeploy: true,
    throttle: { rateLimit: 500, burstLimit: 1000 },
    accessLogSettings: {
      destination: new apigateway.LogGroupLogDestination(
        new logs.LogGroup(stack, 'HttpApiLogs', { retention: logs.RetentionDays.ONE_MONTH }),
      ),
    },
  });
  httpApi.addRoutes({
    path: '/graphql',
    methods: [apigateway.HttpMethod.POST],
    integration: new HttpLambdaIntegration('Graphql', fn),
  });
  Validations.of(httpApi).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason: 'Canopy authenticates every request itself (AUTH: a JWT or an API key), as the server does.',
  });
  return httpApi;
}

const withoutRegion = ({ AWS_REGION: _region, ...rest }: Record<string, string>) => rest;

/** The secrets as the Lambda's environment: dynamic references CloudFormation resolves at deploy. */
function secretReferences(made: Record<string, ecs.Secret>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(made).map(([name, secret]) => [name, `{{resolve:secretsmanager:${secret.arn}}}`]),
  );
}

/** The operations Canopy calls on its table (at most ten metrics in one alarm). */
const THROTTLED_OPERATIONS = [
  'BATCH_GET_ITEM',
  'QUERY',
  'SCAN',
  'PUT_ITEM',
  'UPDATE_ITEM',
  'DELETE_ITEM',
  'TRANSACT_WRITE_ITEMS',
  'BATCH_WRITE_ITEM',
] as const;

/** The alarms to page on: 5xx answers, the 99th percentile of latency, throttles, and jobs that stop. */
function alarms(
  stack: Stack,
  parts: { api: ecsPatterns.ApplicationLoadBalancedFargateService; logs: logs.LogGroup; table: dynamodb.ITable },
): void {
  const alarm = (id: string, metric: cloudwatch.IMetric, threshold: number) =>
    new cloudwatch.Alarm(stack, id, {
      metric,
      threshold,
      evaluationPeriods: 3,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  const minute = { period: Duration.minutes(1) };
  const metrics = parts.api.loadBalancer.metrics;
  alarm('ServerErrors', metrics.httpCodeTarget(elbv2.HttpCodeTarget.TARGET_5XX_COUNT, minute), 5);
  alarm('Latency', metrics.targetResponseTime({ ...minute, statistic: 'p99' }), 1);
  const operations = THROTTLED_OPERATIONS.map((name) => dynamodb.Operation[name]);
  alarm('Throttles', parts.table.metricThrottledRequestsForOperations({ ...minute, operations }), 1);
  // A job that stopped on an error logs "job stopped" (it is resumed; one that keeps stopping fails).
  const stopped = new logs.MetricFilter(stack, 'JobsStopped', {
    logGroup: parts.logs,
    metricNamespace: 'Canopy',
    metricName: 'JobsStopped',
    filterPattern: logs.FilterPattern.stringValue('$.msg', '=', 'job stopped'),
    metricValue: '1',
  });
  alarm('JobFailures', stopped.metric({ statistic: 'Sum', period: Duration.minutes(5) }), 1);
}

/** What a deployment tells: the API's URL, the table, and where its secrets are (docs/deploy.md). */
function outputs(
  stack: CanopyStack,
  parts: { secrets: Record<string, ecs.Secret>; https: boolean; httpApi: apigateway.HttpApi | undefined },
): void {
  const scheme = parts.https ? 'https' : 'http';
  new CfnOutput(stack, 'Url', {
    value: `${scheme}://${stack.service.loadBalancer.loadBalancerDnsName}/graphql`,
    description: 'GraphQL',
  });
  new CfnOutput(stack, 'TableName', { value: stack.table.tableName, description: 'DYNAMODB_TABLE' });
  if (parts.httpApi) {
    new CfnOutput(stack, 'ServerlessUrl', {
      value: `${parts.httpApi.apiEndpoint}/graphql`,
      description: 'GraphQL queries and mutations from the Lambda',
    });
  }
  for (const [name, secret] of Object.entries(parts.secrets)) {
    const id = name.toLowerCase().replace(/(^|_)(\w)/g, (_, __, letter: string) => letter.toUpperCase());
    new CfnOutput(stack, `${id}Arn`, { value: secret.arn, description: `the secret of ${name}` });
  }
}
