import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { CanopyStack, type CanopyStackProps } from './canopyStack.js';

/**
 * `npx cdk deploy` (cdk.json runs this): the Canopy stack, its choices from the context
 * (`-c tasks=3 -c jobRunner=worker -c strategy=path -c auth=apikey -c jwksUrl=...
 * -c existingTable=... -c certificateArn=... -c serverless=true`),
 * checked by cdk-nag's AwsSolutions rules.
 */
const app = new App();
const context = (name: string): string | undefined => app.node.tryGetContext(name) as string | undefined;
const props: CanopyStackProps = {
  ...(context('tasks') ? { tasks: Number(context('tasks')) } : {}),
  ...(context('jobRunner') ? { jobRunner: context('jobRunner') as CanopyStackProps['jobRunner'] } : {}),
  ...(context('strategy') ? { strategy: context('strategy') } : {}),
  ...(context('auth') ? { auth: context('auth') as CanopyStackProps['auth'] } : {}),
  ...(context('jwksUrl') ? { jwksUrl: context('jwksUrl') } : {}),
  ...(context('existingTable') ? { existingTable: context('existingTable') } : {}),
  ...(context('certificateArn') ? { certificateArn: context('certificateArn') } : {}),
  ...(context('serverless') === 'true' ? { serverless: true } : {}),
};
// The account and region the CDK CLI resolved (a profile's, AWS_REGION): the load balancer's logs need the region.
const region = process.env.CDK_DEFAULT_REGION ?? process.env.AWS_REGION;
if (!region)
  throw new Error('set the region to deploy to: AWS_REGION=eu-west-1 npx cdk deploy (or a profile with one)');
new CanopyStack(app, context('stackName') ?? 'Canopy', {
  ...props,
  env: { region, ...(process.env.CDK_DEFAULT_ACCOUNT ? { account: process.env.CDK_DEFAULT_ACCOUNT } : {}) },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
