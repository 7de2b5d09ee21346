// The whole middy chain through the real function handlers (functions/branding.ts and
// functions/databases.ts), with DynamoDB replaced by a small in-memory table behind
// aws-sdk-client-mock. Covers credentials (docs/design.md "Credentials"), X-Scope-Id bounds,
// branding over defaults, the databases page, the warm-path key cache and the error envelope
// as a client receives it.
import { createHash } from 'node:crypto';
import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearPrincipalCaches } from '#lib/auth/principal.ts';
import type { ErrorEnvelope } from '#lib/errors.ts';
import { handler as brandingHandler } from '../../../functions/branding.ts';
import { handler as databasesHandler } from '../../../functions/databases.ts';
import { type ApiEventInit, invoke } from '../../helpers/events.ts';

// The portal-token secret; the settings read it on first use, in the tests below.
const JWT_SECRET = 'unit-test-portal-secret-0123456789abcdef';
process.env.JWT_SECRET = JWT_SECRET;

// ---------------------------------------------------------------------------------------------
// An in-memory stand-in for the table: GetItem by PK/SK, Query by partition with an optional
// begins_with on the sort key, pages of at most QUERY_PAGE_SIZE items (so callers must follow
// LastEvaluatedKey, as they must against DynamoDB's 1 MB pages).

type Item = Record<string, unknown> & { PK: string; SK: string };
const QUERY_PAGE_SIZE = 3;
const ddb = mockClient(DynamoDBDocumentClient);
const table = new Map<string, Item>();
const itemId = (PK: unknown, SK: unknown) => `${String(PK)}\u0000${String(SK)}`;
const putItem = (item: Item) => table.set(itemId(item.PK, item.SK), structuredClone(item));

const routeTable = () => {
  ddb.on(GetCommand).callsFake((input: { Key: { PK: string; SK: string } }) => {
    const item = table.get(itemId(input.Key.PK, input.Key.SK));
    return { Item: item ? structuredClone(item) : undefined };
  });
  ddb
    .on(QueryCommand)
    .callsFake(
      (input: {
        KeyConditionExpression: string;
        ExpressionAttributeValues: Record<string, string>;
        ExclusiveStartKey?: { PK: string; SK: string };
        ScanIndexForward?: boolean;
      }) => {
        const match = /^PK = (:\w+)(?: AND begins_with\(SK, (:\w+)\))?$/.exec(input.KeyConditionExpression);
        if (!match?.[1])
          throw new Error(`fake table: unsupported key condition ${input.KeyConditionExpression}`);
        const pk = input.ExpressionAttributeValues[match[1]];
        const prefix = match[2] ? input.ExpressionAttributeValues[match[2]] : '';
        const items = [...table.values()]
          .filter((item) => item.PK === pk && item.SK.startsWith(prefix ?? ''))
          .sort((a, b) => (a.SK < b.SK ? -1 : a.SK > b.SK ? 1 : 0));
        if (input.ScanIndexForward === false) items.reverse();
        const start = input.ExclusiveStartKey
          ? items.findIndex((item) => item.SK === input.ExclusiveStartKey?.SK) + 1
          : 0;
        const page = items.slice(start, start + QUERY_PAGE_SIZE);
        const last = page.at(-1);
        const more = start + QUERY_PAGE_SIZE < items.length;
        return {
          Items: page.map((item) => structuredClone(item)),
          Count: page.length,
          ...(more && last ? { LastEvaluatedKey: { PK: last.PK, SK: last.SK } } : {}),
        };
      },
    );
};

// ---------------------------------------------------------------------------------------------
// Fixtures: organizations on several plans, their keys (stored as SHA-256 hashes only).

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const seedOrganization = (id: number, plan: string, status = 'active') =>
  putItem({
    PK: `ORG#${id}`,
    SK: 'ORG',
    type: 'organization',
    id,
    name: `Org ${id}`,
    plan,
    status,
    createdAt: '2026-01-01T00:00:00.000Z',
  });

let keyCounter = 0;
const seedKey = (
  kind: 'sk' | 'pk',
  organizationId: number,
  extra: { databaseId?: string; revokedAt?: string; allowedOrigins?: string[] } = {},
): string => {
  keyCounter += 1;
  const key = `${kind}_unitTestKey${String(keyCounter).padStart(4, '0')}abcdefghijklmnopqrstuvwxyz0123`;
  putItem({
    PK: `KEYHASH#${sha256(key)}`,
    SK: 'KEYHASH',
    type: 'apiKeyHash',
    id: `key-${keyCounter}`,
    organizationId,
    kind,
    hint: `${kind}_…${key.slice(-4)}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  });
  return key;
};

const DATABASE_ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

const portalToken = (
  claims: Record<string, unknown>,
  options: { expiresAt?: number; secret?: string } = {},
) =>
  new SignJWT({ token_use: 'portal', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(options.expiresAt ?? Math.floor(Date.now() / 1000) + 300)
    .sign(new TextEncoder().encode(options.secret ?? JWT_SECRET));

const BRANDING_PATH = '/api/v1/branding';
const DATABASES_PATH = '/api/v1/organization/databases';

const getBranding = (init: ApiEventInit = {}) => invoke(brandingHandler, { path: BRANDING_PATH, ...init });
const getDatabases = (init: ApiEventInit = {}) => invoke(databasesHandler, { path: DATABASES_PATH, ...init });
const getBrandingError = (init: ApiEventInit) =>
  invoke<ErrorEnvelope>(brandingHandler, { path: BRANDING_PATH, ...init });
const getDatabasesError = (init: ApiEventInit) =>
  invoke<ErrorEnvelope>(databasesHandler, { path: DATABASES_PATH, ...init });

let starterKey: string;
let professionalKey: string;
let freeKey: string;
let revokedKey: string;
let suspendedOrgKey: string;
let databaseKey: string;

beforeEach(() => {
  table.clear();
  routeTable();
  seedOrganization(1, 'starter');
  seedOrganization(2, 'free');
  seedOrganization(3, 'professional');
  seedOrganization(4, 'business', 'suspended');
  starterKey = seedKey('sk', 1);
  professionalKey = seedKey('sk', 3);
  freeKey = seedKey('sk', 2);
  revokedKey = seedKey('sk', 1, { revokedAt: '2026-02-01T00:00:00.000Z' });
  suspendedOrgKey = seedKey('sk', 4);
  databaseKey = seedKey('pk', 1, { databaseId: DATABASE_ID });
});

afterEach(() => {
  ddb.reset();
  clearPrincipalCaches();
});

const expectError = (
  response: { statusCode: number; body: ErrorEnvelope; headers: Record<string, string> },
  status: number,
  code: string,
  errorCode: string,
) => {
  expect(response.statusCode).toBe(status);
  expect(response.body.success).toBe(false);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error_code).toBe(errorCode);
  expect(response.body.status_code).toBe(status);
  expect(response.body.trace_id).toBe(response.headers['x-request-id']);
};

describe('credentials', () => {
  it('rejects a request without credentials with 401 UNAUTHORIZED / AUTH_INVALID_CREDENTIALS', async () => {
    const response = await getBrandingError({});
    expectError(response, 401, 'UNAUTHORIZED', 'AUTH_INVALID_CREDENTIALS');
    expect(ddb.calls()).toHaveLength(0);
  });

  it('rejects an unknown key after one lookup by its SHA-256 hash, never by the plaintext', async () => {
    // Arrange
    const unknown = 'sk_thisKeyWasNeverIssued0000000000000000000000';

    // Act
    const response = await getBrandingError({ headers: { 'X-API-Key': unknown } });

    // Assert
    expectError(response, 401, 'UNAUTHORIZED', 'AUTH_INVALID_CREDENTIALS');
    const lookups = ddb.commandCalls(GetCommand);
    expect(lookups).toHaveLength(1);
    expect(lookups[0]?.args[0].input.Key).toEqual({ PK: `KEYHASH#${sha256(unknown)}`, SK: 'KEYHASH' });
    expect(JSON.stringify(ddb.calls().map((call) => call.args[0].input))).not.toContain(unknown);
  });

  it('rejects a key without the sk_/pk_ prefix without reading the table', async () => {
    const response = await getBrandingError({ headers: { 'X-API-Key': 'not-a-key' } });
    expectError(response, 401, 'UNAUTHORIZED', 'AUTH_INVALID_CREDENTIALS');
    expect(ddb.calls()).toHaveLength(0);
  });

  it('rejects a revoked key', async () => {
    const response = await getBrandingError({ headers: { 'X-API-Key': revokedKey } });
    expectError(response, 401, 'UNAUTHORIZED', 'AUTH_INVALID_CREDENTIALS');
  });

  it('rejects a key of a suspended organization', async () => {
    const response = await getBrandingError({ headers: { 'X-API-Key': suspendedOrgKey } });
    expectError(response, 401, 'UNAUTHORIZED', 'AUTH_INVALID_CREDENTIALS');
  });

  it('refuses an sk_ key of a free-plan organization with 403 PLAN_FEATURE_REQUIRED / BUSINESS_SUBSCRIPTION_REQUIRED', async () => {
    const onBranding = await getBrandingError({ headers: { 'X-API-Key': freeKey } });
    const onDatabases = await getDatabasesError({ headers: { 'X-API-Key': freeKey } });
    expectError(onBranding, 403, 'PLAN_FEATURE_REQUIRED', 'BUSINESS_SUBSCRIPTION_REQUIRED');
    expectError(onDatabases, 403, 'PLAN_FEATURE_REQUIRED', 'BUSINESS_SUBSCRIPTION_REQUIRED');
  });

  it('refuses a pk_ key on the databases endpoint with 403 FORBIDDEN / AUTH_INSUFFICIENT_PERMISSIONS', async () => {
    const response = await getDatabasesError({ headers: { 'X-API-Key': databaseKey } });
    expectError(response, 403, 'FORBIDDEN', 'AUTH_INSUFFICIENT_PERMISSIONS');
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('serves branding to a pk_ key, for the key’s organization', async () => {
    const response = await getBranding({ headers: { 'X-API-Key': databaseKey } });
    expect(response.statusCode).toBe(200);
    expect(response.body.success).toBe(true);
    const brandingReads = ddb.commandCalls(GetCommand, { Key: { PK: 'ORG#1', SK: 'BRANDING' } });
    expect(brandingReads).toHaveLength(1);
  });

  it('accepts an sk_ key sent as Authorization: Bearer', async () => {
    const response = await getBranding({ headers: { Authorization: `Bearer ${starterKey}` } });
    expect(response.statusCode).toBe(200);
    expect(ddb.commandCalls(GetCommand, { Key: { PK: 'ORG#1', SK: 'BRANDING' } })).toHaveLength(1);
  });

  it('rejects an Authorization header that is not Bearer', async () => {
    const basic = `Basic ${Buffer.from(`user:${starterKey}`).toString('base64')}`;
    const response = await getBrandingError({ headers: { Authorization: basic } });
    expectError(response, 401, 'UNAUTHORIZED', 'AUTH_INVALID_CREDENTIALS');
  });

  it('accepts a portal JWT (HS256) with org_id and sub claims, on both endpoints', async () => {
    // Arrange: organization 3's databases list is empty; the token names organization 3.
    const token = await portalToken({ org_id: 3, sub: 'user-42', role: 'admin' });

    // Act
    const branding = await getBranding({ headers: { Authorization: `Bearer ${token}` } });
    const databases = await getDatabases({ headers: { Authorization: `Bearer ${token}` } });

    // Assert
    expect(branding.statusCode).toBe(200);
    expect(databases.statusCode).toBe(200);
    expect(ddb.commandCalls(GetCommand, { Key: { PK: 'ORG#3', SK: 'BRANDING' } })).toHaveLength(1);
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input.ExpressionAttributeValues).toMatchObject({
      ':org': 'ORG#3',
    });
  });

  it('accepts a portal JWT of a free-plan organization (the plan gate applies to sk_ keys only)', async () => {
    const token = await portalToken({ org_id: '2', sub: 'user-7' });
    const response = await getDatabases({ headers: { Authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(200);
  });

  it('rejects an expired portal JWT with AUTH_TOKEN_EXPIRED', async () => {
    const token = await portalToken(
      { org_id: 1, sub: 'user-42' },
      { expiresAt: Math.floor(Date.now() / 1000) - 60 },
    );
    const response = await getBrandingError({ headers: { Authorization: `Bearer ${token}` } });
    expectError(response, 401, 'UNAUTHORIZED', 'AUTH_TOKEN_EXPIRED');
  });

  it('rejects a tampered portal JWT (claims changed, signature kept) with AUTH_TOKEN_INVALID', async () => {
    // Arrange: a valid token for organization 1, its payload rewritten to claim organization 3.
    const token = await portalToken({ org_id: 1, sub: 'user-42' });
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const forged = Buffer.from(JSON.stringify({ ...claims, org_id: 3 })).toString('base64url');

    // Act
    const response = await getBrandingError({
      headers: { Authorization: `Bearer ${header}.${forged}.${signature}` },
    });

    // Assert
    expectError(response, 401, 'UNAUTHORIZED', 'AUTH_TOKEN_INVALID');
    expect(ddb.commandCalls(GetCommand, { Key: { PK: 'ORG#3', SK: 'BRANDING' } })).toHaveLength(0);
  });

  it('rejects portal JWTs signed with another secret, unsigned, or without org_id', async () => {
    const otherSecret = await portalToken(
      { org_id: 1, sub: 'u' },
      { secret: 'another-secret-another-secret-000' },
    );
    const unsignedHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const unsignedPayload = Buffer.from(JSON.stringify({ org_id: 1, sub: 'u' })).toString('base64url');
    const noOrg = await portalToken({ sub: 'u' });
    for (const token of [otherSecret, `${unsignedHeader}.${unsignedPayload}.`, noOrg]) {
      const response = await getBrandingError({ headers: { Authorization: `Bearer ${token}` } });
      expectError(response, 401, 'UNAUTHORIZED', 'AUTH_TOKEN_INVALID');
    }
  });

  it('rejects a portal JWT naming an organization that does not exist', async () => {
    const token = await portalToken({ org_id: 999, sub: 'user-42' });
    const response = await getBrandingError({ headers: { Authorization: `Bearer ${token}` } });
    expectError(response, 401, 'UNAUTHORIZED', 'AUTH_TOKEN_INVALID');
  });

  it.each([
    ['x-api-key', 'lower case'],
    ['X-API-KEY', 'upper case'],
    ['X-Api-Key', 'title case'],
  ])('reads the API key header whatever its case (%s, %s)', async (name) => {
    const response = await getBranding({ headers: { [name]: starterKey } });
    expect(response.statusCode).toBe(200);
  });

  it('reads Authorization and the Bearer scheme whatever their case', async () => {
    const token = await portalToken({ org_id: 1, sub: 'user-42' });
    const upper = await getBranding({ headers: { AUTHORIZATION: `BEARER ${token}` } });
    const lower = await getBranding({ headers: { authorization: `bearer ${starterKey}` } });
    expect(upper.statusCode).toBe(200);
    expect(lower.statusCode).toBe(200);
  });
});

describe('X-Scope-Id bounds', () => {
  const scopeError = async (scope: string, headerName = 'X-Scope-Id') => {
    const response = await getBrandingError({ headers: { 'X-API-Key': starterKey, [headerName]: scope } });
    expectError(response, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR');
    expect(response.body.details.map((issue) => issue.field)).toEqual(['X-Scope-Id']);
    return response;
  };

  it('accepts a scope of exactly 255 characters and a numeric scope', async () => {
    for (const scope of ['u'.repeat(255), '12345']) {
      const response = await getBranding({ headers: { 'X-API-Key': starterKey, 'X-Scope-Id': scope } });
      expect(response.statusCode).toBe(200);
    }
  });

  it('rejects a scope over 255 characters with 400 on field X-Scope-Id', async () => {
    await scopeError('u'.repeat(256));
  });

  it.each([
    ['NUL', 'user\u0000admin'],
    ['line feed', 'user\nX-Injected: 1'],
    ['carriage return', 'user\rx'],
    ['tab', 'user\tx'],
    ['DEL', 'user\u007f'],
    ['C1 control', 'user\u0085x'],
  ])('rejects a scope containing a control character (%s)', async (_name, scope) => {
    await scopeError(scope);
  });

  it('applies the bounds whatever the header name’s case', async () => {
    await scopeError('u'.repeat(256), 'x-scope-id');
    await scopeError('u'.repeat(300), 'X-SCOPE-ID');
  });
});

describe('GET /api/v1/branding', () => {
  // The spec's Branding object, field by field, with the type each value must have.
  const hex = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
  const isHttpUrl = (value: unknown) =>
    typeof value === 'string' && /^https?:$/.test(new URL(value).protocol);
  const specFields: [path: string, check: (value: unknown) => boolean][] = [
    ['colors.primary', (value) => typeof value === 'string' && hex.test(value)],
    ['colors.secondary', (value) => typeof value === 'string' && hex.test(value)],
    ['colors.accent', (value) => typeof value === 'string' && hex.test(value)],
    ['colors.text_primary', (value) => typeof value === 'string' && hex.test(value)],
    ['colors.text_secondary', (value) => typeof value === 'string' && hex.test(value)],
    ['logo_url', isHttpUrl],
    ['logo_dark_url', isHttpUrl],
    ['widget_theme.position', (value) => typeof value === 'string' && value.length > 0],
    ['widget_theme.greeting_message', (value) => typeof value === 'string'],
    ['widget_theme.placeholder_text', (value) => typeof value === 'string'],
    ['widget_theme.header_color', (value) => typeof value === 'string' && hex.test(value)],
    ['hide_dialektai_branding', (value) => typeof value === 'boolean'],
  ];
  const at = (object: unknown, path: string): unknown =>
    path
      .split('.')
      .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], object);

  it('returns every field of the spec’s Branding object, each with its type, when nothing is stored', async () => {
    const response = await getBranding({ headers: { 'X-API-Key': starterKey } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const data = response.body.data;
    for (const [path, check] of specFields) {
      expect(check(at(data, path)), `${path} = ${JSON.stringify(at(data, path))}`).toBe(true);
    }
  });

  it('merges the stored fields over the defaults, field by field', async () => {
    // Arrange
    const defaults = (await getBranding({ headers: { 'X-API-Key': starterKey } })).body.data as Record<
      string,
      never
    >;
    putItem({
      PK: 'ORG#1',
      SK: 'BRANDING',
      type: 'branding',
      branding: {
        colors: { primary: '#112233' },
        logo_url: 'https://cdn.acme.example/logo.png',
        widget_theme: { position: 'top-left', greeting_message: 'Welcome to Acme' },
        hide_dialektai_branding: true,
      },
    });

    // Act
    const response = await getBranding({ headers: { 'X-API-Key': starterKey } });

    // Assert
    expect(response.statusCode).toBe(200);
    const data = response.body.data;
    expect(at(data, 'colors.primary')).toBe('#112233');
    expect(at(data, 'logo_url')).toBe('https://cdn.acme.example/logo.png');
    expect(at(data, 'widget_theme.position')).toBe('top-left');
    expect(at(data, 'widget_theme.greeting_message')).toBe('Welcome to Acme');
    expect(at(data, 'hide_dialektai_branding')).toBe(true);
    for (const path of [
      'colors.secondary',
      'colors.accent',
      'colors.text_primary',
      'colors.text_secondary',
      'logo_dark_url',
      'widget_theme.placeholder_text',
      'widget_theme.header_color',
    ]) {
      expect(at(data, path), path).toEqual(at(defaults, path));
    }
    for (const [path, check] of specFields) expect(check(at(data, path)), path).toBe(true);
  });

  it('reads only the caller’s organization’s branding', async () => {
    putItem({ PK: 'ORG#3', SK: 'BRANDING', type: 'branding', branding: { colors: { primary: '#333333' } } });
    const response = await getBranding({ headers: { 'X-API-Key': starterKey } });
    expect(at(response.body.data, 'colors.primary')).not.toBe('#333333');
    expect(ddb.commandCalls(GetCommand, { Key: { PK: 'ORG#3', SK: 'BRANDING' } })).toHaveLength(0);
  });

  it('answers a warm request with exactly one DynamoDB call: the key and organization come from the cache', async () => {
    // Arrange: a cold first request resolves the key and the organization.
    const cold = await getBranding({ headers: { 'X-API-Key': starterKey } });
    expect(cold.statusCode).toBe(200);
    // Three reads, and the key's first use recorded (lib/store/api-keys.ts touchApiKey: two
    // conditional UpdateItems, not awaited, at most every 10 minutes per key).
    const [writes, reads] = [
      ddb.calls().filter((call) => call.args[0] instanceof UpdateCommand),
      ddb.calls().filter((call) => !(call.args[0] instanceof UpdateCommand)),
    ];
    expect(reads).toHaveLength(3);
    expect(writes.length).toBeLessThanOrEqual(2);
    await new Promise((done) => setImmediate(done));
    ddb.resetHistory();

    // Act
    const warm = await getBranding({ headers: { 'X-API-Key': starterKey } });

    // Assert
    expect(warm.statusCode).toBe(200);
    const calls = ddb.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0]).toBeInstanceOf(GetCommand);
    expect(calls[0]?.args[0].input).toMatchObject({
      TableName: 'tabletalk-unit',
      Key: { PK: 'ORG#1', SK: 'BRANDING' },
    });
  });
});

describe('GET /api/v1/organization/databases', () => {
  const seedDatabases = (organizationId: number, count: number) => {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const id = `0190a1b2-c3d4-7e5f-8a9b-${String(index).padStart(12, '0')}`;
      ids.push(id);
      putItem({
        PK: `ORG#${organizationId}`,
        SK: `DB#${id}`,
        type: 'database',
        id,
        organizationId,
        name: `Database ${index}`,
        engine: index % 2 === 0 ? 'postgres' : 'mysql',
        status: 'active',
        requiresOrganizationScoping: index === 0,
        ...(index === 0 ? { tenantFilterColumn: 'org_id' } : {}),
        policy: { tables: {} },
        connectionRef:
          index % 2 === 0
            ? `arn:aws:secretsmanager:us-east-1:123456789012:secret:tabletalk/prod/databases/${id}`
            : 'enc:v1:c2VjcmV0LWNpcGhlcnRleHQ=',
        seedFile: 'seeds/demo.sql',
        allowedOrigins: ['https://shop.example'],
        createdAt: `2026-01-0${1 + (index % 9)}T00:00:00.000Z`,
      });
    }
    return ids;
  };

  type Page = {
    success: boolean;
    data: Record<string, unknown>[];
    pagination: {
      current_page: number;
      page_size: number;
      total_items: number;
      total_pages: number;
      has_next: boolean;
      has_previous: boolean;
    };
  };
  const listPage = (query: Record<string, string>) =>
    invoke<Page>(databasesHandler, { path: DATABASES_PATH, headers: { 'X-API-Key': starterKey }, query });

  it('pages through the organization’s databases in the Paginated response wrapper', async () => {
    // Arrange: 7 databases of organization 1, and one of another organization that must not show.
    const ids = seedDatabases(1, 7);
    seedDatabases(3, 1);

    // Act
    const first = await listPage({ page: '1', page_size: '3' });
    const middle = await listPage({ page: '2', page_size: '3' });
    const last = await listPage({ page: '3', page_size: '3' });

    // Assert
    expect(first.statusCode).toBe(200);
    expect(first.body.success).toBe(true);
    expect(first.body.pagination).toEqual({
      current_page: 1,
      page_size: 3,
      total_items: 7,
      total_pages: 3,
      has_next: true,
      has_previous: false,
    });
    expect(middle.body.pagination).toMatchObject({ current_page: 2, has_next: true, has_previous: true });
    expect(last.body.pagination).toMatchObject({
      current_page: 3,
      total_pages: 3,
      has_next: false,
      has_previous: true,
    });
    const listed = [first, middle, last].flatMap((page) => page.body.data.map((database) => database.id));
    expect(listed).toEqual(ids);
    expect(last.body.data).toHaveLength(1);
  });

  it('defaults to page 1 of 20 and reports an empty list as zero pages', async () => {
    const empty = await listPage({});
    expect(empty.statusCode).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.pagination).toMatchObject({
      current_page: 1,
      page_size: 20,
      total_items: 0,
      has_next: false,
      has_previous: false,
    });
  });

  it('shows the public fields of a database and never its connection reference or anything URL-like', async () => {
    seedDatabases(1, 4);
    const response = await listPage({ page_size: '100' });
    expect(response.statusCode).toBe(200);
    expect(response.body.data).toHaveLength(4);
    expect(response.body.data[0]).toMatchObject({
      id: expect.any(String),
      name: 'Database 0',
      engine: 'postgres',
      requires_organization_scoping: true,
      tenant_filter_column: 'org_id',
    });
    for (const database of response.body.data) {
      expect(Object.keys(database)).not.toContain('connectionRef');
      expect(Object.keys(database)).not.toContain('seedFile');
    }
    expect(response.raw).not.toMatch(
      /connectionRef|connection_ref|secretsmanager|arn:|enc:v1:|seedFile|seeds\//i,
    );
    expect(response.raw).not.toMatch(/[a-z][a-z0-9+.-]*:\/\//i);
  });

  it.each([
    ['page_size', '0'],
    ['page_size', '101'],
    ['page_size', 'abc'],
    ['page_size', '2.5'],
    ['page_size', ''],
    ['page', '0'],
    ['page', '-1'],
  ])('rejects %s=%j with 400 VALIDATION_ERROR naming query.%s', async (name, value) => {
    const response = await invoke<ErrorEnvelope>(databasesHandler, {
      path: DATABASES_PATH,
      headers: { 'X-API-Key': starterKey },
      query: { [name]: value },
    });
    expectError(response, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR');
    expect(response.body.details.map((issue) => issue.field)).toEqual([`query.${name}`]);
    expect(response.body.error.details).toContain(`query.${name}`);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('accepts the bounds page_size=1 and page_size=100', async () => {
    seedDatabases(1, 2);
    const one = await listPage({ page_size: '1' });
    const hundred = await listPage({ page_size: '100' });
    expect(one.body.pagination).toMatchObject({ page_size: 1, total_pages: 2, has_next: true });
    expect(hundred.body.pagination).toMatchObject({ page_size: 100, total_pages: 1, has_next: false });
  });

  it('serves a professional organization’s sk_ key', async () => {
    const response = await invoke(databasesHandler, {
      path: DATABASES_PATH,
      headers: { 'X-API-Key': professionalKey },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('the error envelope as a client receives it', () => {
  it('puts X-Request-ID (req_<API Gateway request id>) on successes and errors, equal to trace_id', async () => {
    const success = await getBranding({ headers: { 'X-API-Key': starterKey }, requestId: 'abc-123' });
    const failure = await getBrandingError({ headers: { 'X-API-Key': 'sk_nope' }, requestId: 'def-456' });
    expect(success.headers['x-request-id']).toBe('req_abc-123');
    expect(failure.headers['x-request-id']).toBe('req_def-456');
    expect(failure.body.trace_id).toBe('req_def-456');
  });

  it('answers an unexpected error with a generic 500 that shows neither its message nor its stack', async () => {
    // Arrange: the branding read fails with an error full of internals.
    const internal = new Error(
      'connect to postgres://admin:hunter2@10.0.0.5:5432/prod failed in readBranding',
    );
    internal.stack = `${internal.message}\n    at readBranding (/var/task/lib/store/branding.ts:81:3)`;
    ddb.on(GetCommand, { Key: { PK: 'ORG#1', SK: 'BRANDING' } }).rejects(internal);

    // Act
    const response = await getBrandingError({ headers: { 'X-API-Key': starterKey } });

    // Assert
    expectError(response, 500, 'INTERNAL_SERVER_ERROR', 'SYSTEM_INTERNAL_ERROR');
    for (const secret of ['hunter2', 'postgres://', '10.0.0.5', 'readBranding', '/var/task', 'branding.ts']) {
      expect(response.raw).not.toContain(secret);
    }
    expect(response.headers['retry-after']).toBeUndefined();
  });

  it.each([
    [
      'ProvisionedThroughputExceededException',
      () =>
        new ProvisionedThroughputExceededException({
          message: 'Rate of requests exceeds the allowed throughput',
          $metadata: {},
        }),
    ],
    ['ThrottlingException', () => Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' })],
    [
      'ECONNREFUSED',
      () => Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:443'), { code: 'ECONNREFUSED' }),
    ],
    ['ETIMEDOUT', () => Object.assign(new Error('connect ETIMEDOUT 10.1.2.3:443'), { code: 'ETIMEDOUT' })],
  ])('answers a DynamoDB outage (%s) with 503 and Retry-After', async (_name, makeError) => {
    // Arrange: the very first read (the key lookup) fails.
    ddb.on(GetCommand).rejects(makeError());

    // Act
    const response = await getBrandingError({ headers: { 'X-API-Key': starterKey } });

    // Assert
    expectError(response, 503, 'SERVICE_UNAVAILABLE', 'SYSTEM_SERVICE_UNAVAILABLE');
    expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(response.raw).not.toContain('10.1.2.3');
  });
});
