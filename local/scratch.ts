// A throwaway local stack for benchmarks and the evaluation: DynamoDB Local in memory on a free
// port, one table, and the functions' environment applied to this process. It never touches the
// developer's .local/ data.
import { createApiKey } from '#lib/auth/api-keys.ts';
import { createOrganization, type LimitOverrides, setOrganizationLimits } from '#lib/store/organizations.ts';
import { localClient, type RunningDynamoDb, startDynamoDb } from './dynamodb.ts';
import { environmentOf, loadServerlessConfig, type Route, routesOf } from './serverless-config.ts';
import { applyLocalEnvironment, LOCAL_STAGE, root } from './stack.ts';
import { ensureTable } from './table.ts';

export interface ScratchStack {
  dynamodb: RunningDynamoDb;
  /** Every route of the resolved serverless config, for startGateway. */
  routes: Route[];
}

export const startScratchStack = async (tableName: string): Promise<ScratchStack> => {
  const dynamodb = await startDynamoDb();
  try {
    const client = localClient(dynamodb.endpoint);
    await ensureTable(client, tableName);
    client.destroy();
    const config = await loadServerlessConfig(root, LOCAL_STAGE);
    applyLocalEnvironment(environmentOf(config), { dynamodbEndpoint: dynamodb.endpoint, tableName });
    return { dynamodb, routes: routesOf(config) };
  } catch (error) {
    await dynamodb.stop();
    throw error;
  }
};

/**
 * An enterprise organization whose limits no benchmark reaches (the limiter still counts every
 * request), `limits` replacing some of them, and an sk_ key. Call after startScratchStack.
 */
export const createUnlimitedOrganization = async (
  name: string,
  limits: LimitOverrides = {},
): Promise<{ organizationId: number; apiKey: string }> => {
  const organization = await createOrganization({ name, plan: 'enterprise' });
  const unreachable = 1_000_000_000;
  await setOrganizationLimits(organization.id, {
    requestsPerMinute: unreachable,
    requestsPerHour: unreachable,
    monthlyRequests: unreachable,
    concurrentRequests: unreachable,
    messagesPerMinute: unreachable,
    messagesPerHour: unreachable,
    ...limits,
  });
  const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });
  return { organizationId: organization.id, apiKey: sk.key };
};
