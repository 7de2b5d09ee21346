// Faults of the service's other dependencies through the local gateway, with real components
// only: a connected PostgreSQL database behind a loopback TCP fault proxy (refused, never
// answering, slow), an OpenAI-compatible model provider that fails or hangs, and a client that
// leaves in the middle of a stream. Each ends in its catalogue error within the configured
// timeouts, and the next request succeeds without restarting anything.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnector } from '#lib/connectors/index.ts';
import { secretStore } from '#lib/connectors/secrets.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { closeConnectors, demoPolicy, demoSeedFile, registerDatabase } from '../helpers/answering.ts';
import { type FaultProxy, startTcpFaultProxy } from '../helpers/fault-proxy.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { startTestGateway } from '../helpers/gateway.ts';

const CONNECT_TIMEOUT_MS = 1_000;
const STATEMENT_TIMEOUT_MS = 1_000;
const ENGINE_TIMEOUT_MS = 1_500;
/** How long after the statement timeout the PostgreSQL connector gives up on its own. */
const CLIENT_GRACE_MS = 2_000;
const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;

type Org = { sk: string; organization: { id: number } };

let gateway: { url: string; close(): Promise<void> };
let proxy: FaultProxy;
let shop: { id: string };
const saved = { ...process.env };

beforeAll(async () => {
  // Read by the connectors and the engine registry through the settings, on first use.
  process.env.DB_CONNECT_TIMEOUT_MS = String(CONNECT_TIMEOUT_MS);
  process.env.DB_STATEMENT_TIMEOUT_MS = String(STATEMENT_TIMEOUT_MS);
  process.env.ANSWER_ENGINE_TIMEOUT_MS = String(ENGINE_TIMEOUT_MS);
  gateway = await startTestGateway();
  // Nothing listens behind it until a test says so: the port of a database that is down.
  proxy = await startTcpFaultProxy({ host: '127.0.0.1', port: 9 });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
  await proxy?.close();
  process.env = saved;
});

const headersOf = (org: Org, scope = 'faults') => ({
  'X-API-Key': org.sk,
  'X-Scope-Id': scope,
  'X-Tenant-Id': '1',
  'Content-Type': 'application/json',
});

const ask = (org: Org, body: Record<string, unknown>) =>
  fetch(`${gateway.url}/api/v1/chat/message`, {
    method: 'POST',
    headers: headersOf(org),
    body: JSON.stringify(body),
  });

/** A response body as parsed JSON, loosely typed the way JSON.parse is. */
const jsonOf = (response: Response): Promise<ReturnType<typeof JSON.parse>> => response.json();

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};

const expectError = async (response: Response, status: number, code: string) => {
  const body = await jsonOf(response);
  expect({ status: response.status, code: body.error?.code, errorCode: body.error_code }).toEqual({
    status,
    code,
    errorCode: code,
  });
  expect(body.trace_id).toBe(response.headers.get('x-request-id'));
  return body as { details: { field: string; message: string; code: string }[]; error: { details: string } };
};

/**
 * A PostgreSQL database record reached at `url`, indexed with the demo shop's schema (read from
 * PGlite), as `admin database add` would have stored it while the server was up.
 */
const postgresDatabase = async (organizationId: number, url: string) => {
  const settings = {
    organizationId,
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'org_id',
    policy: demoPolicy,
  };
  const demo = await createConnector({
    engine: 'pglite',
    url: 'memory:',
    seedFile: demoSeedFile,
  });
  const catalog = await demo.introspect({ policy: effectivePolicy(settings) }).finally(() => demo.close());
  const id = newDatabaseId();
  return addDatabase({
    id,
    name: 'Remote shop',
    engine: 'postgres',
    ...settings,
    connectionRef: await secretStore().save(id, url),
    schemaIndex: await writeSchemaIndex(id, catalog),
  });
};

const QUESTION = 'How many orders were placed in 2025?';

describe('a connected database that cannot be reached', () => {
  let org: Org;
  let remote: { id: string };

  beforeAll(async () => {
    org = await makeOrganization('enterprise');
    shop = await registerDatabase({ organizationId: org.organization.id });
    remote = await postgresDatabase(
      org.organization.id,
      `postgres://reader:secret@127.0.0.1:${proxy.port}/shop`,
    );
  });

  it('refused: DB_CONNECTION_FAILED at once, and the service answers the next question', async () => {
    proxy.set('refuse');
    const [response, ms] = await timed(() => ask(org, { message: QUESTION, database_id: remote.id }));
    const body = await expectError(response, 500, 'DB_CONNECTION_FAILED');
    expect(JSON.stringify(body)).not.toMatch(/secret|reader/);
    expect(ms).toBeLessThan(CONNECT_TIMEOUT_MS + 3_000);
    // Recovery: the same gateway answers on a database that is up.
    expect((await ask(org, { message: QUESTION, database_id: shop.id })).status).toBe(200);
  });

  it('never answering: DB_CONNECTION_FAILED with CONNECTION_TIMEOUT within the connect timeout', async () => {
    proxy.set('hang');
    const [response, ms] = await timed(() => ask(org, { message: QUESTION, database_id: remote.id }));
    proxy.set('pass');
    const body = await expectError(response, 500, 'DB_CONNECTION_FAILED');
    expect(body.error.details).toBe('CONNECTION_TIMEOUT');
    expect(ms).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS);
    expect(ms).toBeLessThan(CONNECT_TIMEOUT_MS + 3_000);
    expect((await ask(org, { message: QUESTION, database_id: shop.id })).status).toBe(200);
  });
});

describe.runIf(postgresUrl)('a connected PostgreSQL server that becomes slow', () => {
  const name = `faults_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let server: FaultProxy;
  let org: Org;
  let remote: { id: string };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(postgresUrl as string);
    url.pathname = `/${name}`;
    const seed = new pg.Client({ connectionString: url.toString() });
    await seed.connect();
    await seed.query(readFileSync(demoSeedFile, 'utf8'));
    await seed.end();
    server = await startTcpFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${server.port}`;
    org = await makeOrganization('enterprise');
    remote = await registerDatabase({
      organizationId: org.organization.id,
      engine: 'postgres',
      url: url.toString(),
    });
  }, 60_000);

  afterAll(async () => {
    await closeConnectors();
    await server?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });

  it('answers DB_QUERY_FAILED (QUERY_TIMEOUT) within the statement timeout, then answers again', async () => {
    // Arrange: the connection is open and working.
    expect((await ask(org, { message: QUESTION, database_id: remote.id })).status).toBe(200);

    // Act: every answer of the server is held back longer than the statement timeout.
    server.set('delay', { delayMs: STATEMENT_TIMEOUT_MS + CLIENT_GRACE_MS + 2_000 });
    const [response, ms] = await timed(() => ask(org, { message: QUESTION, database_id: remote.id }));
    server.set('pass');

    // Assert
    const body = await expectError(response, 500, 'DB_QUERY_FAILED');
    expect(body.error.details).toBe('QUERY_TIMEOUT');
    // The statement timeout and the client's grace after it (lib/dialects/postgres/connector.ts).
    expect(ms).toBeLessThan(STATEMENT_TIMEOUT_MS + CLIENT_GRACE_MS + 2_000);
    const again = await ask(org, { message: QUESTION, database_id: remote.id });
    expect(again.status).toBe(200);
  }, 30_000);
});

describe('a model provider that fails', () => {
  type Mode = 'fail' | 'hang' | 'ok';
  let mode: Mode = 'ok';
  let calls = 0;
  let provider: Server;
  let org: Org;
  let database: { id: string };

  beforeAll(async () => {
    provider = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls += 1;
        if (mode === 'hang') return;
        if (mode === 'fail') {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":{"message":"internal error"}}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        const reply = { kind: 'conversational', message: 'Hello! Ask me about your orders.' };
        res.end(
          JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(reply) } }] }),
        );
      });
    });
    await new Promise<void>((done) => provider.listen(0, '127.0.0.1', () => done()));
    org = await makeOrganization('enterprise');
    database = await registerDatabase({ organizationId: org.organization.id });
    // This organization answers with the OpenAI-compatible engine on the provider above.
    process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
    process.env.OPENAI_API_KEY = 'test-key';
    process.env.ANSWER_ENGINE_ORGS = `${org.organization.id}=openai:fault-model`;
  });

  afterAll(async () => {
    provider.closeAllConnections();
    await new Promise((done) => provider.close(done));
  });

  it('HTTP 500: EXTERNAL_LLM_ERROR naming the provider, then answers when the provider is back', async () => {
    mode = 'fail';
    const [response, ms] = await timed(() => ask(org, { message: 'hello there', database_id: database.id }));
    const body = await expectError(response, 500, 'EXTERNAL_LLM_ERROR');
    expect(body.details).toContainEqual({ field: 'provider', message: 'openai', code: 'UNAVAILABLE' });
    expect(calls).toBeGreaterThan(0);
    expect(ms).toBeLessThan(ENGINE_TIMEOUT_MS + 3_000);

    mode = 'ok';
    const again = await ask(org, { message: 'hello there', database_id: database.id });
    expect(again.status).toBe(200);
    expect((await jsonOf(again)).data.query_type).toBe('conversational');
  });

  it('hanging: EXTERNAL_LLM_ERROR (TIMEOUT) within the engine timeout, then answers again', async () => {
    mode = 'hang';
    const [response, ms] = await timed(() => ask(org, { message: 'hello there', database_id: database.id }));
    mode = 'ok';
    const body = await expectError(response, 500, 'EXTERNAL_LLM_ERROR');
    expect(body.details).toContainEqual({ field: 'provider', message: 'openai', code: 'TIMEOUT' });
    expect(ms).toBeGreaterThanOrEqual(ENGINE_TIMEOUT_MS);
    expect(ms).toBeLessThan(ENGINE_TIMEOUT_MS + 3_000);
    expect((await ask(org, { message: 'hello there', database_id: database.id })).status).toBe(200);
  });
});

describe('a client that leaves mid-stream', () => {
  it('stores the partial answer marked incomplete, and the next stream of the conversation completes', async () => {
    // Arrange
    const org = await makeOrganization('enterprise');
    const database = await registerDatabase({ organizationId: org.organization.id });
    const headers = headersOf(org, 'stream');
    const first = await fetch(`${gateway.url}/api/v1/chat/message`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: 'hello', database_id: database.id }),
    });
    const id = (await jsonOf(first)).data.conversation_id as string;
    const { pacing } = await import('../../functions/stream.ts');
    const streamUrl = (message: string) =>
      `${gateway.url}/api/v1/chat/${id}/stream?message=${encodeURIComponent(message)}`;

    // Act: the client reads the first event of a two-piece answer, then goes away.
    pacing.pieceDelayMs = 300;
    const controller = new AbortController();
    try {
      const response = await fetch(streamUrl('top 5 customers by revenue'), {
        headers,
        signal: controller.signal,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let received = '';
      while (!received.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) break;
        received += new TextDecoder().decode(value);
      }
      controller.abort();
    } finally {
      pacing.pieceDelayMs = 0;
    }

    // Assert: the assistant message is stored, marked incomplete.
    const history = async () =>
      (
        await jsonOf(
          await fetch(`${gateway.url}/api/v1/chat/history?conversation_id=${id}&order=asc`, { headers }),
        )
      ).data.messages as { sender: string; metadata?: Record<string, unknown> }[];
    await expect.poll(async () => (await history()).length, { timeout: 5_000, interval: 100 }).toBe(4);
    expect((await history())[3]?.metadata).toMatchObject({ incomplete: true });

    // Recovery: the next stream on the same conversation runs to its end.
    const next = await fetch(streamUrl(QUESTION), { headers });
    const text = await next.text();
    expect(next.status).toBe(200);
    expect(text).toMatch(/^event: done$/m);
    const messages = await history();
    expect(messages).toHaveLength(6);
    expect(messages[5]?.metadata?.incomplete).toBeUndefined();
  });
});
