// npm run invoke -- <function> [--event file.json]: runs one function with a sample API Gateway
// event against the running local stack and prints the result (serverless's own `invoke local`
// cannot load ESM bundles). Events come from events/<function>.json by default; the
// placeholders {{skKey}}, {{pkKey}} and {{databaseId}} are filled from the local demo setup.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isDynamoDbUp } from './dynamodb.ts';
import { installAwsLambdaGlobal, isStreamingHandler, lambdaContext, loadHandler } from './lambda.ts';
import { environmentOf, loadServerlessConfig } from './serverless-config.ts';
import { applyLocalEnvironment, LOCAL_STAGE, localDir, readStackInfo, root } from './stack.ts';

const { values, positionals } = parseArgs({ options: { event: { type: 'string' } }, allowPositionals: true });
const functionName = positionals[0];
const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const config = await loadServerlessConfig(root, LOCAL_STAGE);
if (!functionName || !config.functions[functionName]) {
  fail(
    `usage: npm run invoke -- <function> [--event file.json]\nfunctions: ${Object.keys(config.functions).join(', ')}`,
  );
}
const fn = config.functions[functionName!]!;
const stack = readStackInfo();
if (!stack || !(await isDynamoDbUp(stack.dynamodbEndpoint)))
  fail('The local stack is not running: start it with npm start');

const eventFile = values.event ?? join(root, 'events', `${functionName}.json`);
if (!existsSync(eventFile)) fail(`No event file ${eventFile}`);
const demoFile = join(localDir, 'demo.json');
const demo = existsSync(demoFile)
  ? (JSON.parse(readFileSync(demoFile, 'utf8')) as Record<string, string>)
  : {};
const eventText = readFileSync(eventFile, 'utf8').replace(
  /\{\{(\w+)\}\}/g,
  (_, name: string) => demo[name] ?? '',
);
const event = JSON.parse(eventText) as unknown;

applyLocalEnvironment(environmentOf(config), stack!);
installAwsLambdaGlobal();
const handler = await loadHandler(root, fn.handler);
if (isStreamingHandler(handler))
  fail(`${functionName} streams its response: call it through npm start's gateway instead`);
const result = await handler(event, lambdaContext(`tabletalk-local-${functionName}`, fn.timeout ?? 29));
console.log(JSON.stringify(result, null, 2));
process.exit(0);
