// The streaming function as deployed: `serverless package --stage prod` bundles functions/stream.ts
// (stream.zip), and the packaged stream.mjs is imported in a fresh Node process (nothing but the
// zip and the AWS SDK) under a minimal Lambda response-stream shim: the runtime's `awslambda`
// global (streamifyResponse, HttpResponseStream.from writing the JSON prelude and 8 NUL bytes),
// and a Writable as the response stream. Against DynamoDB Local, one conversation answered without
// a database (a greeting: prelude with status 200 and the SSE headers, `data` events, then
// `event: done`, the answer stored), and one whose database cannot be reached (the prelude, then
// `event: error` with the envelope, and the end).
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretStore } from '#lib/connectors/secrets.ts';
import type { Catalog } from '#lib/connectors/types.ts';
import { createApiKey } from '#lib/store/api-keys.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { appendMessage, conversationMessagePage } from '#lib/store/messages.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { apiEvent } from '../helpers/events.ts';

const run = promisify(execFile);
const projectRoot = process.cwd();
const binDir = resolve(projectRoot, 'node_modules/.bin');
const SCOPE = 'smoke-scope';
/** Precedes the response bytes on the child's stdout (anything else there is not the response). */
const MARK = '@@response@@';

let packageDir: string;
// Inside the project, so the bundle's one external (@aws-sdk/*, provided by the Lambda runtime)
// resolves from node_modules as it would from the runtime.
let extractDir: string;

beforeAll(async () => {
  packageDir = mkdtempSync(join(tmpdir(), 'tabletalk-package-stream-'));
  await run(join(binDir, 'serverless'), ['package', '--stage', 'prod', '--package', packageDir], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}`,
      SLS_TELEMETRY_DISABLED: '1',
      SLS_NOTIFICATIONS_MODE: 'off',
    },
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  extractDir = join(
    projectRoot,
    'node_modules',
    '.cache',
    `tabletalk-package-stream-${randomBytes(4).toString('hex')}`,
  );
  mkdirSync(extractDir, { recursive: true });
  await run('unzip', ['-q', join(packageDir, 'stream.zip'), '-d', extractDir]);
}, 240_000);

afterAll(() => {
  if (packageDir) rmSync(packageDir, { recursive: true, force: true });
  if (extractDir) rmSync(extractDir, { recursive: true, force: true });
});

/** One table with a tenant column. */
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

/** An organization, a key, a postgres database nobody listens on, and a conversation on it. */
const seed = async () => {
  const organization = await createOrganization({ name: 'Packaged stream', plan: 'professional' });
  const databaseId = newDatabaseId();
  await addDatabase({
    id: databaseId,
    organizationId: organization.id,
    name: 'Packaged shop',
    engine: 'postgres',
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'org_id',
    policy: { tenant_column: 'org_id', tables: {} },
    connectionRef: await secretStore().save(databaseId, 'postgres://tabletalk:unused@127.0.0.1:9/none'),
    schemaIndex: await writeSchemaIndex(databaseId, catalog),
  });
  const key = await createApiKey({ organizationId: organization.id, kind: 'sk' });
  const conversationId = randomUUID();
  await appendMessage({
    conversationId,
    organizationId: organization.id,
    scopeId: SCOPE,
    role: 'user',
    content: 'Hi there',
    conversation: { title: 'Hi there', userId: '', databaseId, personalityId: undefined },
  });
  return { organizationId: organization.id, conversationId, key: key.key };
};

const streamEvent = (conversationId: string, key: string, message: string) =>
  apiEvent({
    method: 'GET',
    path: `/api/v1/chat/${conversationId}/stream`,
    resource: '/api/v1/chat/{conversation_id}/stream',
    pathParameters: { conversation_id: conversationId },
    query: { message },
    headers: { 'X-API-Key': key, 'X-Tenant-Id': '1', 'X-Scope-Id': SCOPE },
  });

/**
 * Imports the packaged bundle in a fresh Node process under the shim, invokes its handler with
 * one event and returns the bytes written to the response stream, as text.
 */
const invokePackaged = async (event: unknown): Promise<string> => {
  const script = `
    const [file, eventJson] = process.argv.slice(1);
    const MARK = '${MARK}';
    const { Writable } = await import('node:stream');
    globalThis.awslambda = {
      streamifyResponse: (fn) => fn,
      HttpResponseStream: {
        from: (stream, prelude) => {
          stream.write(Buffer.concat([Buffer.from(JSON.stringify(prelude)), Buffer.alloc(8)]));
          return stream;
        },
      },
    };
    const { handler } = await import(file);
    const chunks = [];
    const sink = new Writable({ write(chunk, _encoding, callback) { chunks.push(Buffer.from(chunk)); callback(); } });
    const finished = new Promise((done) => sink.on('finish', done));
    const context = {
      functionName: 'tabletalk-prod-stream', awsRequestId: 'smoke', invokedFunctionArn: 'arn:aws:lambda:us-east-1:0:function:x',
      memoryLimitInMB: '1024', getRemainingTimeInMillis: () => 29_000,
    };
    await handler(JSON.parse(eventJson), sink, context);
    await finished;
    process.stdout.write('\\n' + MARK + Buffer.concat(chunks).toString('base64'));
    process.exit(0);
  `;
  const file = pathToFileURL(join(extractDir, 'functions', 'stream.mjs')).href;
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
  const at = stdout.lastIndexOf(MARK);
  expect(at, stdout.slice(0, 2_000)).toBeGreaterThanOrEqual(0);
  return Buffer.from(stdout.slice(at + MARK.length).trim(), 'base64').toString('utf8');
};

/** The prelude (JSON before the 8 NUL bytes) and the events after it. */
const readResponse = (raw: string) => {
  const separator = raw.indexOf('\0'.repeat(8));
  expect(separator).toBeGreaterThan(0);
  const prelude = JSON.parse(raw.slice(0, separator)) as {
    statusCode: number;
    headers: Record<string, string>;
  };
  const body = raw.slice(separator + 8);
  const events: EventSourceMessage[] = [];
  createParser({ onEvent: (event) => events.push(event) }).feed(body);
  return { prelude, body, events };
};

describe('the packaged stream function under a response-stream shim', () => {
  it('writes the prelude, the answer as data events, then done, and stores the answer', async () => {
    // Arrange
    const { organizationId, conversationId, key } = await seed();

    // Act
    const raw = await invokePackaged(streamEvent(conversationId, key, 'Hello!'));

    // Assert
    const { prelude, events } = readResponse(raw);
    expect(prelude.statusCode).toBe(200);
    expect(prelude.headers).toMatchObject({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
    });
    expect(events.length).toBeGreaterThanOrEqual(2);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(JSON.parse(done.data)).toEqual({
      conversation_id: conversationId,
      sources: [],
      query_type: 'conversational',
      execution_time_ms: expect.any(Number),
      row_count: 0,
      results: [],
      results_truncated: false,
    });
    const content = events.slice(0, -1);
    for (const event of content) expect(event.event).toBeUndefined();
    const text = content.map((event) => JSON.parse(event.data).content as string).join('');
    expect(text.length).toBeGreaterThan(0);
    const page = await conversationMessagePage(organizationId, SCOPE, conversationId, {
      limit: 10,
      order: 'asc',
    });
    expect(page.items.map((message) => [message.role, message.content])).toEqual([
      ['user', 'Hi there'],
      ['user', 'Hello!'],
      ['assistant', text],
    ]);
  }, 90_000);

  it('sends `event: error` with the envelope after the prelude when the database cannot be reached', async () => {
    // Arrange
    const { conversationId, key } = await seed();

    // Act
    const raw = await invokePackaged(streamEvent(conversationId, key, 'How many orders are there?'));

    // Assert
    const { prelude, events } = readResponse(raw);
    expect(prelude.statusCode).toBe(200);
    expect(events.map((event) => event.event)).toEqual(['error']);
    const envelope = JSON.parse(events[0]!.data);
    expect(envelope).toMatchObject({
      success: false,
      error: { code: 'DB_CONNECTION_FAILED' },
      status_code: 500,
    });
    expect(envelope.trace_id).toEqual(expect.any(String));
  }, 90_000);
});
