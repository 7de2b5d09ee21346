// X-Tenant-Id and scope values against a connected database (docs/design.md "Tenant filtering and
// the SQL guard", spec "Tenant errors"): validated against the type of the column they are
// compared with, and the three tenant error cases with their codes, through the real chain.
import middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import { integerRange, resolveTenant, SCOPING_NOT_ENABLED } from '#lib/auth/tenant.ts';
import type { Catalog, CatalogColumn, CatalogRelation } from '#lib/core/catalog.ts';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { headerNormaliser } from '#lib/http/middleware/headers.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import { scope } from '#lib/http/middleware/scope.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { invoke } from '../helpers/events.ts';

const column = (name: string, kind: CatalogColumn['kind'], nativeType: string): CatalogColumn => ({
  name,
  kind,
  nativeType,
  nullable: false,
});

const relation = (name: string, columns: CatalogColumn[]): CatalogRelation => ({
  schema: 'public',
  name,
  kind: 'table',
  columns,
  primaryKey: ['id'],
  foreignKeys: [],
  rowEstimate: 10,
  samples: {},
});

const catalogWith = (tenantColumn: CatalogColumn, scopeColumn?: CatalogColumn): Catalog => ({
  dialect: 'postgres',
  defaultSchema: 'public',
  relations: [
    relation('orders', [
      column('id', 'integer', 'integer'),
      tenantColumn,
      ...(scopeColumn ? [scopeColumn] : []),
    ]),
    relation('countries', [column('code', 'text', 'character(2)')]),
  ],
  userFunctions: [],
  indexedAt: '2026-01-01T00:00:00.000Z',
});

const scoped = {
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'org_id',
  policy: { tenant_column: 'org_id', scope_column: 'user_id', tables: { countries: { shared: true } } },
} satisfies Partial<DatabaseRecord>;
const unscoped = {
  requiresOrganizationScoping: false,
  policy: { tables: {} },
} satisfies Partial<DatabaseRecord>;

const integerTenant = catalogWith(column('org_id', 'integer', 'integer'));

describe('resolveTenant: values against their column type', () => {
  it('takes a positive integer within the column range as a number', () => {
    expect(resolveTenant(scoped, integerTenant, '42', undefined)).toEqual({ tenant: 42 });
    expect(resolveTenant(scoped, integerTenant, ' 7 ', undefined)).toEqual({ tenant: 7 });
    expect(resolveTenant(scoped, integerTenant, '1', undefined)).toEqual({ tenant: 1 });
    expect(resolveTenant(scoped, integerTenant, '2147483647', undefined)).toEqual({ tenant: 2147483647 });
  });

  it.each([
    ['abc', /must be a positive integer/],
    ['1.5', /must be a positive integer/],
    ['2147483648', /from 1 to 2147483647/],
    ['1e3', /must be a positive integer/],
    ['1; DROP TABLE orders', /must be a positive integer/],
    // docs/design.md: "a positive integer (1 … 2^53−1) … so `0` and `-1` are 403 INVALID_FORMAT".
    ['0', /from 1 to 2147483647/],
    ['-1', /from 1 to 2147483647/],
    ['-0', /from 1 to 2147483647/],
    ['-2147483648', /from 1 to 2147483647/],
  ])('refuses %j for an integer column', (value, message) => {
    expect(() => resolveTenant(scoped, integerTenant, value, undefined)).toThrowError(
      expect.objectContaining({
        kind: 'INVALID_TENANT',
        message: expect.stringMatching(message),
        issues: [expect.objectContaining({ field: 'X-Tenant-Id', code: 'INVALID_FORMAT' })],
      }),
    );
  });

  it('uses the range of the native type: smallint, bigint, unsigned MySQL types', () => {
    expect(integerRange('smallint')).toEqual([-32768n, 32767n]);
    expect(integerRange('bigint')).toEqual([-(2n ** 63n), 2n ** 63n - 1n]);
    expect(integerRange('int(10) unsigned')).toEqual([0n, 4294967295n]);
    expect(integerRange('tinyint(3) unsigned')).toEqual([0n, 255n]);
    // A bigint column still takes ids up to 2^53−1 only: exact as JSON numbers and in JavaScript.
    const big = catalogWith(column('org_id', 'integer', 'bigint'));
    expect(resolveTenant(scoped, big, '9007199254740991', undefined)).toEqual({ tenant: 9007199254740991 });
    for (const value of ['9007199254740992', '9223372036854775807', '0', '-1']) {
      expect(() => resolveTenant(scoped, big, value, undefined), value).toThrowError(
        expect.objectContaining({
          kind: 'INVALID_TENANT',
          message: expect.stringMatching(/from 1 to 9007199254740991/),
          issues: [expect.objectContaining({ field: 'X-Tenant-Id', code: 'INVALID_FORMAT' })],
        }),
      );
    }
    const unsigned = { ...integerTenant, dialect: 'mysql' as const };
    unsigned.relations = [relation('orders', [column('org_id', 'integer', 'int(10) unsigned')])];
    expect(() => resolveTenant(scoped, unsigned, '-1', undefined)).toThrow(/from 1 to 4294967295/);
    expect(() => resolveTenant(scoped, unsigned, '0', undefined)).toThrow(/from 1 to 4294967295/);
  });

  it('takes a UUID for a uuid column, normalised to lower case', () => {
    const uuid = catalogWith(column('org_id', 'uuid', 'uuid'));
    expect(resolveTenant(scoped, uuid, '0190ABCD-0000-7000-8000-000000000001', undefined)).toEqual({
      tenant: '0190abcd-0000-7000-8000-000000000001',
    });
    expect(() => resolveTenant(scoped, uuid, '42', undefined)).toThrow(/must be a UUID/);
  });

  it('takes 1 to 255 printable characters for a text column (or when no catalog is known)', () => {
    const text = catalogWith(column('org_id', 'text', 'text'));
    expect(resolveTenant(scoped, text, 'acme-eu', undefined)).toEqual({ tenant: 'acme-eu' });
    expect(resolveTenant(scoped, undefined, 'anything at all', undefined)).toEqual({
      tenant: 'anything at all',
    });
    expect(resolveTenant(scoped, text, 'é'.repeat(255), undefined)).toEqual({ tenant: 'é'.repeat(255) });
    expect(() => resolveTenant(scoped, text, 'x'.repeat(256), undefined)).toThrow(/at most 255/);
    expect(() => resolveTenant(scoped, text, 'a\u0000b', undefined)).toThrow(/printable/);
    expect(() => resolveTenant(scoped, text, 'a\r\nX-Evil: 1', undefined)).toThrow(/printable/);
  });

  it('checks the scope value against the scope column: a 400 on X-Scope-Id when it does not fit', () => {
    const catalog = catalogWith(
      column('org_id', 'integer', 'integer'),
      column('user_id', 'integer', 'bigint'),
    );
    expect(resolveTenant(scoped, catalog, '1', '99')).toEqual({ tenant: 1, scope: 99 });
    // The scope value on an integer column is a positive integer too.
    for (const value of ['alice', '0', '-1', '9007199254740992']) {
      expect(() => resolveTenant(scoped, catalog, '1', value), value).toThrowError(
        expect.objectContaining({
          kind: 'VALIDATION',
          issues: [expect.objectContaining({ field: 'X-Scope-Id', code: 'INVALID_FORMAT' })],
        }),
      );
    }
  });

  it('leaves the scope out when the policy has no scope column', () => {
    const noScope = { ...scoped, policy: { tenant_column: 'org_id', tables: {} } };
    expect(resolveTenant(noScope, integerTenant, '1', 'alice')).toEqual({ tenant: 1 });
  });
});

describe('resolveTenant: scope_required', () => {
  const required = { ...scoped, policy: { ...scoped.policy, scope_required: true } };

  it('refuses a request without X-Scope-Id: 403 AUTH_INSUFFICIENT_PERMISSIONS, MISSING_REQUIRED_HEADER', () => {
    for (const missing of [undefined, '', '  ']) {
      expect(() => resolveTenant(required, integerTenant, '1', missing)).toThrowError(
        expect.objectContaining({
          kind: 'SCOPE_REQUIRED',
          status: 403,
          issues: [expect.objectContaining({ field: 'X-Scope-Id', code: 'MISSING_REQUIRED_HEADER' })],
        }),
      );
    }
    expect(resolveTenant(required, integerTenant, '1', 'alice')).toEqual({ tenant: 1, scope: 'alice' });
  });

  it('without it, a request without X-Scope-Id is filtered by tenant only', () => {
    expect(resolveTenant(scoped, integerTenant, '1', undefined)).toEqual({ tenant: 1 });
  });

  it('tells the tenant error first, and holds on a database without tenant scoping too', () => {
    expect(() => resolveTenant(required, integerTenant, undefined, undefined)).toThrowError(
      expect.objectContaining({ kind: 'INVALID_TENANT' }),
    );
    const scopeOnly = {
      requiresOrganizationScoping: false,
      policy: { scope_column: 'user_id', scope_required: true, tables: {} },
    };
    expect(() => resolveTenant(scopeOnly, undefined, undefined, undefined)).toThrowError(
      expect.objectContaining({ kind: 'SCOPE_REQUIRED' }),
    );
    expect(resolveTenant(scopeOnly, undefined, undefined, 'u-1')).toEqual({ scope: 'u-1' });
  });
});

describe('resolveTenant: the three tenant errors', () => {
  it('missing while scoping is required: MISSING_REQUIRED_HEADER', () => {
    for (const missing of [undefined, '', '   ']) {
      expect(() => resolveTenant(scoped, integerTenant, missing, undefined)).toThrowError(
        expect.objectContaining({
          kind: 'INVALID_TENANT',
          issues: [expect.objectContaining({ field: 'X-Tenant-Id', code: 'MISSING_REQUIRED_HEADER' })],
        }),
      );
    }
  });

  it('sent to a database without scoping: the "not enabled" message', () => {
    expect(() => resolveTenant(unscoped, integerTenant, '1', undefined)).toThrowError(
      expect.objectContaining({ kind: 'INVALID_TENANT', message: SCOPING_NOT_ENABLED }),
    );
    expect(resolveTenant(unscoped, integerTenant, undefined, undefined)).toEqual({});
  });
});

// The rule as the answering endpoints apply it (lib/answer/chat.ts prepareChatAnswer): after the
// scope middleware, on the request's database, its errors turned into envelopes by the chain.
describe('the tenant rule through the chain', () => {
  const database = {
    id: '01900000-0000-7000-8000-000000000001',
    organizationId: 1,
    name: 'Shop',
    engine: 'pglite',
    status: 'active',
    connectionRef: 'enc:v1:x',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...scoped,
  } satisfies DatabaseRecord;
  const chainOn = (record: DatabaseRecord, catalog: Catalog | undefined) =>
    middy<ApiEvent, ApiResult, Error, ApiContext>()
      .use(requestId())
      .use(errorEnvelope())
      .use(headerNormaliser())
      .use(scope({ required: false }))
      .handler(async (_event, context) => {
        const values = resolveTenant(record, catalog, context.headers['x-tenant-id'], context.scopeId);
        return { statusCode: 200, body: JSON.stringify({ values }) };
      });
  const handler = chainOn(database, integerTenant);

  it('gives the validated values', async () => {
    const response = await invoke(handler, { headers: { 'X-Tenant-Id': '12' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ values: { tenant: 12 } });
  });

  it('answers an invalid header with 403 INVALID_TENANT_ID / AUTH_INSUFFICIENT_PERMISSIONS', async () => {
    const response = await invoke(handler, { headers: { 'x-tenant-id': 'abc' } });
    expect(response.statusCode).toBe(403);
    expect(response.body).toMatchObject({
      success: false,
      error: { code: 'INVALID_TENANT_ID', details: 'INVALID_FORMAT' },
      error_code: 'AUTH_INSUFFICIENT_PERMISSIONS',
      status_code: 403,
      details: [{ field: 'X-Tenant-Id', code: 'INVALID_FORMAT' }],
    });
  });

  it.each(['0', '-1'])(
    'answers X-Tenant-Id: %s on an integer column with 403 INVALID_FORMAT',
    async (value) => {
      const response = await invoke(handler, { headers: { 'X-Tenant-Id': value } });
      expect(response.statusCode).toBe(403);
      expect(response.body).toMatchObject({
        error: { code: 'INVALID_TENANT_ID', details: 'INVALID_FORMAT' },
        error_code: 'AUTH_INSUFFICIENT_PERMISSIONS',
        details: [{ field: 'X-Tenant-Id', code: 'INVALID_FORMAT' }],
      });
    },
  );

  it('answers a missing X-Scope-Id on a scope_required database with 403 MISSING_REQUIRED_HEADER', async () => {
    const required = chainOn(
      { ...database, policy: { ...database.policy, scope_required: true } },
      integerTenant,
    );
    const response = await invoke(required, { headers: { 'X-Tenant-Id': '1' } });
    expect(response.statusCode).toBe(403);
    expect(response.body).toMatchObject({
      error: { code: 'FORBIDDEN' },
      error_code: 'AUTH_INSUFFICIENT_PERMISSIONS',
      details: [{ field: 'X-Scope-Id', code: 'MISSING_REQUIRED_HEADER' }],
    });
    expect(
      (await invoke(required, { headers: { 'X-Tenant-Id': '1', 'X-Scope-Id': 'alice' } })).statusCode,
    ).toBe(200);
  });

  it('answers a missing header with MISSING_REQUIRED_HEADER', async () => {
    const response = await invoke(handler, {});
    expect(response.statusCode).toBe(403);
    expect(response.body).toMatchObject({
      error: { code: 'INVALID_TENANT_ID', details: 'MISSING_REQUIRED_HEADER' },
      error_code: 'AUTH_INSUFFICIENT_PERMISSIONS',
      details: [{ field: 'X-Tenant-Id', code: 'MISSING_REQUIRED_HEADER' }],
    });
  });

  it('answers a tenant header on an unscoped database with the "not enabled" message', async () => {
    const open = chainOn({ ...database, ...unscoped }, undefined);
    const response = await invoke(open, { headers: { 'X-Tenant-Id': '1' } });
    expect(response.statusCode).toBe(403);
    expect(response.body).toMatchObject({
      error: { code: 'INVALID_TENANT_ID', message: 'Organization scoping is not enabled for this database' },
      error_code: 'AUTH_INSUFFICIENT_PERMISSIONS',
      message: 'Organization scoping is not enabled for this database',
    });
  });
});
