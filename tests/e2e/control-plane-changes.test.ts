// End to end over HTTP through the local gateway: what a control-plane change answers and when
// the answering flow sees it (docs/control-plane.md "Changing a database", "Glossary", "API
// keys"). A PATCH answers the record it stored (its new updated_at); a glossary PUT is used by
// the next question in the process that saved it (no 60 s wait on one container), and a row
// policy change by the next question (the database is read per question); a pk_ key for
// a database that filters rows by tenant is refused when created, pointing to embed sessions;
// an indexing job counts tables and views, not sequences, in tables_total.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { demoPolicy } from '../../local/demo/seed.ts';
import { ordersCatalog } from '../fixtures/catalogs/orders.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { startTestGateway } from '../helpers/gateway.ts';

const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
const ORG = '/api/v1/organization';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let organizationId: number;
let manage: Record<string, string>;
/** A database record with a schema index and no tenant filter, never connected to. */
let openId: string;
/** The demo shop on PGlite, filtered by tenant (org_id). */
let shopId: string;

const call = async (method: string, path: string, body?: unknown, headers = manage) => {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
};

beforeAll(async () => {
  gateway = await startTestGateway();
  const organization = await createOrganization({ name: `Changes ${randomUUID()}`, plan: 'professional' });
  organizationId = organization.id;
  manage = {
    'X-API-Key': (await createApiKey({ organizationId, kind: 'sk', manage: true })).key,
  };
  openId = newDatabaseId();
  await addDatabase({
    id: openId,
    organizationId,
    name: 'Open fixture',
    engine: 'postgres',
    requiresOrganizationScoping: false,
    policy: { tables: {} },
    connectionRef: 'enc:v1:not-a-real-secret',
    schemaIndex: await writeSchemaIndex(openId, ordersCatalog),
  });
  shopId = (await registerDatabase({ organizationId })).id;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

describe('PATCH /organization/databases/{id}', () => {
  it('answers what it stored: the new updated_at, the same the GET after it shows', async () => {
    const before = await call('GET', `${ORG}/databases/${openId}`);
    expect(before.status, before.text).toBe(200);
    await new Promise((done) => setTimeout(done, 5));
    const patched = await call('PATCH', `${ORG}/databases/${openId}`, { name: 'Renamed fixture' });
    expect(patched.status, patched.text).toBe(200);
    const after = await call('GET', `${ORG}/databases/${openId}`);
    expect(patched.body.data.name).toBe('Renamed fixture');
    expect(patched.body.data.updated_at).not.toBe(before.body.data.updated_at);
    expect(Date.parse(patched.body.data.updated_at)).toBeGreaterThan(
      Date.parse(before.body.data.updated_at ?? before.body.data.created_at),
    );
    expect(patched.body.data.updated_at).toBe(after.body.data.updated_at);
    const { job: _job, ...stored } = patched.body.data;
    expect(stored).toEqual(after.body.data);
  });
});

describe('a glossary change', () => {
  const ask = (message: string) =>
    call('POST', '/api/v1/chat/message', { message, database_id: shopId }, { ...manage, 'X-Tenant-Id': '1' });

  it('is used by the next question in the process that saved it', async () => {
    // A word the shop's schema, WordNet and the typo rules do not know: asked back.
    const question = 'How many zorblats are there?';
    const unknown = await ask(question);
    expect(unknown.status, unknown.text).toBe(200);
    expect(unknown.body.data.query_type).not.toBe('sql');

    const saved = await call('PUT', `${ORG}/databases/${shopId}/glossary`, {
      synonyms: { zorblats: 'customers' },
    });
    expect(saved.status, saved.text).toBe(200);

    const known = await ask(question);
    expect(known.status, known.text).toBe(200);
    expect(known.body.data.query_type).toBe('sql');
    expect(known.body.data.sql).toMatch(/customers/i);

    // Taken away again: the next question asks back once more.
    expect((await call('PUT', `${ORG}/databases/${shopId}/glossary`, {})).status).toBe(200);
    expect((await ask(question)).body.data.query_type).not.toBe('sql');
  });
});

describe('a row policy change', () => {
  it('is used by the next question: a table no longer shared is refused at once', async () => {
    const ask = () =>
      call(
        'POST',
        '/api/v1/chat/message',
        { message: 'How many categories are there?', database_id: shopId },
        { ...manage, 'X-Tenant-Id': '1' },
      );
    const shared = await ask();
    expect(shared.status, shared.text).toBe(200);
    expect(shared.body.data.query_type).toBe('sql');
    // categories has no org_id: without its `shared` override the policy refuses it.
    const { categories: _categories, ...tables } = demoPolicy.tables;
    const patched = await call('PATCH', `${ORG}/databases/${shopId}`, { policy: { ...demoPolicy, tables } });
    expect(patched.status, patched.text).toBe(200);
    const refused = await ask();
    expect(refused.body.data?.query_type ?? refused.body.error_code, refused.text).not.toBe('sql');
    expect(refused.text).not.toMatch(/"results":\[\{/);
  });
});

describe('POST /organization/api-keys', () => {
  it('refuses a pk_ key for a database that filters rows by tenant, pointing to embed sessions', async () => {
    const refused = await call('POST', `${ORG}/api-keys`, { kind: 'pk', database_id: shopId });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ success: false, error_code: 'VALIDATION_ERROR' });
    expect(refused.body.details).toEqual([
      expect.objectContaining({ field: 'body.database_id', code: 'EMBED_SESSION_REQUIRED' }),
    ]);
    expect(refused.body.details[0].message).toMatch(/embed session/);
    expect(refused.body.details[0].message).toContain('/api/v1/embed/sessions');
    // Nothing was stored.
    const keys = await call('GET', `${ORG}/api-keys?page_size=100`);
    expect(keys.body.data.filter((key: { kind: string }) => key.kind === 'pk')).toEqual([]);
    // A database without a tenant filter takes one.
    const created = await call('POST', `${ORG}/api-keys`, { kind: 'pk', database_id: openId });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.key).toMatch(/^pk_/);
  });
});

describe.runIf(postgresUrl)('an indexing job', () => {
  const scratch = `tabletalk_seq_${randomBytes(4).toString('hex')}`;
  const urlOf = (database: string) => {
    const url = new URL(postgresUrl ?? '');
    url.pathname = `/${database}`;
    return url.toString();
  };
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${scratch}`);
    const db = new pg.Client({ connectionString: urlOf(scratch) });
    await db.connect();
    // Two serial keys and one sequence of its own: three sequences beside a table and a view.
    await db.query(`
      CREATE TABLE tickets (id serial PRIMARY KEY, number bigserial, title text NOT NULL);
      CREATE SEQUENCE invoice_numbers;
      CREATE VIEW open_tickets AS SELECT id, title FROM tickets;
      INSERT INTO tickets (title) VALUES ('a'), ('b');`);
    await db.end();
  });

  afterAll(async () => {
    await admin?.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`).catch(() => undefined);
    await admin?.end();
  });

  it('counts tables and views in tables_total, not sequences', async () => {
    const created = await call('POST', `${ORG}/databases`, {
      name: 'Tickets',
      engine: 'postgres',
      connection: { url: urlOf(scratch) },
    });
    expect(created.status, created.text).toBe(201);
    const jobId = created.body.data.job.id;
    let job = (await call('GET', `${ORG}/jobs/${jobId}`)).body.data;
    for (let i = 0; i < 200 && (job.status === 'queued' || job.status === 'running'); i++) {
      await new Promise((done) => setTimeout(done, 100));
      job = (await call('GET', `${ORG}/jobs/${jobId}`)).body.data;
    }
    expect(job).toMatchObject({ status: 'succeeded', progress: { tables_done: 2, tables_total: 2 } });
  });
});
