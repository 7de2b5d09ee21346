// The five history functions through their whole middy chain, DynamoDB mocked with
// aws-sdk-client-mock: validation (limit, order, ids, both/neither variants, metadata), access
// (pk_ keys, plans, X-Scope-Id), the append transaction and its retries, the warm path's
// DynamoDB calls, and the delete's batch retries.
import { createHash } from 'node:crypto';
import { type AttributeValue, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearPrincipalCaches } from '#lib/auth/principal.ts';
import type { ErrorEnvelope } from '#lib/errors.ts';
import { appendMessage } from '#lib/store/messages.ts';
import { handler as chatMessage } from '../../functions/chat-message.ts';
import { handler as conversationHistory } from '../../functions/conversation-history.ts';
import { handler as listConversations } from '../../functions/conversations.ts';
import { handler as deleteConversation } from '../../functions/delete-conversation.ts';
import { handler as history } from '../../functions/history.ts';
import { type ApiEventInit, type HttpHandler, invoke } from '../helpers/events.ts';

const ddb = mockClient(DynamoDBDocumentClient);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const CONVERSATION = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const items = new Map<string, Record<string, unknown>>();

const seedKey = (key: string, kind: 'sk' | 'pk', organizationId: number) =>
  items.set(`KEYHASH#${sha256(key)}`, {
    id: `id-${key}`,
    organizationId,
    kind,
    hint: 'x',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...(kind === 'pk' ? { databaseId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5f' } : {}),
  });
const seedOrganization = (id: number, plan: string) =>
  items.set(`ORG#${id}`, {
    id,
    name: `Org ${id}`,
    plan,
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
  });

const PRO = 'sk_professionalKey000000000000000000000000000000';
const STARTER = 'sk_starterKey000000000000000000000000000000000000';
const FREE = 'sk_freeKey000000000000000000000000000000000000000';
const WIDGET = 'pk_widgetKey00000000000000000000000000000000000000';

const message = (id: string, extra: Record<string, unknown> = {}) => ({
  PK: `CONV#3#${CONVERSATION}`,
  SK: `MSG#${id}`,
  GSI2PK: 'SCOPE#3#s',
  GSI2SK: id,
  id,
  conversationId: CONVERSATION,
  organizationId: 3,
  role: 'user',
  content: 'hello',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

beforeEach(() => {
  items.clear();
  seedOrganization(1, 'starter');
  seedOrganization(2, 'free');
  seedOrganization(3, 'professional');
  seedKey(PRO, 'sk', 3);
  seedKey(STARTER, 'sk', 1);
  seedKey(FREE, 'sk', 2);
  seedKey(WIDGET, 'pk', 3);
  ddb.on(GetCommand).callsFake((input: { Key: { PK: string } }) => ({ Item: items.get(input.Key.PK) }));
  ddb.on(QueryCommand).resolves({ Items: [], Count: 0, ScannedCount: 0 });
});

afterEach(() => {
  ddb.reset();
  clearPrincipalCaches();
});

/** Credentials and X-Scope-Id; `null` sends no X-Scope-Id. */
const headers = (key = PRO, scope: string | null = 's') => ({
  'X-API-Key': key,
  ...(scope === null ? {} : { 'X-Scope-Id': scope }),
});

const call = (handler: HttpHandler, init: ApiEventInit) => invoke<ErrorEnvelope>(handler, init);

const expectError = (
  response: { statusCode: number; body: ErrorEnvelope },
  status: number,
  code: string,
  errorCode: string,
) => {
  expect(response.statusCode).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error_code).toBe(errorCode);
};

const expectInvalid = (
  response: { statusCode: number; body: ErrorEnvelope },
  field: string,
  message?: RegExp,
) => {
  expectError(response, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR');
  expect(response.body.details.map((issue) => issue.field)).toContain(field);
  if (message) expect(response.body.details.find((issue) => issue.field === field)?.message).toMatch(message);
};

const reads = () => ddb.commandCalls(QueryCommand).length;
/**
 * The request's own calls: without the key's first use being recorded (lib/store/api-keys.ts
 * touchApiKey, two UpdateItems on the key's items when authentication resolves it from the table).
 */
const ownCalls = () =>
  ddb
    .calls()
    .filter(
      (call) =>
        !(
          call.args[0] instanceof UpdateCommand &&
          /^(KEYHASH|APIKEY)#/.test(String((call.args[0].input.Key as { PK?: unknown } | undefined)?.PK))
        ),
    );

const list = (query: Record<string, string>, init: ApiEventInit = {}) =>
  call(listConversations, { path: '/api/v1/chat/conversations', headers: headers(), query, ...init });
const readHistory = (query: Record<string, string>, init: ApiEventInit = {}) =>
  call(history, { path: '/api/v1/chat/history', headers: headers(), query, ...init });
const readConversation = (id: string, init: ApiEventInit = {}) =>
  call(conversationHistory, {
    path: `/api/v1/chat/${id}/history`,
    resource: '/api/v1/chat/{conversation_id}/history',
    pathParameters: { conversation_id: id },
    headers: headers(),
    ...init,
  });
const remove = (id: string, init: ApiEventInit = {}) =>
  call(deleteConversation, {
    method: 'DELETE',
    path: `/api/v1/chat/${id}`,
    resource: '/api/v1/chat/{conversation_id}',
    pathParameters: { conversation_id: id },
    headers: headers(),
    ...init,
  });
const post = (body: unknown, init: ApiEventInit = {}) =>
  call(chatMessage, { method: 'POST', path: '/api/v1/chat/message', headers: headers(), body, ...init });

const appendBody = { conversation_id: CONVERSATION, role: 'user', content: 'hello' };

/** The append's transaction cancelled by its conversation's condition, with the conversation as stored. */
const conversationConditionFailed = (item: Record<string, AttributeValue>) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled [None, ConditionalCheckFailed]',
    $metadata: {},
    CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Item: item }],
  });

describe('query validation', () => {
  it.each([
    ['0', /at least 1/],
    ['101', /at most 100/],
    ['abc', /integer/],
    ['1.5', /integer/],
  ])('refuses conversations limit=%s before reading anything', async (limit, message) => {
    expectInvalid(await list({ limit }), 'query.limit', message);
    expect(reads()).toBe(0);
  });

  it.each([
    ['0', /at least 1/],
    ['201', /at most 200/],
    ['abc', /integer/],
  ])('refuses history limit=%s', async (limit, message) => {
    expectInvalid(await readHistory({ limit }), 'query.limit', message);
    expect(reads()).toBe(0);
  });

  it('refuses order=sideways and a conversation_id that is not a UUID', async () => {
    expectInvalid(await readHistory({ order: 'sideways' }), 'query.order', /asc or desc/);
    expectInvalid(await readHistory({ conversation_id: 'not-a-uuid' }), 'query.conversation_id', /UUID/);
    expectInvalid(await readHistory({ conversation_id: `${CONVERSATION}0` }), 'query.conversation_id');
    expect(reads()).toBe(0);
  });

  it('refuses a path conversation_id that is not a UUID on history and delete', async () => {
    expectInvalid(await readConversation('nope'), 'path.conversation_id', /UUID/);
    expectInvalid(await remove('123'), 'path.conversation_id', /UUID/);
    expect(ownCalls().filter((c) => !(c.args[0] instanceof GetCommand))).toHaveLength(0);
  });

  it('refuses a cursor that was not issued here, on field cursor', async () => {
    expectInvalid(await list({ cursor: 'AAAA' }), 'cursor');
    expectInvalid(await readHistory({ cursor: 'bm90LWEtY3Vyc29y' }), 'cursor');
    expect(reads()).toBe(0);
  });

  it('takes an empty cursor as the first page and applies the defaults', async () => {
    const response = await list({ cursor: '' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ success: true, data: { conversations: [], hasMore: false } });
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      IndexName: 'GSI1',
      Limit: 21,
      ScanIndexForward: false,
    });
    await readHistory({});
    expect(ddb.commandCalls(QueryCommand)[1]?.args[0].input).toMatchObject({
      IndexName: 'GSI2',
      Limit: 51,
      ScanIndexForward: false,
    });
  });
});

describe('POST /chat/message variants', () => {
  it('refuses a body with both role and message, naming the fields of each variant', async () => {
    const response = await post({ ...appendBody, message: 'hi' });
    expectInvalid(response, 'body');
    expect(response.body.details[0]?.code).toBe('AMBIGUOUS_VARIANT');
    expect(response.body.message).toMatch(/role/);
    expect(response.body.message).toMatch(/conversation_id, role, content, metadata/);
    expect(response.body.message).toMatch(/message, database_id/);
  });

  it('refuses a body with neither, and one that is not an object', async () => {
    const neither = await post({ conversation_id: CONVERSATION, content: 'x' });
    expectInvalid(neither, 'body');
    expect(neither.body.details[0]?.code).toBe('MISSING_VARIANT');
    expect(neither.body.message).toMatch(/conversation_id, role, content, metadata/);
    expectInvalid(await post([appendBody]), 'body');
    expectInvalid(
      await post('"text"', { headers: { ...headers(), 'Content-Type': 'application/json' } }),
      'body',
    );
    expectInvalid(await post(undefined), 'body');
  });

  it('hands a body with message to the chat flow, which needs database_id on a first message', async () => {
    const response = await post({ message: 'How many orders?' });
    expectInvalid(response, 'body.database_id', /required on the first message/);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it.each([
    [{ ...appendBody, role: 'robot' }, 'body.role', /user, assistant, system, tool/],
    [{ ...appendBody, role: 'USER' }, 'body.role', undefined],
    [{ ...appendBody, content: '' }, 'body.content', /at least 1/],
    [{ ...appendBody, content: 'x'.repeat(100_001) }, 'body.content', /at most 100000/],
    [{ ...appendBody, content: 5 }, 'body.content', undefined],
    [{ ...appendBody, conversation_id: 'abc' }, 'body.conversation_id', /UUID/],
    [{ role: 'user', content: 'x' }, 'body.conversation_id', undefined],
    [{ ...appendBody, metadata: ['a'] }, 'body.metadata', /JSON object/],
    [{ ...appendBody, metadata: 'text' }, 'body.metadata', /JSON object/],
    [{ ...appendBody, metadata: 3 }, 'body.metadata', /JSON object/],
    [{ ...appendBody, metadata: { blob: 'x'.repeat(17_000) } }, 'body.metadata', /16384 bytes/],
  ])('refuses an invalid append body (%#)', async (body, field, message) => {
    expectInvalid(await post(body), field, message);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('access', () => {
  const all = (key: string, scope: string | null = 's') => {
    const h = { headers: headers(key, scope) };
    return [
      list({}, h),
      readHistory({}, h),
      readConversation(CONVERSATION, h),
      remove(CONVERSATION, h),
      post(appendBody, h),
    ];
  };

  it('gives a pk_ key 403 FORBIDDEN on every history endpoint, append included', async () => {
    for (const response of await Promise.all(all(WIDGET)))
      expectError(response, 403, 'FORBIDDEN', 'AUTH_INSUFFICIENT_PERMISSIONS');
  });

  it('needs custom_api_access for an sk_ key, and api_access first', async () => {
    for (const response of await Promise.all(all(STARTER)))
      expectError(response, 403, 'FORBIDDEN', 'BUSINESS_FEATURE_NOT_AVAILABLE');
    for (const response of await Promise.all(all(FREE)))
      expectError(response, 403, 'PLAN_FEATURE_REQUIRED', 'BUSINESS_SUBSCRIPTION_REQUIRED');
  });

  it('needs X-Scope-Id on every history endpoint, append included', async () => {
    for (const response of await Promise.all(all(PRO, null))) {
      expectError(response, 403, 'FORBIDDEN', 'AUTH_INSUFFICIENT_PERMISSIONS');
      expect(response.body.details[0]?.field).toBe('X-Scope-Id');
    }
    expect(ownCalls().filter((c) => !(c.args[0] instanceof GetCommand))).toHaveLength(0);
  });
});

describe('append', () => {
  it('is one TransactWriteItems: the message put and the guarded conversation upsert', async () => {
    // Arrange
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const response = await post({
      ...appendBody,
      conversation_id: CONVERSATION.toUpperCase(),
      metadata: { a: 1 },
    });

    // Assert
    expect(response.statusCode).toBe(201);
    const body = response.body as unknown as { success: true; data: Record<string, string>; message: string };
    expect(body).toEqual({
      success: true,
      data: { message_id: expect.any(String), conversation_id: CONVERSATION, created_at: expect.any(String) },
      message: 'Message appended',
    });
    expect(body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const transactions = ddb.commandCalls(TransactWriteCommand);
    expect(transactions).toHaveLength(1);
    const [put, update] = transactions[0]!.args[0].input.TransactItems ?? [];
    expect(put?.Put?.Item).toMatchObject({
      PK: `CONV#3#${CONVERSATION}`,
      SK: `MSG#${body.data.message_id}`,
      GSI2PK: 'SCOPE#3#s',
      GSI2SK: body.data.message_id,
      role: 'user',
      content: 'hello',
      metadataJson: '{"a":1}',
      createdAt: body.data.created_at,
    });
    expect(update?.Update?.Key).toEqual({ PK: `CONV#3#${CONVERSATION}`, SK: 'CONV' });
    expect(update?.Update?.ConditionExpression).toBe(
      'attribute_not_exists(#pk) OR (#organizationId = :organizationId AND #scopeKey = :scopeKey' +
        ' AND attribute_not_exists(#deletingAt) AND attribute_not_exists(#databaseId) AND #lastMessageAt <= :at)',
    );
    expect(put?.Put?.Item).not.toHaveProperty('databaseId');
    expect(update?.Update?.UpdateExpression).toMatch(/ADD #messageCount :one/);
    expect(update?.Update?.ExpressionAttributeValues).toMatchObject({
      ':organizationId': 3,
      ':scopeKey': 's',
      ':title': 'hello',
      ':at': body.data.created_at,
      ':GSI1SK': `${body.data.created_at}#${CONVERSATION}`,
    });
  });

  it('sets no title from a message that is not the user’s', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await post({ ...appendBody, role: 'assistant' });
    const update = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems?.[1]?.Update;
    expect(update?.ExpressionAttributeValues).not.toHaveProperty(':title');
  });

  it('retries a transaction cancelled by a conflict, and succeeds', async () => {
    // Arrange
    const conflict = () =>
      new TransactionCanceledException({
        message:
          'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
        $metadata: {},
        CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
      });
    ddb.on(TransactWriteCommand).rejectsOnce(conflict()).rejectsOnce(conflict()).resolves({});

    // Act
    const response = await post(appendBody);

    // Assert
    expect(response.statusCode).toBe(201);
    const transactions = ddb.commandCalls(TransactWriteCommand);
    expect(transactions).toHaveLength(3);
    // The message keeps the id (and time) it got on arrival.
    const ids = transactions.map((t) => t.args[0].input.TransactItems?.[0]?.Put?.Item?.id);
    expect(new Set(ids).size).toBe(1);
    expect((response.body as unknown as { data: { message_id: string } }).data.message_id).toBe(ids[0]);
  });

  it('counts a message older than the conversation’s last activity without moving it back', async () => {
    // Arrange: the conversation was last active in the future of this message.
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(
        conversationConditionFailed({
          organizationId: { N: '3' },
          scopeKey: { S: 's' },
          lastMessageAt: { S: '2999-01-01T00:00:00.000Z' },
        }),
      )
      .resolves({});

    // Act
    const response = await post(appendBody);

    // Assert
    expect(response.statusCode).toBe(201);
    const [latest, earlier] = ddb
      .commandCalls(TransactWriteCommand)
      .map((t) => t.args[0].input.TransactItems!);
    expect(earlier?.[0]?.Put?.Item?.id).toBe(latest?.[0]?.Put?.Item?.id);
    const update = earlier?.[1]?.Update;
    expect(update?.ConditionExpression).toBe(
      '#organizationId = :organizationId AND #scopeKey = :scopeKey AND attribute_not_exists(#deletingAt)' +
        ' AND attribute_not_exists(#databaseId) AND #lastMessageAt > :at',
    );
    expect(update?.UpdateExpression).not.toMatch(/lastMessageAt|GSI1/);
    expect(update?.UpdateExpression).toMatch(/ADD #messageCount :one/);
  });

  it('carries the database of a conversation that has one, read from the cancellation, at once', async () => {
    // Arrange: the conversation is about a database (a chat message named it).
    const database = '01900000-0000-7000-8000-0000000000db';
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(
        conversationConditionFailed({
          organizationId: { N: '3' },
          scopeKey: { S: 's' },
          databaseId: { S: database },
          lastMessageAt: { S: '2000-01-01T00:00:00.000Z' },
        }),
      )
      .resolves({});

    // Act
    const response = await post(appendBody);

    // Assert: the second attempt stores the message with the database, checked on the conversation.
    expect(response.statusCode).toBe(201);
    const [first, second] = ddb.commandCalls(TransactWriteCommand).map((t) => t.args[0].input.TransactItems!);
    expect(first?.[0]?.Put?.Item).not.toHaveProperty('databaseId');
    expect(second?.[0]?.Put?.Item).toMatchObject({ id: first?.[0]?.Put?.Item?.id, databaseId: database });
    expect(second?.[0]?.Put?.Item).not.toHaveProperty('kept');
    const update = second?.[1]?.Update;
    expect(update?.ConditionExpression).toContain(
      'AND (attribute_not_exists(#databaseId) OR #databaseId = :databaseId)',
    );
    expect(update?.ConditionExpression).not.toContain('AND attribute_not_exists(#databaseId)');
    expect(update?.ExpressionAttributeValues).toMatchObject({ ':databaseId': database });
  });

  it('is 404 for a conversation of another scope, read from the cancellation, in one call', async () => {
    ddb.on(TransactWriteCommand).rejects(
      conversationConditionFailed({
        organizationId: { N: '3' },
        scopeKey: { S: 'someone-else' },
        lastMessageAt: { S: '2026-01-01T00:00:00.000Z' },
      }),
    );
    expectError(await post(appendBody), 404, 'NOT_FOUND', 'NOT_FOUND_RESOURCE');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('gives up after its attempts with 503 and Retry-After', async () => {
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'conflict',
        $metadata: {},
        CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
      }),
    );
    const waits: number[] = [];
    const error = await appendMessage(
      {
        conversationId: CONVERSATION,
        organizationId: 3,
        scope: { scopeId: 's' },
        role: 'user',
        content: 'x',
        conversation: { userId: '' },
      },
      { wait: async (ms) => void waits.push(ms), random: () => 0.999 },
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '1' } });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(12);
    // Jittered exponential waits, capped at 1 s.
    expect(waits.slice(0, 4)).toEqual([19, 39, 79, 159]);
    expect(Math.max(...waits)).toBe(999);
  });

  it('passes a DynamoDB failure that is not a refusal on as itself', async () => {
    ddb.on(TransactWriteCommand).rejects(Object.assign(new Error('boom'), { name: 'InternalServerError' }));
    const response = await post(appendBody);
    expectError(response, 503, 'SERVICE_UNAVAILABLE', 'SYSTEM_SERVICE_UNAVAILABLE');
  });
});

describe('warm path: DynamoDB calls per request', () => {
  const afterWarmUp = async (request: () => Promise<unknown>) => {
    await request();
    ddb.resetHistory();
    await request();
    return ddb.calls().map((c) => c.args[0].constructor.name);
  };

  it('lists with one Query', async () => {
    expect(await afterWarmUp(() => list({ limit: '5' }))).toEqual(['QueryCommand']);
  });

  it('reads the scope’s messages with one Query, and a conversation’s with one Query too', async () => {
    ddb
      .on(QueryCommand)
      .resolves({ Items: [message('0190a1b2-c3d5-7e5f-8a9b-0c1d2e3f4a5c')], Count: 1, ScannedCount: 1 });
    expect(await afterWarmUp(() => readHistory({}))).toEqual(['QueryCommand']);
    expect(await afterWarmUp(() => readHistory({ conversation_id: CONVERSATION }))).toEqual(['QueryCommand']);
    const query = ddb.commandCalls(QueryCommand).at(-1)?.args[0].input;
    expect(query).toMatchObject({ FilterExpression: 'GSI2PK = :scope', ConsistentRead: true });
  });

  it('appends with one TransactWriteItems', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    expect(await afterWarmUp(() => post(appendBody))).toEqual(['TransactWriteCommand']);
  });

  it('tells a conversation of another scope from the filtered read, without a second call', async () => {
    ddb.on(QueryCommand).resolves({ Items: [], Count: 0, ScannedCount: 51 });
    await readHistory({});
    ddb.resetHistory();
    expectError(await readHistory({ conversation_id: CONVERSATION }), 404, 'NOT_FOUND', 'NOT_FOUND_RESOURCE');
    expect(ddb.calls()).toHaveLength(1);
  });
});

describe('delete', () => {
  it('marks, deletes messages in batches of 25 retrying UnprocessedItems, then deletes the conversation', async () => {
    // Arrange: 30 messages; the first batch leaves one item unprocessed once.
    ddb.on(UpdateCommand).resolves({});
    ddb.on(DeleteCommand).resolves({});
    const keys = Array.from({ length: 30 }, (_, index) => ({
      PK: `CONV#3#${CONVERSATION}`,
      SK: `MSG#${String(index).padStart(3, '0')}`,
    }));
    ddb.on(QueryCommand).resolves({ Items: keys, Count: 30, ScannedCount: 30 });
    ddb
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { 'tabletalk-unit': [{ DeleteRequest: { Key: keys[0] } }] } })
      .resolves({});

    // Act
    const response = await remove(CONVERSATION);

    // Assert
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ success: true, data: { message: 'Conversation deleted' } });
    const order = ownCalls()
      .map((c) => c.args[0].constructor.name)
      .filter((name) => name !== 'GetCommand');
    expect(order[0]).toBe('UpdateCommand');
    expect(order.at(-1)).toBe('DeleteCommand');
    const batches = ddb
      .commandCalls(BatchWriteCommand)
      .map((c) => c.args[0].input.RequestItems?.['tabletalk-unit']?.length);
    expect(batches.sort()).toEqual([1, 25, 5].sort());
    const mark = ownCalls().find((c) => c.args[0] instanceof UpdateCommand);
    expect(mark?.args[0].input).toMatchObject({
      ConditionExpression: 'attribute_exists(PK) AND organizationId = :org AND scopeKey = :scope',
      ExpressionAttributeValues: expect.objectContaining({ ':org': 3, ':scope': 's' }),
    });
  });

  it('is 404 when the mark finds no conversation of the caller’s', async () => {
    ddb.on(UpdateCommand).rejects(
      Object.assign(new Error('The conditional request failed'), {
        name: 'ConditionalCheckFailedException',
      }),
    );
    expectError(await remove(CONVERSATION), 404, 'NOT_FOUND', 'NOT_FOUND_RESOURCE');
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });
});
