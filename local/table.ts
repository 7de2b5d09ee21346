// Creates the stage table in DynamoDB Local from infra/table.yml, the same definition
// CloudFormation deploys, so local and deployed keys and indexes cannot drift apart.
import { readFileSync } from 'node:fs';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { parse } from 'yaml';

const definitionFile = new URL('../infra/table.yml', import.meta.url);

interface TableResource {
  Properties: Pick<
    CreateTableCommandInput,
    'AttributeDefinitions' | 'KeySchema' | 'GlobalSecondaryIndexes'
  > & {
    TimeToLiveSpecification?: { AttributeName: string; Enabled: boolean };
  };
}

export const tableDefinition = (
  tableName: string,
): { create: CreateTableCommandInput; ttlAttribute?: string } => {
  const template = parse(readFileSync(definitionFile, 'utf8')) as { Resources: { ChatTable: TableResource } };
  const { AttributeDefinitions, KeySchema, GlobalSecondaryIndexes, TimeToLiveSpecification } =
    template.Resources.ChatTable.Properties;
  return {
    create: {
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions,
      KeySchema,
      GlobalSecondaryIndexes,
    },
    ...(TimeToLiveSpecification?.Enabled ? { ttlAttribute: TimeToLiveSpecification.AttributeName } : {}),
  };
};

/** Creates the table unless it exists; returns whether it was created. */
export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<boolean> => {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return false;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const { create, ttlAttribute } = tableDefinition(tableName);
  await client.send(new CreateTableCommand(create));
  if (ttlAttribute) {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
      }),
    );
  }
  return true;
};

export const dropTable = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
};
