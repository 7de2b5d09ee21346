// Errors carry no data (docs/design.md "Tenant filtering and the SQL guard"), end to end: a
// distinctive value is planted in the demo shop (in the caller's own row, so that no other
// defence hides it), and each error class is forced in turn: a cast failure and a division by
// zero on that row, the statement timeout, the cost ceiling, a database that refuses the
// connection (a user name and a port to hide) and an embedded engine whose worker module is
// missing ("Cannot find module <path>", as in a bundle without it). Whatever a caller can see is
// searched for the value, the host and port, the user, the module path and the planner's cost:
// the HTTP body, the SSE stream, the stored assistant messages (history endpoint), the repair
// prompt the model server received, and the output of `admin sql check --execute`.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clearEngines } from '#lib/answer/registry.ts';
import { resetSettings } from '#lib/config.ts';
import { secretStore } from '#lib/connectors/secrets.ts';
import { addDatabase, type DatabaseRecord, findDatabaseById, newDatabaseId } from '#lib/store/databases.ts';
import { createPersonality, type Personality } from '#lib/store/personalities.ts';
import { readSchemaIndex, writeSchemaIndex } from '#lib/store/schema-index.ts';
import { freePort } from '../../local/dynamodb.ts';
import { admin } from '../helpers/admin.ts';
import { closeConnectors, demoPolicy, demoSeedFile, registerDatabase } from '../helpers/answering.ts';
import { type FakeOpenAi, reply, startFakeOpenAi } from '../helpers/fake-openai.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { startTestGateway } from '../helpers/gateway.ts';

// A bundle without the embedded engine's worker: the connector of any seed file named like
// this one points its worker at a module that does not exist.
vi.mock('#lib/dialects/postgres/pglite.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('#lib/dialects/postgres/pglite.ts')>();
  class WithoutWorker extends real.PgliteConnector {
    constructor(options: ConstructorParameters<typeof real.PgliteConnector>[0] = {}) {
      super(
        options.seedFile?.endsWith('missing-engine.sql')
          ? { ...options, workerUrl: new URL('file:///nonexistent/tabletalk-bundle/pglite-worker.ts') }
          : options,
      );
    }
  }
  return { ...real, PgliteConnector: WithoutWorker };
});

const PLANTED = 'zqx7-planted-9f3c@example.test';
const USER = 'zqplanteduser';
const PASSWORD = 'zqplantedpass';

let fake: FakeOpenAi;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let personality: Personality;
let dir: string;
let refusedPort: number;
const databases: Record<'shop' | 'missingEngine' | 'unreachable', DatabaseRecord> = {} as never;
const saved: Record<string, string | undefined> = {};

/** What no caller may ever see, whatever failed. */
const forbidden = (): (string | RegExp)[] => [
  PLANTED,
  PLANTED.slice(0, 4),
  USER,
  PASSWORD,
  `:${refusedPort}`,
  '127.0.0.1',
  'Cannot find module',
  '/nonexistent/',
  'pglite-worker',
  dir,
  /estimated cost|cost \d|ceiling \d|\d+(\.\d+)? is above/i,
];

const expectClean = (where: string, text: string): void => {
  for (const item of forbidden()) {
    if (typeof item === 'string') expect(text, `${where} shows ${item}`).not.toContain(item);
    else expect(text, `${where} matches ${item}`).not.toMatch(item);
  }
};

const setEnvironment = (values: Record<string, string | undefined>): void => {
  for (const [name, value] of Object.entries(values)) {
    if (!(name in saved)) saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetSettings();
};

beforeAll(async () => {
  fake = await startFakeOpenAi();
  dir = mkdtempSync(join(tmpdir(), 'errors-no-data-'));
  refusedPort = await freePort();
  setEnvironment({ OPENAI_BASE_URL: fake.baseUrl });
  clearEngines();
  gateway = await startTestGateway();
  setEnvironment({ OPENAI_BASE_URL: fake.baseUrl, DB_STATEMENT_TIMEOUT_MS: '30000', DB_MAX_COST: '0' });
  clearEngines();
  acme = await makeOrganization('professional');
  personality = await createPersonality({
    organizationId: acme.organization.id,
    name: 'Scripted model',
    engine: 'openai',
    model: 'gpt-errors-e2e',
  });

  // The demo shop, with the planted value as the e-mail of tenant 1's first customer.
  const seed = join(dir, 'planted-shop.sql');
  writeFileSync(
    seed,
    `${readFileSync(demoSeedFile, 'utf8')}\nUPDATE customers SET email = '${PLANTED}' WHERE id = (SELECT min(id) FROM customers WHERE org_id = 1);\n`,
  );
  databases.shop = await registerDatabase({ organizationId: acme.organization.id, seedFile: seed });
  const catalog = await readSchemaIndex(databases.shop);
  if (!catalog) throw new Error('the shop has no schema index');
  const another = async (engine: 'pglite' | 'postgres', url: string, seedFile?: string) => {
    const id = newDatabaseId();
    return addDatabase({
      id,
      name: `${engine} that fails`,
      engine,
      organizationId: acme.organization.id,
      requiresOrganizationScoping: true,
      tenantFilterColumn: 'org_id',
      policy: demoPolicy,
      connectionRef: await secretStore().save(id, url),
      ...(seedFile ? { seedFile } : {}),
      schemaIndex: await writeSchemaIndex(id, catalog),
    });
  };
  const missing = join(dir, 'missing-engine.sql');
  writeFileSync(missing, readFileSync(seed, 'utf8'));
  databases.missingEngine = await another('pglite', 'memory:', missing);
  databases.unreachable = await another(
    'postgres',
    `postgres://${USER}:${PASSWORD}@127.0.0.1:${refusedPort}/shop?sslmode=disable`,
  );
  expect(await findDatabaseById(databases.unreachable.id)).toBeDefined();
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
  await fake?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetSettings();
  clearEngines();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The first customer of tenant 1 (the planted row), by a key the query computes itself. */
const PLANTED_ROW = 'id = (SELECT min(id) FROM customers)';

interface ErrorCase {
  label: string;
  database: keyof typeof databases;
  sql: string;
  /** Settings of the answering function for this case. */
  env?: Record<string, string>;
  /** The database rejected the query: the model gets one repair round with the error. */
  repairable: boolean;
  /** Extra arguments and environment of `admin sql check`; absent: not run through the admin. */
  admin?: { args: string[]; env?: Record<string, string> };
  code: string;
}

const CASES: ErrorCase[] = [
  {
    label: 'a cast failure on the planted row',
    database: 'shop',
    sql: `SELECT email::int AS n FROM customers WHERE ${PLANTED_ROW}`,
    repairable: true,
    admin: { args: [] },
    code: 'DB_QUERY_FAILED',
  },
  {
    label: 'to_date on the planted row',
    database: 'shop',
    sql: `SELECT id FROM customers WHERE ${PLANTED_ROW} AND to_date(email, 'YYYY') IS NULL`,
    repairable: true,
    admin: { args: [] },
    code: 'DB_QUERY_FAILED',
  },
  {
    label: 'a division by zero',
    database: 'shop',
    sql: `SELECT 1 / (length(email) - length(email)) AS n FROM customers WHERE ${PLANTED_ROW}`,
    repairable: true,
    admin: { args: [] },
    code: 'DB_QUERY_FAILED',
  },
  {
    label: 'the statement timeout',
    database: 'shop',
    sql: 'SELECT count(*) AS n FROM customers a, customers b, customers c, customers d',
    env: { DB_STATEMENT_TIMEOUT_MS: '1000' },
    repairable: false,
    admin: { args: ['--timeout-ms', '1000'] },
    code: 'DB_QUERY_FAILED',
  },
  {
    label: 'the cost ceiling',
    database: 'shop',
    sql: 'SELECT count(*) AS n FROM customers a, customers b',
    env: { DB_MAX_COST: '1' },
    repairable: false,
    admin: { args: [], env: { DB_MAX_COST: '1' } },
    code: 'DB_QUERY_FAILED',
  },
  {
    label: 'a connection failure',
    database: 'unreachable',
    sql: 'SELECT count(*) AS n FROM customers',
    repairable: false,
    admin: { args: [], env: { DB_CONNECT_TIMEOUT_MS: '2000' } },
    code: 'DB_CONNECTION_FAILED',
  },
  {
    label: 'a missing engine module',
    database: 'missingEngine',
    sql: 'SELECT count(*) AS n FROM customers',
    repairable: false,
    code: 'DB_CONNECTION_FAILED',
  },
];

const headers = () => ({
  'X-API-Key': acme.sk,
  'X-Tenant-Id': '1',
  'X-Scope-Id': 'errors-e2e',
  'Content-Type': 'application/json',
});

/** The model proposes the case's query, and the same again when asked to repair it. */
const script = (errorCase: ErrorCase): void => {
  const proposal = reply({ kind: 'sql', sql: errorCase.sql, description: 'Probing' });
  if (errorCase.repairable) fake.respond(proposal, proposal);
  else fake.respond(proposal);
};

const streamText = async (response: Response): Promise<string> => {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
  }
  return text;
};

describe('errors carry no data', { timeout: 60_000 }, () => {
  for (const errorCase of CASES) {
    it(`${errorCase.label}: nothing of the database's message reaches the body, the stream, the stored messages, the repair prompt or the admin output`, async () => {
      // Arrange
      setEnvironment({ DB_STATEMENT_TIMEOUT_MS: '30000', DB_MAX_COST: '0', ...errorCase.env });
      fake.reset();
      const conversation = randomUUID();
      const database = databases[errorCase.database];

      // Act: the chat endpoint
      script(errorCase);
      const response = await fetch(`${gateway.url}/api/v1/chat/${conversation}/message`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({
          message: 'Probe the first customer',
          database_id: database.id,
          personality_id: personality.id,
        }),
      });
      const body = await response.text();

      // Act: the stream endpoint, on the same conversation
      script(errorCase);
      const stream = await fetch(
        `${gateway.url}/api/v1/chat/${conversation}/stream?message=${encodeURIComponent('Probe it again')}`,
        { headers: headers() },
      );
      const events = await streamText(stream);

      // Act: what was stored, and what the model was sent
      const history = await (
        await fetch(`${gateway.url}/api/v1/chat/history?conversation_id=${conversation}&order=asc`, {
          headers: headers(),
        })
      ).text();
      const prompts = JSON.stringify(fake.requests.map((request) => request.body));

      // Assert: the failure is reported, by its code
      expect(response.status, body).toBe(500);
      expect(JSON.parse(body).error.code).toBe(errorCase.code);
      expect(events).toContain('event: error');
      expect(events).toContain(errorCase.code);
      const stored = JSON.parse(history).data.messages as { sender: string; content: string }[];
      expect(stored.filter((message) => message.sender === 'ASSISTANT')).toHaveLength(2);
      if (errorCase.repairable) {
        expect(prompts).toContain('database_error');
        expect(prompts).toMatch(/SQLSTATE 22/);
      }
      // Assert: and nothing else
      expectClean('the HTTP body', body);
      expectClean('the stream', events);
      expectClean('the stored messages', history);
      expectClean('the prompts sent to the model', prompts);

      if (errorCase.admin) {
        const run = await admin(
          [
            'sql',
            'check',
            '--database',
            database.id,
            '--tenant',
            '1',
            '--execute',
            '--sql',
            errorCase.sql,
            ...errorCase.admin.args,
          ],
          { DB_MAX_COST: '0', ...errorCase.admin.env },
        );
        const [line] = run.stdout.trim().split('\n');
        expect(JSON.parse(line ?? '{}'), run.stderr).toMatchObject({
          allowed: true,
          error: { code: errorCase.code },
        });
        expectClean('the admin output', `${run.stdout}\n${run.stderr}`);
      }
    });
  }
});
