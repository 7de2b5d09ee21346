// Starts the local gateway in the test process with every route of the resolved serverless
// config, against the suite's DynamoDB Local (see dynamodb-setup.ts).
import { type RunningGateway, startGateway } from '../../local/gateway.ts';
import type { Route } from '../../local/serverless-config.ts';
import { environmentOf, loadServerlessConfig, routesOf } from '../../local/serverless-config.ts';
import { applyLocalEnvironment, LOCAL_STAGE, root } from '../../local/stack.ts';

/** Set for the integration project in vitest.config.ts. */
export const TEST_JWT_SECRET = process.env.TABLETALK_JWT_SECRET ?? '';

/**
 * POST /test/answer: the standard chain with the answering limits and a handler that answers at
 * once (tests/e2e/fixtures/answering.ts), for tests of limits and leases.
 */
export const ANSWERING_TEST_ROUTE: Route = {
  functionName: 'testAnswering',
  handler: 'tests/e2e/fixtures/answering.handler',
  method: 'POST',
  path: '/test/answer',
  streaming: false,
  timeoutSeconds: 29,
};

export const startTestGateway = async (
  extraRoutes: Route[] = [],
): Promise<RunningGateway & { routes: Route[] }> => {
  const config = await loadServerlessConfig(root, LOCAL_STAGE);
  applyLocalEnvironment(environmentOf(config), {
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
  });
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  const routes = [...routesOf(config), ...extraRoutes];
  const gateway = await startGateway({ root, routes });
  return { ...gateway, routes };
};

/** A response body as parsed JSON, loosely typed the way JSON.parse is, for assertions. */
export const jsonOf = (response: Response): Promise<ReturnType<typeof JSON.parse>> => response.json();
