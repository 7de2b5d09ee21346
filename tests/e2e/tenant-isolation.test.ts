// Tenant isolation on the answering endpoints, end to end through the local gateway (docs/design.md
// "Tenant filtering and the SQL guard"): the row policy's `scope_required` (a request without
// X-Scope-Id is 403, not "every scope of the tenant"), positive-integer tenant ids, and "a
// conversation keeps its tenant" on the chat variant of POST /chat/message (conversation_id and
// session_id), POST /chat/{id}/message and the stream: a later message under another tenant is
// the 404 of an unknown conversation, stores nothing and shows nothing of the conversation.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findConversation } from '#lib/store/conversations.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { closeConnectors, demoPolicy, registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { jsonOf, startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
/** The demo shop: tenants on org_id, no scope column. */
let shop: DatabaseRecord;
/** The demo shop with store_id as the scope column and `scope_required`. */
let scopedShop: DatabaseRecord;

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
  shop = await registerDatabase({ organizationId: acme.organization.id });
  scopedShop = await registerDatabase({
    organizationId: acme.organization.id,
    name: 'Demo shop, one store per scope',
    policy: { ...demoPolicy, scope_column: 'store_id', scope_required: true },
  });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

type Headers = Record<string, string>;
const QUESTION = 'How many orders were placed in 2025?';

const post = (path: string, headers: Headers, body: unknown) =>
  fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
const chat = (headers: Headers, body: unknown) => post('/api/v1/chat/message', headers, body);
const toConversation = (id: string, headers: Headers, body: unknown) =>
  post(`/api/v1/chat/${id}/message`, headers, body);
const stream = (id: string, headers: Headers, query: Record<string, string> = {}) =>
  fetch(`${gateway.url}/api/v1/chat/${id}/stream?${new URLSearchParams({ message: QUESTION, ...query })}`, {
    headers,
  });

const tenant = (id: string, scope?: string): Headers => ({
  'X-API-Key': acme.sk,
  'X-Tenant-Id': id,
  ...(scope === undefined ? {} : { 'X-Scope-Id': scope }),
});

/** The envelope of an error response, with its status. */
const errorOf = async (response: Response) => {
  const body = await jsonOf(response);
  return {
    status: response.status,
    code: body.error?.code,
    errorCode: body.error_code,
    message: body.message,
    details: body.details,
    text: JSON.stringify(body),
  };
};

describe('scope_required', () => {
  it('refuses the answering endpoints without X-Scope-Id: 403, X-Scope-Id MISSING_REQUIRED_HEADER', async () => {
    const responses = [
      await chat(tenant('1'), { message: QUESTION, database_id: scopedShop.id }),
      await toConversation(randomUUID(), tenant('1'), { message: QUESTION, database_id: scopedShop.id }),
      await stream(randomUUID(), tenant('1'), { database_id: scopedShop.id }),
    ];
    for (const response of responses) {
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(await errorOf(response)).toMatchObject({
        status: 403,
        errorCode: 'AUTH_INSUFFICIENT_PERMISSIONS',
        details: [expect.objectContaining({ field: 'X-Scope-Id', code: 'MISSING_REQUIRED_HEADER' })],
      });
    }
  });

  it('answers with X-Scope-Id, filtered to that scope', async () => {
    const response = await chat(tenant('1', '1'), { message: QUESTION, database_id: scopedShop.id });
    expect(response.status).toBe(200);
  });

  it('without scope_required, a request without X-Scope-Id is answered (filtered by tenant only)', async () => {
    const response = await chat(tenant('1'), { message: QUESTION, database_id: shop.id });
    expect(response.status).toBe(200);
  });
});

describe('tenant ids on an integer column', () => {
  it.each(['0', '-1', '9007199254740992'])(
    'refuses X-Tenant-Id: %s with 403 INVALID_FORMAT',
    async (value) => {
      const response = await chat(tenant(value), { message: QUESTION, database_id: shop.id });
      expect(await errorOf(response)).toMatchObject({
        status: 403,
        code: 'INVALID_TENANT_ID',
        errorCode: 'AUTH_INSUFFICIENT_PERMISSIONS',
        details: [expect.objectContaining({ field: 'X-Tenant-Id', code: 'INVALID_FORMAT' })],
      });
    },
  );
});

describe('a conversation keeps its tenant', () => {
  /** A conversation answered once under tenant 1 (its question names a secret word). */
  const startUnderTenant1 = async (scope?: string): Promise<string> => {
    const response = await chat(tenant('1', scope), {
      message: 'How many orders mention zanzibar-7?',
      database_id: shop.id,
    });
    expect(response.status).toBe(200);
    return (await jsonOf(response)).data.conversation_id as string;
  };

  it('answers a later message under another tenant as an unknown conversation, on every answering route', async () => {
    // Arrange
    const id = await startUnderTenant1();
    const before = await findConversation(acme.organization.id, id);
    expect(before?.tenantKey).toBe('tenant:1');
    const unknown = await errorOf(await toConversation(randomUUID(), tenant('2'), { message: QUESTION }));
    expect(unknown).toMatchObject({ status: 404, code: 'NOT_FOUND', errorCode: 'NOT_FOUND_RESOURCE' });

    // Act
    const attempts = [
      await chat(tenant('2'), { message: QUESTION, conversation_id: id }),
      await chat(tenant('2'), { message: QUESTION, session_id: id }),
      await chat(tenant('2'), { message: QUESTION, conversation_id: id, database_id: shop.id }),
      await toConversation(id, tenant('2'), { message: QUESTION }),
      await stream(id, tenant('2')),
    ];

    // Assert: the envelope of a conversation that does not exist, and nothing of this one.
    for (const response of attempts) {
      const error = await errorOf(response);
      expect({
        status: error.status,
        code: error.code,
        errorCode: error.errorCode,
        message: error.message,
      }).toEqual({
        status: unknown.status,
        code: unknown.code,
        errorCode: unknown.errorCode,
        message: unknown.message,
      });
      expect(error.text).not.toContain('zanzibar');
      expect(error.text).not.toContain(shop.id);
    }
    const after = await findConversation(acme.organization.id, id);
    expect(after?.messageCount).toBe(before?.messageCount);
    expect(after?.tenantKey).toBe('tenant:1');
  });

  it('goes on under its own tenant, on every answering route', async () => {
    const id = await startUnderTenant1('alice');
    expect((await chat(tenant('1', 'alice'), { message: QUESTION, conversation_id: id })).status).toBe(200);
    expect((await chat(tenant('1', 'alice'), { message: QUESTION, session_id: id })).status).toBe(200);
    expect((await toConversation(id, tenant('1', 'alice'), { message: QUESTION })).status).toBe(200);
    const streamed = await stream(id, tenant('1', 'alice'));
    expect(streamed.status).toBe(200);
    await streamed.text();
    // Another tenant in the same scope is still refused.
    expect((await toConversation(id, tenant('2', 'alice'), { message: QUESTION })).status).toBe(404);
    expect((await findConversation(acme.organization.id, id))?.messageCount).toBe(10);
  });
});
