// End to end over HTTP through the local gateway: the control plane (docs/control-plane.md,
// docs/design.md "The control plane"). Every route with each credential kind and role (owner and
// admin portal tokens and manage sk_ keys write; members and other sk_ keys read; pk_ keys and
// embed sessions are refused), every error code of the control plane, a connection test that
// fails and stores nothing, indexing jobs followed to succeeded and to failed (which keeps the
// previous index), a key shown once that works and, deleted, is refused on its next request.
// The flows that connect a database use the test PostgreSQL (TABLETALK_TEST_POSTGRES_URL, as CI
// sets it): each run works in a scratch database of its own, dropped afterwards.
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { signEmbedToken } from '#lib/auth/embed-token.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { createOrganization, setOrganizationLimits } from '#lib/store/organizations.ts';
import { addPattern } from '#lib/store/patterns.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { ordersCatalog } from '../fixtures/catalogs/orders.ts';
import { startTestGateway, TEST_JWT_SECRET } from '../helpers/gateway.ts';

const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
const ORG = '/api/v1/organization';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;

type Headers = Record<string, string>;
const call = async (method: string, path: string, headers: Headers, body?: unknown) => {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
};

const portalToken = (organizationId: number, role: 'owner' | 'admin' | 'member') =>
  new SignJWT({ org_id: organizationId, role, token_use: 'portal' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`user-${role}`)
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));

const bearer = (token: string): Headers => ({ Authorization: `Bearer ${token}` });
const apiKey = (key: string): Headers => ({ 'X-API-Key': key });

/** The envelope of an error with its status and shape B code (and the details code, when given). */
const expectError = (
  response: Awaited<ReturnType<typeof call>>,
  status: number,
  errorCode: string,
  detailCode?: string,
) => {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toMatchObject({ success: false, status_code: status, error_code: errorCode });
  if (detailCode) expect(response.body.details.map((d: { code: string }) => d.code)).toContain(detailCode);
};

interface Organization {
  id: number;
  owner: Headers;
  admin: Headers;
  member: Headers;
  /** An sk_ key created with manage. */
  manager: Headers;
  /** An sk_ key without manage. */
  reader: Headers;
  /** A pk_ key of the fixture database. */
  widget: Headers;
  /** An embed session of the fixture database. */
  session: Headers;
  /** A database record with a schema index, never connected to. */
  fixtureId: string;
}

const makeOrganization = async (
  plan: 'professional' | 'enterprise' = 'professional',
): Promise<Organization> => {
  const organization = await createOrganization({ name: `Control plane ${randomUUID()}`, plan });
  const fixtureId = newDatabaseId();
  await addDatabase({
    id: fixtureId,
    organizationId: organization.id,
    name: 'Fixture',
    engine: 'postgres',
    requiresOrganizationScoping: false,
    policy: { tables: {} },
    connectionRef: 'enc:v1:not-a-real-secret',
    schemaIndex: await writeSchemaIndex(fixtureId, ordersCatalog),
  });
  const manage = await createApiKey({ organizationId: organization.id, kind: 'sk', manage: true });
  const plain = await createApiKey({ organizationId: organization.id, kind: 'sk' });
  const pk = await createApiKey({ organizationId: organization.id, kind: 'pk', databaseId: fixtureId });
  const { token } = await signEmbedToken({
    organizationId: organization.id,
    databaseId: fixtureId,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  });
  return {
    id: organization.id,
    owner: bearer(await portalToken(organization.id, 'owner')),
    admin: bearer(await portalToken(organization.id, 'admin')),
    member: bearer(await portalToken(organization.id, 'member')),
    manager: apiKey(manage.key),
    reader: apiKey(plain.key),
    widget: apiKey(pk.key),
    session: bearer(token),
    fixtureId,
  };
};

let acme: Organization;

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization();
});
afterAll(() => gateway?.close());

// ---- Who may do what --------------------------------------------------------------------------

describe('credentials and roles on every route', () => {
  const unknown = '01900000-0000-7000-8000-0000000000ff';
  // Each read with the status an allowed reader gets (404 where the id is unknown).
  const reads = (fixture: string): [string, number][] => [
    [`${ORG}/databases`, 200],
    [`${ORG}/databases/${fixture}`, 200],
    [`${ORG}/jobs/${unknown}`, 404],
    [`${ORG}/api-keys`, 200],
    [`${ORG}/personalities`, 200],
    [`${ORG}/personalities/${unknown}`, 404],
    [`${ORG}/databases/${fixture}/patterns`, 200],
    [`${ORG}/databases/${fixture}/glossary`, 200],
    [`${ORG}/usage`, 200],
  ];
  // Each change, with a body or id that an allowed writer gets refused for (400 or 404), so that
  // the matrix changes nothing: authorisation is checked before anything else.
  const writes = (fixture: string): [string, string, unknown, number][] => [
    ['POST', `${ORG}/databases`, {}, 400],
    ['PATCH', `${ORG}/databases/${fixture}`, {}, 400],
    ['DELETE', `${ORG}/databases/${unknown}`, undefined, 404],
    ['POST', `${ORG}/databases/${unknown}/index`, undefined, 404],
    ['POST', `${ORG}/api-keys`, {}, 400],
    ['DELETE', `${ORG}/api-keys/${unknown}`, undefined, 404],
    ['POST', `${ORG}/personalities`, {}, 400],
    ['PATCH', `${ORG}/personalities/${unknown}`, { name: 'x' }, 404],
    ['DELETE', `${ORG}/personalities/${unknown}`, undefined, 404],
    ['POST', `${ORG}/databases/${fixture}/patterns`, {}, 400],
    ['PATCH', `${ORG}/databases/${fixture}/patterns/${unknown}`, { notes: 'x' }, 404],
    ['DELETE', `${ORG}/databases/${fixture}/patterns/${unknown}`, undefined, 404],
    ['PUT', `${ORG}/databases/${fixture}/glossary`, { synonyms: 'none' }, 400],
    ['PUT', '/api/v1/branding', { colors: { primary: 'blue' } }, 400],
  ];

  it('lets owners, admins and manage keys change, and refuses members, other sk_ keys, pk_ keys and embed sessions (403)', async () => {
    for (const writer of ['owner', 'admin', 'manager'] as const) {
      for (const [method, path, body, status] of writes(acme.fixtureId)) {
        const response = await call(method, path, acme[writer], body);
        expect(response.status, `${writer} ${method} ${path}: ${response.text}`).toBe(status);
      }
    }
    for (const refused of ['member', 'reader', 'widget', 'session'] as const) {
      for (const [method, path, body] of writes(acme.fixtureId)) {
        const response = await call(method, path, acme[refused], body);
        expect(response.status, `${refused} ${method} ${path}: ${response.text}`).toBe(403);
        expect(response.body.error_code).toBe('AUTH_INSUFFICIENT_PERMISSIONS');
      }
    }
  });

  it('lets every portal role and every sk_ key read, and refuses pk_ keys and embed sessions (403)', async () => {
    for (const reader of ['owner', 'admin', 'member', 'manager', 'reader'] as const) {
      for (const [path, status] of reads(acme.fixtureId)) {
        const response = await call('GET', path, acme[reader]);
        expect(response.status, `${reader} GET ${path}: ${response.text}`).toBe(status);
      }
    }
    for (const refused of ['widget', 'session'] as const) {
      for (const [path] of reads(acme.fixtureId)) {
        const response = await call('GET', path, acme[refused]);
        expectError(response, 403, 'AUTH_INSUFFICIENT_PERMISSIONS');
      }
    }
  });

  it('tells the member and the plain key what they lack', async () => {
    const member = await call('POST', `${ORG}/personalities`, acme.member, { name: 'x', instructions: 'y' });
    expect(member.body.message).toMatch(/member role .* needs owner or admin/);
    const reader = await call('POST', `${ORG}/personalities`, acme.reader, { name: 'x', instructions: 'y' });
    expect(reader.body.message).toMatch(/created with manage/);
  });
});

// ---- Keys ---------------------------------------------------------------------------------------

describe('API keys', () => {
  it('shows a key once, lists it without its value, and refuses it on its next request once deleted', async () => {
    // Arrange: a widget key for the fixture database.
    const created = await call('POST', `${ORG}/api-keys`, acme.owner, {
      kind: 'pk',
      name: 'Shop widget',
      database_id: acme.fixtureId,
      origins: ['https://shop.example'],
    });
    expect(created.status, created.text).toBe(201);
    const key = created.body.data;
    expect(key).toMatchObject({
      kind: 'pk',
      name: 'Shop widget',
      database_id: acme.fixtureId,
      origins: ['https://shop.example'],
      manage: false,
      last_used_at: null,
    });
    expect(key.key).toMatch(/^pk_/);
    expect(key.prefix).toBe(`pk_…${key.key.slice(-4)}`);

    // The key works, and its use shows in the list (written without waiting for it).
    expect((await call('GET', '/api/v1/branding', apiKey(key.key))).status).toBe(200);
    let listed: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < 20 && !listed?.last_used_at; attempt += 1) {
      const page = await call('GET', `${ORG}/api-keys?page_size=100`, acme.member);
      expect(page.text).not.toContain(key.key);
      listed = page.body.data.find((item: { id: string }) => item.id === key.id);
      if (!listed?.last_used_at) await new Promise((done) => setTimeout(done, 50));
    }
    expect(listed).toMatchObject({ id: key.id, prefix: key.prefix, last_used_at: expect.any(String) });
    expect(listed).not.toHaveProperty('key');

    // Act
    const deleted = await call('DELETE', `${ORG}/api-keys/${key.id}`, acme.manager);

    // Assert: refused on its very next request, gone from the list, unknown the second time.
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data.message).toContain(key.id);
    expectError(await call('GET', '/api/v1/branding', apiKey(key.key)), 401, 'AUTH_INVALID_CREDENTIALS');
    const after = await call('GET', `${ORG}/api-keys?page_size=100`, acme.owner);
    expect(after.body.data.map((item: { id: string }) => item.id)).not.toContain(key.id);
    expectError(await call('DELETE', `${ORG}/api-keys/${key.id}`, acme.owner), 404, 'NOT_FOUND_API_KEY');
  });

  it('creates a manage key that writes, a plain one that only reads, and checks the body', async () => {
    const manage = await call('POST', `${ORG}/api-keys`, acme.admin, { kind: 'sk', manage: true });
    const plain = await call('POST', `${ORG}/api-keys`, acme.admin, { kind: 'sk' });
    expect(manage.body.data).toMatchObject({ kind: 'sk', manage: true, database_id: null });
    const branding = { colors: { primary: '#112233' }, widget_theme: { greeting_message: 'Hello!' } };
    const put = await call('PUT', '/api/v1/branding', apiKey(manage.body.data.key), branding);
    expect(put.status, put.text).toBe(200);
    expect(put.body.data.colors.primary).toBe('#112233');
    expect(put.body.data.colors.secondary).toMatch(/^#/);
    expect((await call('GET', '/api/v1/branding', acme.widget)).body.data.colors.primary).toBe('#112233');
    expectError(
      await call('PUT', '/api/v1/branding', apiKey(plain.body.data.key), branding),
      403,
      'AUTH_INSUFFICIENT_PERMISSIONS',
    );
    expectError(
      await call('PUT', '/api/v1/branding', acme.owner, { colors: { primary: 'blue' } }),
      400,
      'VALIDATION_ERROR',
    );
    for (const body of [
      { kind: 'pk' },
      { kind: 'sk', database_id: acme.fixtureId },
      { kind: 'pk', database_id: acme.fixtureId, manage: true },
      { kind: 'pk', database_id: acme.fixtureId, origins: ['https://a.example/path'] },
    ])
      expectError(await call('POST', `${ORG}/api-keys`, acme.owner, body), 400, 'VALIDATION_ERROR');
    expectError(
      await call('POST', `${ORG}/api-keys`, acme.owner, { kind: 'pk', database_id: newDatabaseId() }),
      404,
      'NOT_FOUND_DATABASE',
    );
  });
});

// ---- Personalities, jobs, usage -----------------------------------------------------------------

describe('personalities', () => {
  it('creates, reads, changes, lists and deletes one; an unknown one is 404 NOT_FOUND_PERSONALITY', async () => {
    const created = await call('POST', `${ORG}/personalities`, acme.manager, {
      name: 'Analyst',
      instructions: 'Answer briefly, with numbers first.',
      language: 'de-CH',
    });
    expect(created.status, created.text).toBe(201);
    const { id } = created.body.data;
    expect(created.body.data).toMatchObject({ name: 'Analyst', language: 'de-CH', engine: null });
    const changed = await call('PATCH', `${ORG}/personalities/${id}`, acme.admin, {
      language: null,
      name: 'Analyst 2',
    });
    expect(changed.body.data).toMatchObject({ id, name: 'Analyst 2', language: null });
    expect((await call('GET', `${ORG}/personalities/${id}`, acme.member)).body.data.name).toBe('Analyst 2');
    const page = await call('GET', `${ORG}/personalities?page=1&page_size=1`, acme.reader);
    expect(page.body.pagination).toMatchObject({ current_page: 1, page_size: 1, total_items: 1 });
    expect((await call('DELETE', `${ORG}/personalities/${id}`, acme.owner)).status).toBe(200);
    expectError(await call('GET', `${ORG}/personalities/${id}`, acme.owner), 404, 'NOT_FOUND_PERSONALITY');
    expectError(await call('DELETE', `${ORG}/personalities/${id}`, acme.owner), 404, 'NOT_FOUND_PERSONALITY');
  });
});

describe('jobs and quotas', () => {
  it('answers an unknown job (or another organization’s) with 404 NOT_FOUND_JOB', async () => {
    expectError(await call('GET', `${ORG}/jobs/${randomUUID()}`, acme.owner), 404, 'NOT_FOUND_JOB');
    const queued = await call('POST', `${ORG}/databases/${acme.fixtureId}/index`, acme.owner);
    expect(queued.status, queued.text).toBe(202);
    const other = await makeOrganization();
    expectError(await call('GET', `${ORG}/jobs/${queued.body.data.id}`, other.owner), 404, 'NOT_FOUND_JOB');
  });

  it('counts indexing in the quota: 429 INDEXING_QUOTA_EXCEEDED, details QUOTA_EXCEEDED, "N of M used"', async () => {
    const tight = await makeOrganization('enterprise');
    await setOrganizationLimits(tight.id, { indexingOperations: 1 });
    const first = await call('POST', `${ORG}/databases/${tight.fixtureId}/index`, tight.owner);
    expect(first.status, first.text).toBe(202);
    expect(first.body.data).toMatchObject({
      kind: 'index',
      database_id: tight.fixtureId,
      status: 'queued',
      progress: { tables_done: 0, tables_total: 0 },
      error: null,
      started_at: null,
      finished_at: null,
    });
    const second = await call('POST', `${ORG}/databases/${tight.fixtureId}/index`, tight.owner);
    expectError(second, 429, 'INDEXING_QUOTA_EXCEEDED');
    expect(second.body.error.details).toBe('QUOTA_EXCEEDED');
    expect(second.body.message).toMatch(/1 of 1 indexing operations used/);
    const usage = await call('GET', `${ORG}/usage`, tight.member);
    expect(usage.body.data.indexing).toMatchObject({ used: 1, limit: 1 });
  });

  it('reports usage: plan, windows, quotas, answers by engine', async () => {
    const usage = await call('GET', `${ORG}/usage`, acme.reader);
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body.data).toMatchObject({
      plan: 'professional',
      rate: {
        minute: { used: expect.any(Number), limit: 500, resets_at: expect.any(String) },
        hour: { used: expect.any(Number), limit: 25_000, resets_at: expect.any(String) },
      },
      monthly: { used: expect.any(Number), limit: expect.any(Number), resets_at: expect.any(String) },
      indexing: { used: expect.any(Number), limit: 200, resets_at: expect.any(String) },
      answers: { builtin: expect.any(Number), model: 0, pattern: 0, cache: 0 },
    });
    expect(usage.body.data.rate.minute.used).toBeGreaterThan(0);
  });
});

// ---- Connected databases ------------------------------------------------------------------------

const waitForJob = async (id: string, headers: Headers) => {
  const seen: string[] = [];
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const job = await call('GET', `${ORG}/jobs/${id}`, headers);
    expect(job.status, job.text).toBe(200);
    if (seen.at(-1) !== job.body.data.status) seen.push(job.body.data.status);
    if (job.body.data.status === 'succeeded' || job.body.data.status === 'failed')
      return { job: job.body.data, seen };
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`job ${id} did not finish`);
};

describe('connecting a database', () => {
  it('tests the connection first: 422 VALIDATION_ERROR with CONNECTION_FAILED, nothing stored or counted', async () => {
    const before = (await call('GET', `${ORG}/usage`, acme.owner)).body.data.indexing.used;
    const body = {
      name: 'Nowhere',
      engine: 'postgres',
      connection: { host: '127.0.0.1', port: 1, database: 'shop', user: 'reporter', password: 'S3cret-pass' },
    };
    const refused = await call('POST', `${ORG}/databases`, acme.owner, body);
    expectError(refused, 422, 'VALIDATION_ERROR', 'CONNECTION_FAILED');
    expect(refused.body.message).toMatch(
      /Connection test failed: could not connect to the database \(COULD_NOT_CONNECT\)/,
    );
    expect(refused.text).not.toContain('S3cret-pass');
    // Nothing stored: not listed, the name is free, nothing counted.
    const list = await call('GET', `${ORG}/databases?page_size=100`, acme.owner);
    expect(list.body.data.map((item: { name: string }) => item.name)).not.toContain('Nowhere');
    expectError(
      await call('POST', `${ORG}/databases`, acme.owner, body),
      422,
      'VALIDATION_ERROR',
      'CONNECTION_FAILED',
    );
    expect((await call('GET', `${ORG}/usage`, acme.owner)).body.data.indexing.used).toBe(before);
  });

  it('checks the body: engine, connection form, the policy’s columns', async () => {
    for (const body of [
      { name: 'X', engine: 'oracle', connection: { url: 'postgres://h/db' } },
      { name: 'X', engine: 'postgres', connection: { url: 'mysql://h/db' } },
      { name: 'X', engine: 'postgres', connection: { url: 'postgres://h/db', host: 'h' } },
      { name: 'X', engine: 'postgres', connection: { host: 'h' } },
      {
        name: 'X',
        engine: 'postgres',
        connection: { url: 'postgres://h/db' },
        requires_organization_scoping: true,
      },
      { name: '', engine: 'postgres', connection: { url: 'postgres://h/db' } },
    ])
      expectError(await call('POST', `${ORG}/databases`, acme.owner, body), 400, 'VALIDATION_ERROR');
    expectError(
      await call('POST', `${ORG}/databases`, acme.owner, {
        name: 'fixture',
        engine: 'postgres',
        connection: { url: 'postgres://127.0.0.1:1/db' },
      }),
      400,
      'BUSINESS_DUPLICATE_ENTRY',
    );
  });

  describe.runIf(postgresUrl)('on the test PostgreSQL', () => {
    const scratch = `cp_test_${randomBytes(4).toString('hex')}`;
    const urlOf = (database: string) => {
      const url = new URL(postgresUrl!);
      url.pathname = `/${database}`;
      return url.toString();
    };
    let admin: pg.Client;
    let databaseId: string;
    let indexedAt: string;

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${scratch}`);
      const shop = new pg.Client({ connectionString: urlOf(scratch) });
      await shop.connect();
      await shop.query(`
        CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL, city text NOT NULL);
        CREATE TABLE orders (id int PRIMARY KEY, customer_id int REFERENCES customers (id), status text, total numeric);
        INSERT INTO customers VALUES (1, 'Ada', 'Berlin'), (2, 'Bo', 'Paris'), (3, 'Cy', 'Berlin');
        INSERT INTO orders VALUES (1, 1, 'paid', 10), (2, 2, 'open', 20), (3, 3, 'paid', 30);`);
      await shop.end();
    });

    afterAll(async () => {
      await admin?.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`).catch(() => undefined);
      await admin?.end();
    });

    it('connects it (201), follows its first job from queued to succeeded, and never shows the connection', async () => {
      // Act
      const created = await call('POST', `${ORG}/databases`, acme.owner, {
        name: 'Shop',
        engine: 'postgres',
        connection: { url: urlOf(scratch) },
        descriptions: { customers: { city: 'Where the customer lives' } },
      });

      // Assert
      expect(created.status, created.text).toBe(201);
      databaseId = created.body.data.id;
      expect(created.body.data).toMatchObject({
        name: 'Shop',
        engine: 'postgres',
        status: 'active',
        requires_organization_scoping: false,
        tenant_filter_column: null,
        created_at: expect.any(String),
        job: { id: expect.any(String), status: 'queued' },
      });
      const { job, seen } = await waitForJob(created.body.data.job.id, acme.member);
      expect(seen[0]).toMatch(/queued|running/);
      expect(seen.at(-1)).toBe('succeeded');
      expect(job).toMatchObject({
        kind: 'index',
        database_id: databaseId,
        status: 'succeeded',
        progress: { tables_done: 2, tables_total: 2 },
        error: null,
        started_at: expect.any(String),
        finished_at: expect.any(String),
      });
      const detail = await call('GET', `${ORG}/databases/${databaseId}`, acme.reader);
      expect(detail.body.data).toMatchObject({
        id: databaseId,
        tables: 2,
        indexed_at: expect.any(String),
        policy: { tables: {} },
      });
      indexedAt = detail.body.data.indexed_at;
      for (const response of [created, detail, await call('GET', `${ORG}/databases`, acme.owner)]) {
        expect(response.text).not.toContain(scratch);
        expect(response.text).not.toMatch(/postgres(ql)?:\/\//);
        expect(response.text).not.toContain('connection');
      }
      expectError(
        await call('POST', `${ORG}/databases`, acme.owner, {
          name: ' shop ',
          engine: 'postgres',
          connection: { url: urlOf(scratch) },
        }),
        400,
        'BUSINESS_DUPLICATE_ENTRY',
      );
    });

    it('answers questions on it and counts them by engine', async () => {
      const before = (await call('GET', `${ORG}/usage`, acme.owner)).body.data.answers.builtin;
      const answer = await call('POST', '/api/v1/chat/message', acme.reader, {
        message: 'How many customers are there?',
        database_id: databaseId,
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data.results).toEqual([expect.objectContaining({})]);
      expect((await call('GET', `${ORG}/usage`, acme.owner)).body.data.answers.builtin).toBe(before + 1);
    });

    it('keeps query patterns the guard accepts, one per question', async () => {
      const path = `${ORG}/databases/${databaseId}/patterns`;
      const added = await call('POST', path, acme.admin, {
        question: 'Which customers live in Berlin?',
        sql: "SELECT name FROM customers WHERE city = 'Berlin'",
        notes: 'City names as stored',
      });
      expect(added.status, added.text).toBe(201);
      expect(added.body.data).toMatchObject({ database_id: databaseId, notes: 'City names as stored' });
      expectError(
        await call('POST', path, acme.admin, { question: 'which customers live in berlin', sql: 'SELECT 1' }),
        400,
        'BUSINESS_DUPLICATE_ENTRY',
      );
      const refused = await call('POST', path, acme.admin, {
        question: 'Drop it',
        sql: 'DELETE FROM customers',
      });
      expectError(refused, 400, 'VALIDATION_ERROR', 'NOT_SELECT');
      expect(refused.body.details[0].field).toBe('body.sql');
      expectError(
        await call('POST', path, acme.admin, {
          question: 'Catalog',
          sql: 'SELECT * FROM pg_catalog.pg_authid',
        }),
        400,
        'VALIDATION_ERROR',
        'SYSTEM_CATALOG',
      );
      const patched = await call('PATCH', `${path}/${added.body.data.id}`, acme.manager, { notes: null });
      expect(patched.body.data).toMatchObject({ id: added.body.data.id, notes: null });
      expectError(
        await call('PATCH', `${path}/${randomUUID()}`, acme.manager, { notes: 'x' }),
        404,
        'NOT_FOUND_PATTERN',
      );
      const list = await call('GET', path, acme.member);
      expect(list.body.data).toHaveLength(1);
      // A candidate (as an answer's feedback proposes one) is used once approved, its SQL guarded again.
      const candidate = await addPattern(databaseId, {
        question: 'Which orders are paid?',
        sql: "SELECT id FROM orders WHERE status = 'paid'",
        status: 'candidate',
      });
      const unsafe = await addPattern(databaseId, {
        question: 'Everything',
        sql: 'SELECT * FROM pg_catalog.pg_authid',
        status: 'candidate',
      });
      const candidates = await call('GET', `${path}?status=candidate`, acme.member);
      expect(candidates.body.data.map((item: { id: string }) => item.id)).toEqual([candidate.id, unsafe.id]);
      const approved = await call('PATCH', `${path}/${candidate.id}`, acme.admin, { status: 'approved' });
      expect(approved.body.data).toMatchObject({ id: candidate.id, status: 'approved' });
      expectError(
        await call('PATCH', `${path}/${unsafe.id}`, acme.admin, { status: 'approved' }),
        400,
        'VALIDATION_ERROR',
        'SYSTEM_CATALOG',
      );
      expect((await call('GET', `${path}?status=approved`, acme.member)).body.data).toHaveLength(2);
      for (const id of [candidate.id, unsafe.id])
        expect((await call('DELETE', `${path}/${id}`, acme.owner)).status).toBe(200);
      expect((await call('DELETE', `${path}/${added.body.data.id}`, acme.owner)).status).toBe(200);
      expectError(
        await call('DELETE', `${path}/${added.body.data.id}`, acme.owner),
        404,
        'NOT_FOUND_PATTERN',
      );
    });

    it('keeps a glossary whose metrics and filters the guard accepts', async () => {
      const path = `${ORG}/databases/${databaseId}/glossary`;
      const glossary = {
        synonyms: { clients: 'customers' },
        metrics: { revenue: 'SUM(orders.total)' },
        filters: { paid: "orders.status = 'paid'" },
      };
      const saved = await call('PUT', path, acme.owner, glossary);
      expect(saved.status, saved.text).toBe(200);
      expect((await call('GET', path, acme.member)).body.data).toEqual(glossary);
      const refused = await call('PUT', path, acme.owner, { metrics: { sleepy: 'pg_sleep(orders.total)' } });
      expectError(refused, 400, 'VALIDATION_ERROR', 'FUNCTION_NOT_ALLOWED');
      expect((await call('GET', path, acme.member)).body.data).toEqual(glossary);
    });

    it('changes it: a bad new connection is 422 and changes nothing; a name taken is 400', async () => {
      const path = `${ORG}/databases/${databaseId}`;
      const refused = await call('PATCH', path, acme.owner, {
        name: 'Renamed',
        connection: { url: 'postgres://reporter@127.0.0.1:1/shop' },
      });
      expectError(refused, 422, 'VALIDATION_ERROR', 'CONNECTION_FAILED');
      expect((await call('GET', path, acme.owner)).body.data.name).toBe('Shop');
      expectError(
        await call('PATCH', path, acme.owner, { name: 'FIXTURE' }),
        400,
        'BUSINESS_DUPLICATE_ENTRY',
      );
      const renamed = await call('PATCH', path, acme.admin, { name: 'Shop 2' });
      expect(renamed.body.data).toMatchObject({ name: 'Shop 2', job: null, indexed_at: indexedAt });
    });

    it('follows a job to failed, and the database keeps its previous index', async () => {
      // Arrange: the server's database goes away.
      await admin.query(`DROP DATABASE ${scratch} WITH (FORCE)`);

      // Act
      const queued = await call('POST', `${ORG}/databases/${databaseId}/index`, acme.manager);

      // Assert
      expect(queued.status, queued.text).toBe(202);
      expect(queued.body.data.status).toBe('queued');
      const { job } = await waitForJob(queued.body.data.id, acme.owner);
      expect(job).toMatchObject({
        status: 'failed',
        error: { code: expect.any(String), message: expect.any(String) },
      });
      expect(job.error.message).not.toContain(scratch);
      const detail = await call('GET', `${ORG}/databases/${databaseId}`, acme.owner);
      expect(detail.body.data).toMatchObject({ indexed_at: indexedAt, tables: 2 });
    });

    it('deletes it with its pk_ keys: later questions on it are 404 DATABASE_NOT_FOUND', async () => {
      const key = await call('POST', `${ORG}/api-keys`, acme.owner, { kind: 'pk', database_id: databaseId });
      expect((await call('GET', '/api/v1/branding', apiKey(key.body.data.key))).status).toBe(200);
      const deleted = await call('DELETE', `${ORG}/databases/${databaseId}`, acme.owner);
      expect(deleted.status, deleted.text).toBe(200);
      expectError(
        await call('GET', '/api/v1/branding', apiKey(key.body.data.key)),
        401,
        'AUTH_INVALID_CREDENTIALS',
      );
      expectError(
        await call('POST', '/api/v1/chat/message', acme.reader, {
          message: 'How many customers?',
          database_id: databaseId,
        }),
        404,
        'NOT_FOUND_DATABASE',
      );
      expectError(await call('GET', `${ORG}/databases/${databaseId}`, acme.owner), 404, 'NOT_FOUND_DATABASE');
      expectError(
        await call('GET', `${ORG}/databases/${databaseId}/patterns`, acme.owner),
        404,
        'NOT_FOUND_DATABASE',
      );
      // Its name is free again.
      const list = await call('GET', `${ORG}/databases?page_size=100`, acme.owner);
      expect(list.body.data.map((item: { id: string }) => item.id)).not.toContain(databaseId);
    });
  });
});
