// Property-based fuzzing of every route through the local gateway (fast-check): generated paths,
// methods, path and query parameters, credentials, scope, tenant and content-type headers and
// bodies (wrong types, malformed JSON, huge and unicode values, forged cursors, other
// organizations' ids and keys). Every response: no 5xx, the error envelope on every non-2xx,
// X-Request-ID, and no marker of a scope or organization the caller cannot see.
// FUZZ_RUNS=<n> runs n cases per property instead of the defaults below.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeConnectors } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { type FuzzRequest, fuzzRuns, seedWorld, sendAndCheck, type World } from '../helpers/fuzz.ts';
import { startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let world: World;

beforeAll(async () => {
  gateway = await startTestGateway();
  world = await seedWorld(gateway.url);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

// ---- Values --------------------------------------------------------------------------------

const huge = (size: number) => fc.constantFrom('x'.repeat(size), 'é'.repeat(size), '𝔘'.repeat(size));

/** Strings a client could send anywhere: boundary, unicode, control and injection-ish values. */
const anyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u200b',
    '\ud800',
    '../../etc/passwd',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '$'.concat('{jndi:ldap://x}'),
    '%00',
    '%ZZ',
    'null',
    'undefined',
    '0',
    '-1',
    '1e308',
    'NaN',
    '[]',
    '{}',
  ),
  huge(300),
);

/** Where a conversation id goes: real ids of every scope and organization, UUID look-alikes, junk. */
const conversationIdOf = (w: World) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(...Object.values(w.A.conversations), ...Object.values(w.B.conversations)),
    },
    { weight: 2, arbitrary: fc.uuid().map((id) => id) },
    fc.constantFrom(
      randomUUID().toUpperCase(),
      randomUUID().replaceAll('-', ''),
      `{${randomUUID()}}`,
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      `${randomUUID()} `,
      w.A.databaseId,
      w.B.databaseId,
    ),
    anyText,
  );

/** Percent-encodes the UTF-8 bytes of any string (a lone surrogate goes as U+FFFD, as a client sends it). */
const encodeSegment = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** A path segment as sent: percent-encoded usually, raw sometimes. */
const segmentOf = (w: World) =>
  fc.oneof(
    { weight: 6, arbitrary: conversationIdOf(w).map(encodeSegment) },
    fc.constantFrom('..', '.', '%2e%2e', '%2F', 'a%2Fb', '%00', '%ZZ', '%', '%C0%AF', '~', 'x'.repeat(5_000)),
  );

const credentialOf = (w: World): fc.Arbitrary<Record<string, string>> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom({ 'X-API-Key': w.A.sk }, { 'X-API-Key': w.B.sk }) },
    fc.constantFrom(
      {},
      { 'X-API-Key': w.A.pk },
      { 'X-API-Key': w.B.pk },
      { 'X-API-Key': w.revokedSk },
      { Authorization: `Bearer ${w.A.jwt}` },
      { Authorization: `Bearer ${w.B.jwt}` },
      { Authorization: `Bearer ${w.A.sk}` },
      { Authorization: `Bearer ${w.expiredJwt}` },
      { Authorization: `Bearer ${w.forgedJwt}` },
      { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      { Authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJvcmdfaWQiOjF9.' },
      { Authorization: 'Bearer a.b.c' },
      { Authorization: 'Bearer' },
      { 'X-API-Key': `${w.A.sk}x` },
      { 'X-API-Key': 'sk_' },
      { 'X-API-Key': 'pk_0000' },
      { 'X-API-Key': `sk_${'a'.repeat(10_000)}` },
      { 'X-API-Key': w.A.sk, Authorization: `Bearer ${w.B.jwt}` },
    ),
    anyText.map((text) => ({ 'X-API-Key': latin1(text) })),
  );

/** Header values travel as bytes: unicode goes as its UTF-8 bytes, as a raw client would send it. */
const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
// biome-ignore lint/suspicious/noControlCharactersInRegex: HTTP clients refuse these in headers.
const sendableHeader = (value: string) => !/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value);

const scopeOf = (w: World) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...w.scopes.A, ...w.scopes.B) },
    fc.constantFrom(
      undefined,
      '',
      ' a1 ',
      'A1',
      'a'.repeat(255),
      'a'.repeat(256),
      '𝔘'.repeat(255),
      'é'.repeat(256),
      'a\tb',
      'a\u0085b',
      '\u00a0a1\u00a0',
      '0',
      '-1',
      '12345678901234567890',
    ),
    anyText,
  );

const tenantOf = fc.oneof(
  fc.constantFrom(undefined, undefined, '1', '2', '0', '-1', '1.5', 'abc', '', 'x'.repeat(256), randomUUID()),
  anyText,
);

const contentTypeOf = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  '',
  undefined,
);

const headersOf = (w: World): fc.Arbitrary<Record<string, string>> =>
  fc
    .record({
      credential: credentialOf(w),
      scope: scopeOf(w),
      tenant: tenantOf,
      contentType: contentTypeOf,
      extra: fc.option(
        fc.tuple(fc.constantFrom('X-Forwarded-For', 'Origin', 'X-Session-Id', 'Accept'), anyText),
      ),
    })
    .map(({ credential, scope, tenant, contentType, extra }) => {
      const headers: Record<string, string> = { ...credential };
      if (scope !== undefined) headers['X-Scope-Id'] = latin1(scope);
      if (tenant !== undefined) headers['X-Tenant-Id'] = latin1(tenant);
      if (contentType !== undefined) headers['Content-Type'] = contentType;
      if (extra) headers[extra[0]] = latin1(extra[1]);
      for (const [name, value] of Object.entries(headers)) if (!sendableHeader(value)) delete headers[name];
      return headers;
    });

const limitOf = fc.oneof(
  fc.integer({ min: -5, max: 250 }).map(String),
  fc.constantFrom(
    '0',
    '1',
    '20',
    '100',
    '101',
    '200',
    '201',
    '1e2',
    '1.5',
    ' 5',
    '5 ',
    'abc',
    '',
    '9'.repeat(40),
    '-0',
    '0x10',
  ),
);

/** Tampered, forged, foreign and real cursors. */
const cursorOf = (w: World) => {
  const real = [...Object.values(w.A.cursors), ...Object.values(w.B.cursors)];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...real) },
    fc
      .tuple(fc.constantFrom(...real), fc.nat(), fc.constantFrom('A', 'z', '0', '_', '-'))
      .map(([cursor, at, char]) => {
        const i = at % cursor.length;
        return cursor.slice(0, i) + char + cursor.slice(i + 1);
      }),
    fc.constantFrom(...real).map((cursor) => cursor.split('.').reverse().join('.')),
    fc.jsonValue().map((value) => Buffer.from(JSON.stringify(value)).toString('base64url')),
    fc.constantFrom('', '.', '..', 'e30', 'e30.e30', 'x'.repeat(10_000), '%ZZ', 'null'),
    anyText,
  );
};

const queryOf = (w: World): fc.Arbitrary<string> =>
  fc
    .record(
      {
        limit: limitOf,
        cursor: cursorOf(w),
        page: limitOf,
        page_size: limitOf,
        message: fc.oneof(fc.constantFrom('How many orders were placed in 2025?', 'hello', ''), anyText),
        conversation_id: conversationIdOf(w),
        order: fc.constantFrom('asc', 'desc', 'ASC', '', 'sideways'),
        duplicate: fc.constantFrom('limit', 'cursor', 'conversation_id', 'message'),
      },
      { requiredKeys: [] },
    )
    .map(({ duplicate, ...params }) => {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) search.append(name, value);
      if (duplicate && search.has(duplicate)) search.append(duplicate, '1');
      const text = search.toString();
      return text ? `?${text}` : '';
    });

/** A JSON value of the wrong kind for a field. */
const wrongType = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, [], {}, ['a'], { a: 1 }),
  fc.jsonValue({ maxDepth: 2 }),
);

const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

const bodyOf = (w: World): fc.Arbitrary<string | undefined> => {
  const ids = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(w.A.databaseId, w.B.databaseId) },
    conversationIdOf(w),
    wrongType,
  );
  const fields = fc.record(
    {
      message: fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            'How many orders were placed in 2025?',
            'hi',
            'top 5 customers by revenue',
          ),
        },
        anyText,
        wrongType,
        fc.constantFrom('x'.repeat(4_000), 'x'.repeat(4_001), '𝔘'.repeat(4_000)),
      ),
      database_id: ids,
      conversation_id: conversationIdOf(w),
      session_id: fc.oneof(conversationIdOf(w), wrongType),
      personality_id: fc.oneof(fc.uuid(), wrongType),
      role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'tool', 'USER', 'admin', ''), wrongType),
      content: fc.oneof(
        anyText,
        wrongType,
        fc.constantFrom('x'.repeat(100_000), 'x'.repeat(100_001), '𝔘'.repeat(100_000), 'é'.repeat(100_000)),
      ),
      metadata: fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.constantFrom(
          nested(200, 1),
          nested(1_000, 'deep'),
          { big: 'x'.repeat(16 * 1024) },
          { big: 'x'.repeat(15 * 1024) },
          { query_type: 'sql', incomplete: true, __proto__: { polluted: true } },
          { constructor: { prototype: { polluted: true } } },
        ),
      ),
      extra: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  );
  // Well-formed bodies of each variant, so that the generated requests also reach the stores.
  const append = fc.record(
    {
      conversation_id: conversationIdOf(w),
      role: fc.constantFrom('user', 'assistant', 'system', 'tool'),
      content: fc.oneof(
        fc.string({ minLength: 1, maxLength: 60 }),
        fc.string({ unit: 'grapheme', minLength: 1 }),
      ),
      metadata: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    },
    { requiredKeys: ['conversation_id', 'role', 'content'] },
  );
  const chat = fc.record(
    {
      message: fc.oneof(
        fc.constantFrom('How many orders were placed in 2025?', 'hello'),
        fc.string({ maxLength: 80 }),
      ),
      database_id: fc.constantFrom(w.A.databaseId, w.B.databaseId),
      conversation_id: conversationIdOf(w),
    },
    { requiredKeys: ['message', 'database_id'] },
  );
  return fc.oneof(
    { weight: 6, arbitrary: fields.map((body) => JSON.stringify(body)) },
    { weight: 3, arbitrary: append.map((body) => JSON.stringify(body)) },
    { weight: 2, arbitrary: chat.map((body) => JSON.stringify(body)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
    fc.constantFrom(
      '',
      '{',
      '{"message": "hi",}',
      "{'message': 'hi'}",
      '{"message": "hi"}{"message": "hi"}',
      'null',
      '[]',
      '"just a string"',
      '\u0000',
      '{"message":"a\u0000b","database_id":null}',
      `{"message":"\\ud800"}`,
      '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[',
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      `{"role":"user","content":"x","conversation_id":"${randomUUID()}","metadata":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`,
      '\ufeff{"message":"hi"}',
      'message=hi&database_id=x',
    ),
    anyText,
  );
};

// ---- Requests ------------------------------------------------------------------------------

const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'];
const UNKNOWN_PATHS = [
  '/',
  '/api',
  '/api/v1',
  '/api/v1/',
  '/api/v2/chat/conversations',
  '/api/v1/chat',
  '/api/v1/chat/message/extra',
  '/api/v1/chat/{conversation_id}/history/extra',
  '/api/v1/chat/{conversation_id}/{conversation_id}',
  '/API/V1/BRANDING',
  '/api/v1/branding/',
  '/api/v1//branding',
  '/api/v1/organization/databases/{conversation_id}',
];

const requestOf = (w: World, templates: string[], methods: fc.Arbitrary<string>) =>
  fc
    .record({
      template: fc.constantFrom(...templates),
      segments: fc.array(segmentOf(w), { minLength: 2, maxLength: 2 }),
      method: methods,
      query: queryOf(w),
      headers: headersOf(w),
      body: bodyOf(w),
    })
    .map(({ template, segments, method, query, headers, body }): FuzzRequest => {
      let n = 0;
      const path = template.replaceAll('{conversation_id}', () => segments[n++ % 2]!);
      const withBody = method !== 'GET' && method !== 'OPTIONS' && body !== undefined;
      return { method, path: `${path}${query}`, headers, ...(withBody ? { body } : {}) };
    });

const routeTemplates = () => gateway.routes.map((route) => route.path);
const routeMethods = () => [...new Set(gateway.routes.map((route) => route.method))];

/** Counts the statuses seen, so a run that only ever met one answer is noticed. */
const statuses = new Map<number, number>();
const record = async (request: FuzzRequest): Promise<number> => {
  const { status } = await sendAndCheck(world, request);
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  return status;
};

const RUNS = { routes: fuzzRuns(1_100), bodies: fuzzRuns(800), cursors: fuzzRuns(300) };
/** Room for a slow, shared machine: ~50 ms per request at worst. */
const within = (runs: number) => ({ timeout: Math.max(60_000, runs * 50) });

describe('fuzzing every route', () => {
  it(
    'never answers a generated request with a 5xx, a bare error, or another scope’s data',
    within(RUNS.routes),
    async () => {
      await fc.assert(
        fc.asyncProperty(
          requestOf(world, [...routeTemplates(), ...UNKNOWN_PATHS], fc.constantFrom(...METHODS)),
          async (request) => void (await record(request)),
        ),
        { numRuns: RUNS.routes },
      );
    },
  );

  it(
    'holds for generated bodies and query strings on the real routes and methods',
    within(RUNS.bodies),
    async () => {
      const bodies = gateway.routes.filter((route) => route.method === 'POST').map((route) => route.path);
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            // The two-variant message route as often as before the control plane's POST routes
            // joined the list: its appends and answers are what the generated bodies aim at.
            { weight: 2, arbitrary: requestOf(world, ['/api/v1/chat/message'], fc.constant('POST')) },
            { weight: 3, arbitrary: requestOf(world, bodies, fc.constant('POST')) },
            requestOf(world, routeTemplates(), fc.constantFrom(...routeMethods())),
          ),
          async (request) => void (await record(request)),
        ),
        { numRuns: RUNS.bodies },
      );
    },
  );

  it(
    'holds for the history endpoints of a valid caller with forged, foreign and tampered cursors',
    within(RUNS.cursors),
    async () => {
      const requests = fc
        .record({
          owner: fc.constantFrom(world.A, world.B),
          scope: fc.constantFrom('a1', 'a2', 'b1'),
          path: fc.constantFrom('/api/v1/chat/conversations', '/api/v1/chat/history'),
          query: queryOf(world),
          cursor: cursorOf(world),
        })
        .map(({ owner, scope, path, query, cursor }): FuzzRequest => {
          const search = new URLSearchParams(query.slice(1));
          search.set('cursor', cursor);
          return {
            method: 'GET',
            path: `${path}?${search}`,
            headers: { 'X-API-Key': owner.sk, 'X-Scope-Id': scope },
          };
        });
      await fc.assert(
        fc.asyncProperty(requests, async (request) => void (await record(request))),
        { numRuns: RUNS.cursors },
      );
      // A valid caller met both answers: pages and refusals.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    },
  );

  it('refuses oversized bodies in the envelope, at the service limit and at the gateway limit', async () => {
    // An organization of its own: the fuzzed answering requests have used up A's and B's message limits.
    const fresh = await makeOrganization('enterprise');
    const headers = { 'X-API-Key': fresh.sk, 'X-Scope-Id': 'a1', 'Content-Type': 'application/json' };
    const overService = JSON.stringify({ message: 'x'.repeat(1024 * 1024) });
    const overGateway = JSON.stringify({ message: 'x'.repeat(10 * 1024 * 1024 + 1) });
    for (const body of [overService, overGateway]) {
      expect(await record({ method: 'POST', path: '/api/v1/chat/message', headers, body })).toBe(413);
    }
  });

  it('reports an unknown database and an unknown personality together as one 404, nothing left unhandled', async () => {
    // Found by this suite: the personality's 404 was thrown while the database lookup was still
    // pending, whose rejection then went unhandled (a crash of the function's process).
    const fresh = await makeOrganization('enterprise');
    const status = await record({
      method: 'POST',
      path: '/api/v1/chat/message',
      headers: { 'X-API-Key': fresh.sk, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'hello', database_id: randomUUID(), personality_id: randomUUID() }),
    });
    expect(status).toBe(404);
    // Give a stray rejection the time to surface (vitest fails the run on one).
    await new Promise((done) => setTimeout(done, 200));
  });

  it('met every kind of answer across the run', () => {
    for (const status of [200, 201, 400, 401, 403, 404, 405, 413]) {
      expect(statuses.get(status) ?? 0, `status ${status} seen`).toBeGreaterThan(0);
    }
  });
});
