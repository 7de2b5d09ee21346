// What the answering flow's unit tests (lib/answer/orchestrator.ts with fakes) share: a database
// record, a request for one question on it, and the messages the flow stored through the mocked
// DynamoDB document client.
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { visibleCatalog } from '#lib/answer/catalog.ts';
import type { AnswerRequest } from '#lib/answer/request.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';

export const CONVERSATION = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
export const DATABASE = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5f';

/** Organization 7's active postgres database, filtered on org_id; `tables` are its policy's. */
export const testDatabase = (tables: DatabaseRecord['policy']['tables'] = {}): DatabaseRecord => ({
  id: DATABASE,
  organizationId: 7,
  name: 'Shop',
  engine: 'postgres',
  status: 'active',
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'org_id',
  policy: { tenant_column: 'org_id', tables },
  connectionRef: 'enc:v1:test',
  createdAt: '2026-01-01T00:00:00.000Z',
});

/**
 * `question` from scope `alice` of organization 7 for tenant 3, in CONVERSATION, on `database`
 * indexed as `catalog`, answered by `engine`; `extra` replaces any of it.
 */
export const answerRequest = (
  base: Pick<AnswerRequest, 'engine' | 'database' | 'question'> & { catalog: Catalog },
  extra: Partial<AnswerRequest> = {},
): AnswerRequest => {
  const policy = effectivePolicy(base.database);
  return {
    caller: { organizationId: 7, scopeId: 'alice', userId: undefined },
    conversationId: CONVERSATION,
    question: base.question,
    database: base.database,
    catalog: { full: base.catalog, visible: visibleCatalog(base.catalog, policy), policy },
    tenant: { tenant: 3 },
    history: [],
    engine: base.engine,
    now: new Date('2026-03-15T12:00:00.000Z'),
    ...extra,
  };
};

/** The messages stored, in order: id, role, content and parsed metadata of each TransactWriteItems, and the conversation update's values. */
export const storedMessages = (calls: readonly { args: readonly [{ input: TransactWriteCommandInput }] }[]) =>
  calls.map((call) => {
    const item = call.args[0].input.TransactItems?.[0]?.Put?.Item as Record<string, unknown>;
    const update = call.args[0].input.TransactItems?.[1]?.Update;
    return {
      id: item.id as string,
      role: item.role,
      content: item.content as string,
      metadata: item.metadataJson ? JSON.parse(item.metadataJson as string) : undefined,
      conversationValues: update?.ExpressionAttributeValues,
    };
  });
