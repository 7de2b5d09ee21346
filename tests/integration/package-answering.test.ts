// The answering functions as deployed: `serverless package --stage prod` bundles them with the
// SQL guard, whose PostgreSQL parser (libpg-query, emscripten) loads `libpg-query.wasm` through
// __dirname at run time, from a chunk the bundle loads on demand. This checks the zip carries the
// .wasm beside that chunk, then imports the
// packaged chat-message.mjs in a fresh Node process (the runtime's situation: nothing but the
// zip and the AWS SDK) and sends it one question against DynamoDB Local, so the guard runs
// inside the bundle once. A guard that could not load its parser would fail closed and answer
// `refused`; here the guard allows the query and it goes on to the database: a real answer when
// TABLETALK_TEST_POSTGRES_URL is set, otherwise DB_CONNECTION_FAILED from an unreachable server.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretStore } from '#lib/connectors/secrets.ts';
import type { Catalog } from '#lib/connectors/types.ts';
import { createApiKey } from '#lib/store/api-keys.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { apiEvent } from '../helpers/events.ts';

const run = promisify(execFile);
const projectRoot = process.cwd();
const binDir = resolve(projectRoot, 'node_modules/.bin');
const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
const ANSWERING = ['chatMessage', 'conversationMessage'];

let packageDir: string;
// Inside the project, so the bundle's one external (@aws-sdk/*, provided by the Lambda runtime)
// resolves from node_modules as it would from the runtime.
let extractDir: string;

beforeAll(async () => {
  packageDir = mkdtempSync(join(tmpdir(), 'tabletalk-package-answering-'));
  await run(join(binDir, 'serverless'), ['package', '--stage', 'prod', '--package', packageDir], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}`,
      SLS_TELEMETRY_DISABLED: '1',
      SLS_NOTIFICATIONS_MODE: 'off',
    },
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  extractDir = join(
    projectRoot,
    'node_modules',
    '.cache',
    `tabletalk-package-answering-${randomBytes(4).toString('hex')}`,
  );
  mkdirSync(extractDir, { recursive: true });
  await run('unzip', ['-q', join(packageDir, 'chatMessage.zip'), '-d', extractDir]);
}, 180_000);

afterAll(() => {
  if (packageDir) rmSync(packageDir, { recursive: true, force: true });
  if (extractDir) rmSync(extractDir, { recursive: true, force: true });
});

const entries = async (zip: string): Promise<string[]> =>
  (await run('unzip', ['-Z1', join(packageDir, zip)])).stdout.split('\n').filter(Boolean);

/** One table with a tenant column: enough for "How many orders are there?". */
const catalog: Catalog = {
  dialect: 'postgres',
  defaultSchema: 'public',
  relations: [
    {
      schema: 'public',
      name: 'orders',
      kind: 'table',
      columns: [
        { name: 'id', kind: 'integer', nativeType: 'integer', nullable: false },
        { name: 'org_id', kind: 'integer', nativeType: 'integer', nullable: false },
      ],
      primaryKey: ['id'],
      foreignKeys: [],
      rowEstimate: 3,
      samples: {},
    },
  ],
  userFunctions: [],
  indexedAt: '2026-01-01T00:00:00.000Z',
};

/** An organization, a key and a postgres database at `url`, indexed with `catalog`. */
const seed = async (url: string) => {
  const organization = await createOrganization({ name: 'Packaged', plan: 'professional' });
  const id = newDatabaseId();
  await addDatabase({
    id,
    organizationId: organization.id,
    name: 'Packaged shop',
    engine: 'postgres',
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'org_id',
    policy: { tenant_column: 'org_id', tables: {} },
    connectionRef: await secretStore().save(id, url),
    schemaIndex: await writeSchemaIndex(id, catalog),
  });
  const key = await createApiKey({ organizationId: organization.id, kind: 'sk' });
  return { databaseId: id, key: key.key };
};

/** Imports the packaged bundle in a fresh Node process and invokes its handler with one event. */
const invokePackaged = async (event: unknown): Promise<{ statusCode: number; body: string }> => {
  const script = `
    const [file, eventJson] = process.argv.slice(1);
    const { handler } = await import(file);
    const context = {
      functionName: 'tabletalk-prod-chatMessage', awsRequestId: 'smoke', invokedFunctionArn: 'arn:aws:lambda:us-east-1:0:function:x',
      memoryLimitInMB: '1024', getRemainingTimeInMillis: () => 29_000,
    };
    const result = await handler(JSON.parse(eventJson), context);
    process.stdout.write(JSON.stringify(result));
  `;
  const file = pathToFileURL(join(extractDir, 'functions', 'chat-message.mjs')).href;
  const { stdout } = await run(
    join(binDir, 'node'),
    ['--enable-source-maps', '--input-type=module', '-e', script, file, JSON.stringify(event)],
    {
      cwd: extractDir,
      timeout: 60_000,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        STAGE: 'prod',
        AWS_REGION: 'us-east-1',
        TABLE_NAME: process.env.TABLE_NAME ?? '',
        DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT ?? '',
        LOCAL_SECRET_KEY_FILE: process.env.LOCAL_SECRET_KEY_FILE ?? '',
        LIMITS_ENABLED: 'false',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        DB_CONNECT_TIMEOUT_MS: '2000',
      },
    },
  );
  return JSON.parse(stdout) as { statusCode: number; body: string };
};

const question = (databaseId: string, key: string) =>
  apiEvent({
    method: 'POST',
    path: '/api/v1/chat/message',
    headers: { 'X-API-Key': key, 'X-Tenant-Id': '1' },
    body: { message: 'How many orders are there?', database_id: databaseId },
  });

describe('the packaged answering functions', () => {
  it('carry libpg-query.wasm beside the chunk that loads the parser', async () => {
    for (const name of ANSWERING) {
      const files = await entries(`${name}.zip`);
      const wasm = files.filter((file) => file.endsWith('/libpg-query.wasm'));
      expect(wasm, name).toEqual([expect.stringMatching(/^functions\/[a-z-]+\.chunks\/libpg-query\.wasm$/)]);
      const dir = wasm[0]!.slice(0, wasm[0]!.lastIndexOf('/') + 1);
      // The parser's chunk (postgres-<hash>.mjs, with libpg-query inside) is in that folder.
      expect(
        files.some((file) => file.startsWith(dir) && /\/postgres-[A-Z0-9]+\.mjs$/.test(file)),
        name,
      ).toBe(true);
    }
    expect((await entries('branding.zip')).some((file) => file.endsWith('.wasm'))).toBe(false);
  });

  it('run the SQL guard inside the bundle: the query is allowed and goes on to the database', async () => {
    // Arrange: a server nobody listens on
    const { databaseId, key } = await seed('postgres://tabletalk:unused@127.0.0.1:9/none');

    // Act
    const result = await invokePackaged(question(databaseId, key));

    // Assert
    const body = JSON.parse(result.body);
    expect({ status: result.statusCode, code: body.error?.code }).toEqual({
      status: 500,
      code: 'DB_CONNECTION_FAILED',
    });
  }, 60_000);

  describe.runIf(postgresUrl)('with a PostgreSQL server', () => {
    const name = `package_answering_${randomBytes(4).toString('hex')}`;
    let admin: pg.Client;

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(postgresUrl!);
      url.pathname = `/${name}`;
      const loader = new pg.Client({ connectionString: url.toString() });
      await loader.connect();
      await loader.query(
        'CREATE TABLE orders (id integer PRIMARY KEY, org_id integer NOT NULL); INSERT INTO orders VALUES (1, 1), (2, 1), (3, 2)',
      );
      await loader.end();
    });

    afterAll(async () => {
      await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin?.end();
    });

    it('answers from the database with the tenant’s rows', async () => {
      // Arrange
      const url = new URL(postgresUrl!);
      url.pathname = `/${name}`;
      const { databaseId, key } = await seed(url.toString());

      // Act
      const result = await invokePackaged(question(databaseId, key));

      // Assert
      expect(result.statusCode).toBe(200);
      expect(JSON.parse(result.body).data).toMatchObject({
        query_type: 'sql',
        results: [{ order_count: 2 }],
        message: 'There are 2 orders.',
      });
    }, 60_000);
  });
});
