// Which table the admin command talks to: the local stack by default, a deployed stage with
// --stage. The choice goes into the environment, and the settings are read afresh from it
// (lib/config.ts).
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { resetSettings } from '#lib/config.ts';
import {
  DEFAULT_DYNAMODB_PORT,
  LOCAL_STAGE,
  LOCAL_TABLE,
  localDir,
  readStackInfo,
  type StackInfo,
} from '../local/stack.ts';
import { AdminError, UsageError } from './args.ts';

export type Target =
  | { kind: 'local'; stage: string; tableName: string; endpoint: string }
  | { kind: 'stage'; stage: string; tableName: string };

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

const stackInfo = (): StackInfo | undefined => {
  try {
    return readStackInfo();
  } catch (error) {
    throw new AdminError(
      `cannot read .local/stack.json (${(error as Error).message}): restart the local stack with npm start`,
    );
  }
};

export const resolveTarget = (stage: string | undefined, env: NodeJS.ProcessEnv = process.env): Target => {
  if (stage !== undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/.test(stage)) {
      throw new UsageError('--stage must be a stage name (letters, digits and hyphens)');
    }
    if (stage === LOCAL_STAGE) throw new UsageError('--stage local is the default target: leave --stage out');
    return { kind: 'stage', stage, tableName: `tabletalk-${stage}` };
  }
  const endpoint = nonEmpty(env.DYNAMODB_ENDPOINT);
  const tableName = nonEmpty(env.TABLE_NAME);
  const stack = endpoint && tableName ? undefined : stackInfo();
  return {
    kind: 'local',
    stage: LOCAL_STAGE,
    endpoint: endpoint ?? stack?.dynamodbEndpoint ?? `http://127.0.0.1:${DEFAULT_DYNAMODB_PORT}`,
    tableName: tableName ?? stack?.tableName ?? LOCAL_TABLE,
  };
};

/** Puts the target into the environment and makes the settings (lib/config.ts) read it. */
export const applyTarget = (target: Target, env: NodeJS.ProcessEnv = process.env): void => {
  env.STAGE = target.stage;
  env.TABLE_NAME = target.tableName;
  if (target.kind === 'local') {
    env.DYNAMODB_ENDPOINT = target.endpoint;
    env.AWS_REGION ??= 'us-east-1';
    env.LOCAL_SECRET_KEY_FILE ||= join(localDir, 'credentials.key');
  } else {
    delete env.DYNAMODB_ENDPOINT;
  }
  resetSettings();
};

export const describeTarget = (target: Target): string =>
  target.kind === 'local'
    ? `table ${target.tableName} at ${target.endpoint}`
    : `table ${target.tableName} (stage ${target.stage})`;

/**
 * Checks, before the first command, that the table answers, so that a stopped local stack is
 * one clear line instead of a stack trace after the SDK's retries.
 */
export const checkTarget = async (target: Target): Promise<void> => {
  if (target.kind === 'stage') return;
  const client = new DynamoDBClient({
    endpoint: target.endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000 },
  });
  try {
    await client.send(new DescribeTableCommand({ TableName: target.tableName }));
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === undefined) {
      throw new AdminError(
        `DynamoDB not reachable at ${target.endpoint}: start the local stack with npm start`,
      );
    }
    if ((error as Error).name === 'ResourceNotFoundException') {
      throw new AdminError(
        `table ${target.tableName} not found at ${target.endpoint}: start the local stack with npm start`,
      );
    }
    throw new AdminError(
      `DynamoDB at ${target.endpoint} answered ${(error as Error).name}: ${(error as Error).message}`,
    );
  } finally {
    client.destroy();
  }
};
