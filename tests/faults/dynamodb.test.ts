// DynamoDB faults through the local gateway, with real components only: a DynamoDB Local of this
// file's own (data on disk, so it can be stopped and started again), reached through a loopback
// fault proxy that can refuse, hang or throttle. Each fault must end in 503 SERVICE_UNAVAILABLE
// with Retry-After in a bounded time, leave the table consistent (no conversation without its
// messages' count, no message without its conversation), and the same gateway must serve again
// once the fault clears.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DynamoDBClient, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationKey } from '#lib/store/conversations.ts';
import { localClient, type RunningDynamoDb, startDynamoDb } from '../../local/dynamodb.ts';
import { ensureTable } from '../../local/table.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { type FaultProxy, startHttpFaultProxy } from '../helpers/fault-proxy.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { startTestGateway } from '../helpers/gateway.ts';

const TABLE = 'tabletalk-faults';
/** One attempt's bound for the service's DynamoDB client in this file (lib/store/client.ts). */
const ATTEMPT_TIMEOUT_MS = 700;

let dataDir: string;
let dynamo: RunningDynamoDb;
let proxy: FaultProxy;
let table: DynamoDBClient;
let gateway: { url: string; close(): Promise<void> };
let org: { sk: string; organization: { id: number } };
let databaseId: string;
const saved = { ...process.env };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tabletalk-faults-'));
  dynamo = await startDynamoDb({ dataDir });
  table = localClient(dynamo.endpoint);
  await ensureTable(table, TABLE);
  proxy = await startHttpFaultProxy(dynamo.endpoint);
  // The service's settings, read on first use: through the proxy, with short attempts.
  process.env.DYNAMODB_ENDPOINT = proxy.url;
  process.env.TABLE_NAME = TABLE;
  process.env.DYNAMODB_TIMEOUT_MS = String(ATTEMPT_TIMEOUT_MS);
  gateway = await startTestGateway();
  org = await makeOrganization('enterprise');
  databaseId = (await registerDatabase({ organizationId: org.organization.id })).id;
}, 90_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
  await proxy?.close();
  table?.destroy();
  await dynamo?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  process.env = saved;
});

type Headers = Record<string, string>;
const headers = (scope = 'faults'): Headers => ({
  'X-API-Key': org.sk,
  'X-Scope-Id': scope,
  'X-Tenant-Id': '1',
  'Content-Type': 'application/json',
});

const chat = (body: Record<string, unknown>, scope?: string) =>
  fetch(`${gateway.url}/api/v1/chat/message`, {
    method: 'POST',
    headers: headers(scope),
    body: JSON.stringify(body),
  });

const appendTo = (conversationId: string, content: string, scope?: string) =>
  chat({ conversation_id: conversationId, role: 'user', content }, scope);

const listConversations = (scope?: string) =>
  fetch(`${gateway.url}/api/v1/chat/conversations`, { headers: headers(scope) });

/** The 503 of an unavailable dependency, in the envelope, with Retry-After. */
const expectUnavailable = async (response: Response) => {
  const body = await jsonOf(response);
  expect({ status: response.status, code: body.error?.code, errorCode: body.error_code }).toEqual({
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    errorCode: 'SYSTEM_SERVICE_UNAVAILABLE',
  });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(body.trace_id).toBe(response.headers.get('x-request-id'));
};

/** A response body as parsed JSON, loosely typed the way JSON.parse is. */
const jsonOf = (response: Response): Promise<ReturnType<typeof JSON.parse>> => response.json();

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};

/**
 * Reads the table directly and checks one conversation: its item exists exactly when it has
 * messages, and its messageCount equals the number of its message items. Returns the message ids.
 */
const expectConsistent = async (conversationId: string): Promise<string[]> => {
  const { Items = [] } = await table.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': { S: conversationKey(org.organization.id, conversationId).PK } },
      ConsistentRead: true,
    }),
  );
  const conversation = Items.find((item) => item.SK?.S === 'CONV');
  const messages = Items.filter((item) => item.SK?.S?.startsWith('MSG#'));
  if (messages.length === 0) {
    expect(conversation).toBeUndefined();
  } else {
    expect(conversation, `conversation ${conversationId} has messages but no item`).toBeDefined();
    expect(Number(conversation?.messageCount?.N)).toBe(messages.length);
  }
  return messages.map((item) => String(item.SK?.S).slice('MSG#'.length));
};

/** Every message item of the table belongs to a conversation item. */
const expectNoOrphans = async () => {
  const { Items = [] } = await table.send(new ScanCommand({ TableName: TABLE, ConsistentRead: true }));
  const conversations = new Set(Items.filter((item) => item.SK?.S === 'CONV').map((item) => item.PK?.S));
  const orphans = Items.filter((item) => item.SK?.S?.startsWith('MSG#') && !conversations.has(item.PK?.S));
  expect(orphans).toEqual([]);
};

// First: the outages below spend the client's retry quota (the SDK's standard retry mode), which
// refills only as calls succeed; throttling right after them would see fewer retries.
describe('DynamoDB throttling', () => {
  it('is retried with backoff, and a request succeeds when the throttling clears', async () => {
    // Arrange
    proxy.resetCounts();

    // Act: the next two calls are throttled, then DynamoDB answers again.
    proxy.set('throttle', { times: 2 });
    const response = await listConversations();

    // Assert
    expect(response.status).toBe(200);
    expect(proxy.faulted).toBe(2);
    proxy.set('pass');
  });

  it('ends in 503 with Retry-After after the client’s attempts when it persists, and recovers', async () => {
    // Arrange
    proxy.resetCounts();

    // Act
    proxy.set('throttle');
    const [response, ms] = await timed(() => listConversations());
    const appended = await appendTo(randomUUID(), 'while throttled');
    proxy.set('pass');

    // Assert: the failing call was tried three times (maxAttempts), not once and not forever.
    await expectUnavailable(response);
    await expectUnavailable(appended);
    const attempts = [...proxy.seen.values()];
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(3);
    expect(proxy.faulted % 3).toBe(0);
    expect(ms).toBeLessThan(10_000);
    await expectNoOrphans();
    expect((await listConversations()).status).toBe(200);
  });
});

describe('DynamoDB refusing connections', () => {
  it('answers 503 with Retry-After, writes nothing half, and serves again when it is back', async () => {
    // Arrange: a conversation with an answered question.
    const first = await chat({ message: 'How many orders were placed in 2025?', database_id: databaseId });
    expect(first.status).toBe(200);
    const conversationId = (await jsonOf(first)).data.conversation_id as string;
    const before = await expectConsistent(conversationId);
    expect(before).toHaveLength(2);

    // Act: the writes of a message fail, then every call.
    proxy.set('refuse', { only: (operation) => operation === 'TransactWriteItems' });
    const [answered, ms] = await timed(() =>
      chat({ message: 'How many customers are there?', conversation_id: conversationId }),
    );
    const appended = await appendTo(conversationId, 'an appended note');
    proxy.set('refuse');
    const listed = await listConversations();

    // Assert
    await expectUnavailable(answered);
    expect(ms).toBeLessThan(10_000);
    await expectUnavailable(appended);
    await expectUnavailable(listed);
    proxy.set('pass');
    expect(await expectConsistent(conversationId)).toEqual(before);

    // Recovery: the same gateway, no restart.
    const again = await chat({ message: 'How many customers are there?', conversation_id: conversationId });
    expect(again.status).toBe(200);
    expect(await expectConsistent(conversationId)).toHaveLength(4);
    expect((await listConversations()).status).toBe(200);
  });

  it('stopped mid-run: appends in flight fail with 503, none is lost or half-written, and it serves again after a restart', async () => {
    // Arrange
    const conversationId = randomUUID();
    expect((await appendTo(conversationId, 'first', 'burst')).status).toBe(201);

    // Act: 12 appends at once; DynamoDB Local is killed while they run, then started again on its data.
    const responses = Array.from({ length: 12 }, (_, n) =>
      appendTo(conversationId, `burst ${n}`, 'burst').then(async (response) => ({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: await jsonOf(response),
      })),
    );
    await new Promise((done) => setTimeout(done, 40));
    dynamo.process.kill('SIGKILL');
    await new Promise((done) => dynamo.process.once('exit', done));
    const settled = await Promise.all(responses);
    const port = dynamo.port;
    dynamo = await startDynamoDb({ port, dataDir });

    // Assert: each answered 201 or 503 (with Retry-After); every 201 is stored; counts agree.
    for (const response of settled) {
      expect([201, 503]).toContain(response.status);
      if (response.status === 503) {
        expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
        expect(Number(response.retryAfter)).toBeGreaterThan(0);
      }
    }
    const stored = await expectConsistent(conversationId);
    for (const response of settled.filter((r) => r.status === 201)) {
      expect(stored).toContain(response.body.data.message_id);
    }
    expect(settled.some((response) => response.status === 503)).toBe(true);
    await expectNoOrphans();

    // Recovery: the same gateway serves the conversation and takes new appends.
    const appended = await appendTo(conversationId, 'after the restart', 'burst');
    expect(appended.status).toBe(201);
    const history = await fetch(`${gateway.url}/api/v1/chat/${conversationId}/history`, {
      headers: headers('burst'),
    });
    expect(history.status).toBe(200);
    expect((await jsonOf(history)).data.messages).toHaveLength(stored.length + 1);
  }, 60_000);

  it('hanging: each attempt is cut at its timeout and the request ends in 503, not at the function timeout', async () => {
    proxy.set('hang');
    const [response, ms] = await timed(() => listConversations());
    proxy.set('pass');
    await expectUnavailable(response);
    // Three attempts of ATTEMPT_TIMEOUT_MS and the waits between them.
    expect(ms).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS);
    expect(ms).toBeLessThan(8_000);
    expect((await listConversations()).status).toBe(200);
  });
});
