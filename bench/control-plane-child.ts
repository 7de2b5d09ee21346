// Figure (n), in a fresh process started by bench/control-plane.ts: DynamoDB calls per control-plane
// request (docs/control-plane.md), the limiter's apart. DynamoDB Local in memory, an enterprise
// organization no limit is reached on, a manage sk_ key, a database record with a schema index (no
// server behind it), and the local gateway serving every route. Each route is asked warm (after a
// first request that fills the key and organization caches); an indexing job's own calls (it runs
// in this process after the 202, and fails here at its connection test) are counted apart. With
// TABLETALK_TEST_POSTGRES_URL set, connecting a database and its first job are measured too.
// Reports one `result` message over IPC and exits.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { getJob } from '#lib/manage/jobs.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { startGateway } from '../local/gateway.ts';
import { createUnlimitedOrganization, startScratchStack } from '../local/scratch.ts';
import { LOCAL_STAGE, root } from '../local/stack.ts';
import { ordersCatalog } from '../tests/fixtures/catalogs/orders.ts';
import { countDynamoDbCalls } from './call-counter.ts';

export interface RouteCalls {
  route: string;
  status: number;
  /** Per request, the limiter's calls excluded. */
  calls: number;
  limiterCalls: number;
}

export type ControlPlaneChildMessage = { type: 'result'; routes: RouteCalls[]; notes: string[] };

const ROUNDS = 5;
const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;

const stack = await startScratchStack('tabletalk-bench-control-plane');
const gateway = await startGateway({ root, routes: stack.routes, stage: LOCAL_STAGE });
const notes: string[] = [];
try {
  const { organizationId } = await createUnlimitedOrganization('Bench Control Plane');
  const manage = await createApiKey({ organizationId, kind: 'sk', manage: true });
  const databaseId = newDatabaseId();
  await addDatabase({
    id: databaseId,
    organizationId,
    name: 'Fixture',
    engine: 'postgres',
    requiresOrganizationScoping: false,
    policy: { tables: {} },
    connectionRef: 'enc:v1:not-a-real-secret',
    schemaIndex: await writeSchemaIndex(databaseId, ordersCatalog),
  });
  const headers = { 'X-API-Key': manage.key, 'Content-Type': 'application/json' };
  const ask = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> } };
  };
  await ask('GET', '/api/v1/organization/usage'); // fills the key and organization caches
  const count = countDynamoDbCalls();
  const measured: RouteCalls[] = [];
  const settle = () => new Promise((done) => setTimeout(done, 300));

  /** `make` gives each round's request (a new id for each create or delete). */
  const measure = async (
    route: string,
    make: () => Promise<[string, string, unknown?]>,
    rounds = ROUNDS,
    /** Wait for what the request started in this process (an indexing job) to finish too. */
    waitFor?: (data: Record<string, unknown> | undefined) => Promise<void>,
  ): Promise<Record<string, unknown> | undefined> => {
    let calls = 0;
    let limiterCalls = 0;
    let status = 0;
    let data: Record<string, unknown> | undefined;
    for (let round = 0; round < rounds; round++) {
      const [method, path, body] = await make();
      const before = { ...count };
      const response = await ask(method, path, body);
      if (waitFor) await waitFor(response.body.data);
      calls += count.calls - before.calls - (count.limiterCalls - before.limiterCalls);
      limiterCalls += count.limiterCalls - before.limiterCalls;
      status = response.status;
      data = response.body.data;
    }
    measured.push({ route, status, calls: calls / rounds, limiterCalls: limiterCalls / rounds });
    return data;
  };
  const org = '/api/v1/organization';
  const db = `${org}/databases/${databaseId}`;

  await measure('GET /organization/databases', async () => ['GET', `${org}/databases`]);
  await measure('GET /organization/databases/{id}', async () => ['GET', db]);
  await measure('PATCH /organization/databases/{id} (name)', async () => [
    'PATCH',
    db,
    { name: `Fixture ${randomBytes(3).toString('hex')}` },
  ]);
  // A job runs in this process after the 202 (it fails here, at its connection test): the
  // request and the job are counted together, until the job has finished (read directly).
  const finished = async (id: unknown) => {
    for (let i = 0; id !== undefined && i < 100; i++) {
      const { status } = await getJob(organizationId, String(id));
      if (status === 'succeeded' || status === 'failed') return;
      await settle();
    }
  };
  const job = await measure(
    'POST /organization/databases/{id}/index (202) and its job',
    async () => ['POST', `${db}/index`],
    1,
    (data) => finished(data?.id),
  );
  notes.push(
    'POST …/index: the database, the indexing quota (its organization, and its INDEXING item, counted with the limiter), the job; then the job: read, start, the database, the connection test (fails here), finish, read back; the wait for it reads the job too',
  );
  await measure('GET /organization/jobs/{job_id}', async () => ['GET', `${org}/jobs/${job?.id}`]);
  await measure('GET /organization/api-keys', async () => ['GET', `${org}/api-keys`]);
  const keyIds: string[] = [];
  await measure('POST /organization/api-keys (pk)', async () => [
    'POST',
    `${org}/api-keys`,
    { kind: 'pk', database_id: databaseId },
  ]);
  for (let i = 0; i < ROUNDS; i++)
    keyIds.push(String((await ask('POST', `${org}/api-keys`, { kind: 'sk' })).body.data?.id));
  await measure('DELETE /organization/api-keys/{id}', async () => [
    'DELETE',
    `${org}/api-keys/${keyIds.pop()}`,
  ]);
  const personality = await measure('POST /organization/personalities', async () => [
    'POST',
    `${org}/personalities`,
    { name: 'Analyst', instructions: 'Numbers first.' },
  ]);
  await measure('GET /organization/personalities', async () => ['GET', `${org}/personalities`]);
  await measure('GET /organization/personalities/{id}', async () => [
    'GET',
    `${org}/personalities/${personality?.id}`,
  ]);
  await measure('PATCH /organization/personalities/{id}', async () => [
    'PATCH',
    `${org}/personalities/${personality?.id}`,
    { language: 'en' },
  ]);
  const personalities: string[] = [];
  for (let i = 0; i < ROUNDS; i++)
    personalities.push(
      String((await ask('POST', `${org}/personalities`, { name: `P${i}`, instructions: 'x' })).body.data?.id),
    );
  await measure('DELETE /organization/personalities/{id}', async () => [
    'DELETE',
    `${org}/personalities/${personalities.pop()}`,
  ]);
  let question = 0;
  const pattern = await measure('POST …/patterns', async () => [
    'POST',
    `${db}/patterns`,
    { question: `How many orders? ${question++}`, sql: 'SELECT count(*) FROM orders' },
  ]);
  await measure('GET …/patterns', async () => ['GET', `${db}/patterns`]);
  await measure('PATCH …/patterns/{pattern_id} (notes)', async () => [
    'PATCH',
    `${db}/patterns/${pattern?.id}`,
    { notes: 'checked' },
  ]);
  await measure('PUT …/glossary', async () => [
    'PUT',
    `${db}/glossary`,
    { metrics: { orders: 'count(orders.id)' } },
  ]);
  await measure('GET …/glossary', async () => ['GET', `${db}/glossary`]);
  await measure('PUT /api/v1/branding', async () => [
    'PUT',
    '/api/v1/branding',
    { colors: { primary: '#123456' } },
  ]);
  await measure('GET /organization/usage', async () => ['GET', `${org}/usage`]);

  if (postgresUrl) {
    const name = `bench_cp_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(postgresUrl);
      url.pathname = `/${name}`;
      const created = await measure(
        'POST /organization/databases (201) and its first job',
        async () => [
          'POST',
          `${org}/databases`,
          { name: 'Connected', engine: 'postgres', connection: { url: url.toString() } },
        ],
        1,
        (data) => finished((data?.job as { id?: string } | undefined)?.id),
      );
      notes.push(
        'POST /organization/databases: the names listed, the id free, the quota, the record (one transaction), the job; its first job as above, plus the index (one chunk) and its pointer',
      );
      await measure(
        'DELETE /organization/databases/{id}',
        async () => ['DELETE', `${org}/databases/${created?.id}`],
        1,
      );
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
  } else {
    notes.push('POST /organization/databases not measured: TABLETALK_TEST_POSTGRES_URL is not set');
  }
  process.send?.({ type: 'result', routes: measured, notes } satisfies ControlPlaneChildMessage);
} finally {
  await gateway.close();
  await stack.dynamodb.stop();
}
