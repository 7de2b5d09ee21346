import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearAnswerCatalogs } from '#lib/answer/catalog.ts';
import { chatMessageLimits, conversationIdOf } from '#lib/answer/inputs.ts';
import { clearEngines } from '#lib/answer/registry.ts';
import { clearPrincipalCaches } from '#lib/auth/principal.ts';
import type { ErrorEnvelope } from '#lib/errors.ts';
import { scopeKey, scopePartition } from '#lib/store/scopes.ts';
import { handler as chatMessage } from '../../functions/chat-message.ts';
import { handler as conversationMessage } from '../../functions/conversation-message.ts';
import { ordersCatalog } from '../fixtures/catalogs/orders.ts';
import { type ApiEventInit, apiEvent, invoke } from '../helpers/events.ts';
import {
  databaseItem,
  FAKE_ORG,
  FAKE_PK,
  FAKE_SK,
  type FakeTable,
  fakeAnsweringTable,
} from '../helpers/fake-table.ts';

const ddb = mockClient(DynamoDBDocumentClient);

const ORG = FAKE_ORG;
const DATABASE = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5f';
const OTHER_DATABASE = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a50';
const CONVERSATION = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const PERSONALITY = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a61';
const SK = FAKE_SK;
const PK = FAKE_PK;

let table: FakeTable;
const put = (item: Record<string, unknown>) => table.put(item);

beforeEach(() => {
  clearAnswerCatalogs();
  table = fakeAnsweringTable(ddb, {
    pkDatabase: DATABASE,
    databases: [databaseItem(DATABASE), databaseItem(OTHER_DATABASE)],
    personality: { id: PERSONALITY, instructions: 'Be brief.' },
    catalog: ordersCatalog,
  });
});

afterEach(() => {
  ddb.reset();
  clearPrincipalCaches();
  clearEngines();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const headers = (key = SK, extra: Record<string, string> = {}) => ({
  'X-API-Key': key,
  'X-Tenant-Id': '1',
  ...extra,
});

const chat = (body: unknown, init: ApiEventInit = {}) =>
  invoke<ErrorEnvelope & { data: Record<string, unknown> }>(chatMessage, {
    method: 'POST',
    path: '/api/v1/chat/message',
    headers: headers(),
    body,
    ...init,
  });

const toConversation = (id: string, body: unknown, init: ApiEventInit = {}) =>
  invoke<ErrorEnvelope & { data: Record<string, unknown> }>(conversationMessage, {
    method: 'POST',
    path: `/api/v1/chat/${id}/message`,
    resource: '/api/v1/chat/{conversation_id}/message',
    pathParameters: { conversation_id: id },
    headers: headers(),
    body,
    ...init,
  });

const expectError = (
  response: { statusCode: number; body: ErrorEnvelope },
  status: number,
  code: string,
  errorCode: string,
  field?: string,
) => {
  expect({
    status: response.statusCode,
    code: response.body.error.code,
    errorCode: response.body.error_code,
  }).toEqual({
    status,
    code,
    errorCode,
  });
  if (field) expect(response.body.details.map((issue) => issue.field)).toContain(field);
};

/** The address of the suite's caller: no scope, tenant 1 of a database that filters by tenant. */
const CALLER = { scopeId: undefined, tenant: '1' };

const conversationItem = (extra: Record<string, unknown> = {}) => ({
  PK: `CONV#${ORG}#${CONVERSATION}`,
  SK: 'CONV',
  id: CONVERSATION,
  organizationId: ORG,
  scopeKey: scopeKey(CALLER),
  messageCount: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastMessageAt: '2026-01-01T00:00:00.000Z',
  databaseId: DATABASE,
  ...extra,
});

/**
 * A conversation as the chat flow stores it: the item and its first question, which carries what
 * the conversation keeps (lib/store/messages.ts `kept`), from which a follow-up reads it.
 */
const putConversation = (extra: Record<string, unknown> = {}) => {
  const conversation = conversationItem(extra);
  put(conversation);
  put({
    PK: conversation.PK,
    SK: 'MSG#0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a70',
    GSI2PK: scopePartition(ORG, CALLER),
    GSI2SK: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a70',
    type: 'message',
    id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a70',
    conversationId: CONVERSATION,
    organizationId: ORG,
    role: 'user',
    content: 'How many orders?',
    createdAt: '2026-01-01T00:00:00.000Z',
    kept: {
      databaseId: conversation.databaseId,
      ...(extra.personalityId === undefined ? {} : { personalityId: extra.personalityId }),
      tenantKey: 'tenant:1',
    },
  });
};

const written = () => ddb.commandCalls(TransactWriteCommand).length;

describe('the chat variant of POST /chat/message', () => {
  it('answers in the superset shape, in a new conversation, with Server-Timing', async () => {
    // Act
    const response = await chat({ message: '  hello  ', database_id: DATABASE });

    // Assert
    expect(response.statusCode).toBe(200);
    expect(response.body.data).toEqual({
      message: expect.stringMatching(/^Hello!/),
      conversation_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      session_id: response.body.data.conversation_id,
      sources: [],
      query_type: 'conversational',
      execution_time_ms: expect.any(Number),
      results: [],
      row_count: 0,
      results_truncated: false,
      sql: null,
      interpretation: null,
      message_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      answered_by: 'builtin',
      chart: null,
      suggestions: expect.any(Array),
    });
    expect(response.headers['server-timing']).toMatch(/^load;dur=[\d.]+, engine;dur=.*total;dur=[\d.]+$/);
    const question = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Put?.Item;
    expect(question).toMatchObject({ role: 'user', content: 'hello' });
  });

  it('takes session_id as the conversation id; both ids must agree', async () => {
    // Arrange
    putConversation();

    // Act
    const bySession = await chat({ message: 'hello', session_id: CONVERSATION });
    const conflicting = await chat({
      message: 'hello',
      session_id: CONVERSATION,
      conversation_id: OTHER_DATABASE,
    });

    // Assert
    expect(bySession.statusCode).toBe(200);
    expect(bySession.body.data.conversation_id).toBe(CONVERSATION);
    expectError(conflicting, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR', 'body.session_id');
  });

  it('needs database_id on a first message: 400 on body.database_id, nothing read or written', async () => {
    // Act
    const response = await chat({ message: 'How many orders?' });

    // Assert
    expectError(response, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR', 'body.database_id');
    expect(response.body.details).toEqual([
      { field: 'body.database_id', message: expect.stringMatching(/first message/), code: 'REQUIRED' },
    ]);
    expect(written()).toBe(0);
  });

  it.each([
    [{ message: '' }, 'body.message', /must not be empty/],
    [{ message: '   ' }, 'body.message', /must not be empty/],
    [{ message: 'x'.repeat(4_001) }, 'body.message', /at most 4,000/],
    [{ message: 42 }, 'body.message', /string/],
    [{ message: 'hi', database_id: 'nope' }, 'body.database_id', /UUID/],
    [{ message: 'hi', personality_id: 'nope', database_id: DATABASE }, 'body.personality_id', /UUID/],
    [{ message: 'hi', session_id: 7 }, 'body.session_id', /UUID/],
  ])('refuses %o with a 400 on its field', async (body, field, message) => {
    // Act
    const response = await chat(body);

    // Assert
    expectError(response, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR', field);
    expect(response.body.details.find((issue) => issue.field === field)?.message).toMatch(message);
    expect(written()).toBe(0);
  });

  it('accepts a message of exactly 4,000 characters and null optional ids', async () => {
    // Act
    const response = await chat({
      message: `hello ${'x'.repeat(3_994)}`,
      database_id: DATABASE,
      personality_id: null,
      session_id: null,
    });

    // Assert
    expect(response.statusCode).toBe(200);
  });
});

describe('databases, keys and tenants', () => {
  it('answers 404 DATABASE_NOT_FOUND for an unknown database, and writes nothing', async () => {
    // Act
    const response = await chat({ message: 'hello', database_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4aff' });

    // Assert
    expectError(response, 404, 'DATABASE_NOT_FOUND', 'NOT_FOUND_DATABASE');
    expect(written()).toBe(0);
  });

  it('lets a pk_ key use its own database only: another one is 403 before any lookup', async () => {
    // Arrange: a pk_ key answers only on a database without tenant scoping (see below).
    put(databaseItem(DATABASE, { requiresOrganizationScoping: false }));
    const pkHeaders = { 'X-API-Key': PK };

    // Act
    const own = await chat({ message: 'hello', database_id: DATABASE }, { headers: pkHeaders });
    const gets = ddb.commandCalls(GetCommand).length;
    const other = await chat({ message: 'hello', database_id: OTHER_DATABASE }, { headers: pkHeaders });

    // Assert
    expect(own.statusCode).toBe(200);
    expectError(other, 403, 'FORBIDDEN', 'AUTH_INSUFFICIENT_PERMISSIONS');
    expect(ddb.commandCalls(GetCommand).length).toBe(gets);
  });

  it('applies the tenant rules of the database: missing, malformed, and scoping off', async () => {
    // Arrange
    put(databaseItem(OTHER_DATABASE, { requiresOrganizationScoping: false }));

    // Act
    const missing = await chat({ message: 'hello', database_id: DATABASE }, { headers: { 'X-API-Key': SK } });
    const malformed = await chat(
      { message: 'hello', database_id: DATABASE },
      { headers: headers(SK, { 'X-Tenant-Id': 'acme' }) },
    );
    const notScoped = await chat({ message: 'hello', database_id: OTHER_DATABASE });

    // Assert
    expectError(missing, 403, 'INVALID_TENANT_ID', 'AUTH_INSUFFICIENT_PERMISSIONS', 'X-Tenant-Id');
    expect(missing.body.details[0]?.code).toBe('MISSING_REQUIRED_HEADER');
    expectError(malformed, 403, 'INVALID_TENANT_ID', 'AUTH_INSUFFICIENT_PERMISSIONS', 'X-Tenant-Id');
    expect(malformed.body.details[0]?.code).toBe('INVALID_FORMAT');
    expectError(notScoped, 403, 'INVALID_TENANT_ID', 'AUTH_INSUFFICIENT_PERMISSIONS');
    expect(notScoped.body.message).toBe('Organization scoping is not enabled for this database');
    expect(written()).toBe(0);
  });

  it('refuses a disabled database (403) and one without a schema index (422)', async () => {
    // Arrange
    put(databaseItem(OTHER_DATABASE, { status: 'disabled' }));
    const unindexed = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a51';
    const { schemaIndex: _, ...withoutIndex } = databaseItem(unindexed);
    put(withoutIndex);

    // Act
    const disabled = await chat({ message: 'hello', database_id: OTHER_DATABASE });
    const notIndexed = await chat({ message: 'hello', database_id: unindexed });

    // Assert
    expectError(disabled, 403, 'FORBIDDEN', 'AUTH_INSUFFICIENT_PERMISSIONS');
    expectError(notIndexed, 422, 'VALIDATION_ERROR', 'VALIDATION_ERROR');
    expect(notIndexed.body.error.details).toBe('SCHEMA_NOT_INDEXED');
  });
});

describe('POST /chat/{conversation_id}/message', () => {
  it('creates a conversation under a new id when database_id is given, and is 404 without it', async () => {
    // Arrange
    const id = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a99';

    // Act
    const created = await toConversation(id, { message: 'hello', database_id: DATABASE });
    const unknown = await toConversation(id, { message: 'hello' });

    // Assert
    expect(created.statusCode).toBe(200);
    expect(created.body.data).toMatchObject({ conversation_id: id, session_id: id });
    expectError(unknown, 404, 'NOT_FOUND', 'NOT_FOUND_RESOURCE');
  });

  it('continues a conversation on its own database; naming another one is a 400 that says so', async () => {
    // Arrange
    putConversation();

    // Act
    const continued = await toConversation(CONVERSATION, { message: 'hello' });
    const same = await toConversation(CONVERSATION, {
      message: 'hello',
      database_id: DATABASE.toUpperCase(),
    });
    const other = await toConversation(CONVERSATION, { message: 'hello', database_id: OTHER_DATABASE });

    // Assert
    expect(continued.statusCode).toBe(200);
    expect(same.statusCode).toBe(200);
    expectError(other, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR', 'body.database_id');
    expect(other.body.message).toMatch(/keeps the database of its first message/);
  });

  it('reads what the conversation keeps from its messages, and from its item only when none carries it', async () => {
    // Arrange: one conversation as chat stores it, one made by history appends only.
    putConversation();
    const HISTORY = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a7b';
    put(conversationItem({ PK: `CONV#${ORG}#${HISTORY}`, id: HISTORY, databaseId: OTHER_DATABASE }));
    put({
      PK: `CONV#${ORG}#${HISTORY}`,
      SK: 'MSG#0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a71',
      GSI2PK: scopePartition(ORG, CALLER),
      GSI2SK: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a71',
      type: 'message',
      id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a71',
      conversationId: HISTORY,
      organizationId: ORG,
      role: 'user',
      content: 'appended by the integrator',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const conversationReads = () =>
      ddb.commandCalls(GetCommand).filter((call) => call.args[0].input.Key?.SK === 'CONV').length;

    // Act
    const continued = await toConversation(CONVERSATION, { message: 'hello' });
    const readsAfterChat = conversationReads();
    const fromHistory = await toConversation(HISTORY, { message: 'hello', database_id: DATABASE });

    // Assert: the chat conversation's database came with its messages; the other's from its item.
    expect(continued.statusCode).toBe(200);
    expect(readsAfterChat).toBe(0);
    expectError(fromHistory, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR', 'body.database_id');
    expect(conversationReads()).toBe(1);
  });

  it('answers another scope’s conversation 404 from its messages, and writes nothing', async () => {
    // Arrange: the conversation is scope alice's.
    const alice = { scopeId: 'alice', tenant: '1' };
    putConversation({ scopeKey: scopeKey(alice) });
    const message = [...table.items.values()].find((item) => String(item.SK).startsWith('MSG#'));
    put({ ...message, GSI2PK: scopePartition(ORG, alice) });

    // Act
    const response = await toConversation(
      CONVERSATION,
      { message: 'hello' },
      { headers: headers(SK, { 'X-Scope-Id': 'bob' }) },
    );

    // Assert
    expectError(response, 404, 'NOT_FOUND', 'NOT_FOUND_RESOURCE');
    expect(written()).toBe(0);
  });

  it('refuses a pk_ key on a conversation about another database', async () => {
    // Arrange
    putConversation({ databaseId: OTHER_DATABASE });

    // Act
    const response = await toConversation(CONVERSATION, { message: 'hello' }, { headers: headers(PK) });

    // Assert
    expectError(response, 403, 'FORBIDDEN', 'AUTH_INSUFFICIENT_PERMISSIONS');
  });

  it('keeps the personality of the first message; an unknown one is 404 NOT_FOUND_PERSONALITY', async () => {
    // Arrange
    putConversation({ personalityId: PERSONALITY });

    // Act
    const kept = await toConversation(CONVERSATION, { message: 'hello' });
    const other = await toConversation(CONVERSATION, {
      message: 'hello',
      personality_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a62',
    });
    const unknown = await chat({
      message: 'hello',
      database_id: DATABASE,
      personality_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a62',
    });

    // Assert
    expect(kept.statusCode).toBe(200);
    const answer = ddb.commandCalls(TransactWriteCommand)[1]?.args[0].input.TransactItems?.[0]?.Put?.Item;
    expect(JSON.parse(answer?.metadataJson as string)).toMatchObject({ personality_id: PERSONALITY });
    expectError(other, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR', 'body.personality_id');
    expectError(unknown, 404, 'NOT_FOUND', 'NOT_FOUND_PERSONALITY');
  });

  it('reports an engine that is not configured as EXTERNAL_LLM_ERROR, after the tenant checks, storing nothing', async () => {
    // Arrange: a personality answered by the OpenAI-compatible engine, without a model configured
    vi.stubEnv('OPENAI_MODEL', '');
    const gpt = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a63';
    put({
      PK: `ORG#${ORG}`,
      SK: `PERSONALITY#${gpt}`,
      id: gpt,
      organizationId: ORG,
      name: 'GPT',
      engine: 'openai',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const body = { message: 'hello', database_id: DATABASE, personality_id: gpt };

    // Act
    const untenanted = await chat(body, { headers: { 'X-API-Key': SK } });
    const response = await chat(body);

    // Assert
    expectError(untenanted, 403, 'INVALID_TENANT_ID', 'AUTH_INSUFFICIENT_PERMISSIONS');
    expectError(response, 500, 'EXTERNAL_LLM_ERROR', 'EXTERNAL_LLM_ERROR', 'provider');
    expect(response.body.details[0]).toMatchObject({ message: 'openai', code: 'ENGINE_UNAVAILABLE' });
    expect(written()).toBe(0);
  });

  it('refuses a path id that is not a UUID', async () => {
    // Act
    const response = await toConversation('nope', { message: 'hello', database_id: DATABASE });

    // Assert
    expectError(response, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR', 'path.conversation_id');
  });
});

describe('inputs', () => {
  it('counts a body with message as answering and anything else as standard', () => {
    const event = (body: string | null, base64 = false) => {
      const built = apiEvent({
        method: 'POST',
        path: '/api/v1/chat/message',
        ...(body === null ? {} : { body }),
      });
      return base64 && body
        ? { ...built, body: Buffer.from(body).toString('base64'), isBase64Encoded: true }
        : built;
    };
    expect(chatMessageLimits(event('{"message":"hi"}'))).toBe('answering');
    expect(chatMessageLimits(event('{"message":"hi"}', true))).toBe('answering');
    expect(chatMessageLimits(event('{"role":"user","content":"x","conversation_id":"y"}'))).toBe('standard');
    expect(chatMessageLimits(event('{"role":"user","message":"x"}'))).toBe('standard');
    expect(chatMessageLimits(event('not json'))).toBe('standard');
    expect(chatMessageLimits(event(null))).toBe('standard');
  });

  it('reads the conversation id from conversation_id or session_id', () => {
    expect(
      conversationIdOf({
        message: 'x',
        session_id: 'a',
        conversation_id: undefined,
        database_id: undefined,
        personality_id: undefined,
      }),
    ).toBe('a');
    expect(
      conversationIdOf({
        message: 'x',
        session_id: 'a',
        conversation_id: 'a',
        database_id: undefined,
        personality_id: undefined,
      }),
    ).toBe('a');
    expect(
      conversationIdOf({
        message: 'x',
        session_id: undefined,
        conversation_id: undefined,
        database_id: undefined,
        personality_id: undefined,
      }),
    ).toBeUndefined();
  });
});
