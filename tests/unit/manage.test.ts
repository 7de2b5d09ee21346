// The control plane's pure parts (docs/control-plane.md): who may write, how a connection's parts
// become its URL and which hosts a deployed stage refuses, how a body's row policy merges with the
// database's, how a job that never finished is read, and the progress introspection reports.
import { afterEach, describe, expect, it } from 'vitest';
import { authorise, type Principal } from '#lib/auth/principal.ts';
import { resetSettings } from '#lib/config.ts';
import { collectSamples } from '#lib/connectors/introspect.ts';
import { postgres } from '#lib/dialects/postgres/index.ts';
import { readAccess, writeAccess } from '#lib/manage/access.ts';
import { checkHostAllowed, connectionUrlOf } from '#lib/manage/connection.ts';
import { resolvePolicy } from '#lib/manage/database-changes.ts';
import { jobDeadlineMs, MAX_EVENT_AGE_SECONDS, publicJob } from '#lib/manage/job-states.ts';
import type { JobRecord } from '#lib/store/jobs.ts';
import { ordersCatalog } from '../fixtures/catalogs/orders.ts';

const principal = (overrides: Partial<Principal>): Principal => ({
  credential: 'sk',
  organizationId: 1,
  plan: 'professional',
  ...overrides,
});

const refusal = (run: () => void): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { kind?: string }).kind;
  }
};

describe('who may use the control plane', () => {
  it('lets owners, admins and manage keys write; members and other sk_ keys read only', () => {
    for (const role of ['owner', 'admin'] as const)
      expect(refusal(() => authorise(principal({ credential: 'jwt', role }), writeAccess))).toBeUndefined();
    expect(refusal(() => authorise(principal({ credential: 'jwt', role: 'member' }), writeAccess))).toBe(
      'FORBIDDEN',
    );
    expect(
      refusal(() => authorise(principal({ credential: 'jwt', role: 'member' }), readAccess)),
    ).toBeUndefined();
    expect(refusal(() => authorise(principal({ manage: true }), writeAccess))).toBeUndefined();
    expect(refusal(() => authorise(principal({}), writeAccess))).toBe('FORBIDDEN');
    expect(refusal(() => authorise(principal({}), readAccess))).toBeUndefined();
    for (const credential of ['pk', 'et'] as const) {
      expect(refusal(() => authorise(principal({ credential }), readAccess))).toBe('FORBIDDEN');
      expect(refusal(() => authorise(principal({ credential, manage: true }), writeAccess))).toBe(
        'FORBIDDEN',
      );
    }
    // The plan gate comes first for sk_ keys, manage or not.
    expect(refusal(() => authorise(principal({ plan: 'free', manage: true }), writeAccess))).toBe(
      'PLAN_FEATURE_REQUIRED',
    );
  });
});

describe('connections', () => {
  afterEach(() => {
    delete process.env.STAGE;
    resetSettings();
  });

  it('makes the parts into the engine’s URL, percent-encoding user, password and database', () => {
    const url = connectionUrlOf('postgres', {
      host: 'db.example.com',
      port: 6432,
      database: 'shop floor',
      user: 'rep@corp',
      password: 'p:ss/w@rd#1',
      sslmode: 'verify-full',
    });
    const parsed = new URL(url);
    expect(parsed.protocol).toBe('postgres:');
    expect(decodeURIComponent(parsed.username)).toBe('rep@corp');
    expect(decodeURIComponent(parsed.password)).toBe('p:ss/w@rd#1');
    expect(parsed.host).toBe('db.example.com:6432');
    expect(decodeURIComponent(parsed.pathname)).toBe('/shop floor');
    expect(parsed.searchParams.get('sslmode')).toBe('verify-full');
    expect(connectionUrlOf('mysql', { host: '::1', database: 'd', user: 'u' })).toBe('mysql://u@[::1]/d');
  });

  it('refuses a URL of another engine, or without a database, without repeating it', () => {
    for (const [engine, url] of [
      ['postgres', 'mysql://u:secret@h/db'],
      ['mysql', 'postgres://u:secret@h/db'],
      ['postgres', 'postgres://u:secret@h'],
      ['postgres', 'not a url secret'],
    ] as const) {
      let message = '';
      try {
        connectionUrlOf(engine, { url });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, url).toMatch(/connection\.url/);
      expect(message).not.toContain('secret');
    }
  });

  it('refuses loopback and link-local hosts outside the local stack', async () => {
    process.env.STAGE = 'prod';
    resetSettings();
    for (const host of [
      '127.0.0.1',
      'localhost',
      '169.254.169.254',
      '[::1]',
      '[fe80::1]',
      '[::ffff:127.0.0.1]',
    ])
      await expect(checkHostAllowed(`postgres://u@${host}:5432/db`), host).rejects.toMatchObject({
        kind: 'CONNECTION_TEST_FAILED',
        issues: [{ code: 'CONNECTION_FAILED' }],
      });
    await expect(checkHostAllowed('postgres://u@203.0.113.7:5432/db')).resolves.toBeUndefined();
    process.env.STAGE = 'local';
    resetSettings();
    await expect(checkHostAllowed('postgres://u@127.0.0.1:5432/db')).resolves.toBeUndefined();
  });
});

describe('the row policy of a body', () => {
  it('takes the columns into the policy, and refuses what disagrees or is missing', () => {
    expect(resolvePolicy({ tenant_filter_column: 'org_id', requires_organization_scoping: true })).toEqual({
      requiresOrganizationScoping: true,
      tenantFilterColumn: 'org_id',
      policy: { tenant_column: 'org_id', tables: {} },
    });
    expect(() => resolvePolicy({ requires_organization_scoping: true })).toThrow(/needs a tenant column/);
    expect(() =>
      resolvePolicy({ tenant_filter_column: 'a', policy: { tenant_column: 'b', tables: {} } }),
    ).toThrow(/disagrees/);
    expect(() => resolvePolicy({ policy: { scope_required: true, tables: {} } })).toThrow(/scope column/);
  });

  it('changes only what a PATCH names; null clears a column', () => {
    const current = {
      requiresOrganizationScoping: true,
      tenantFilterColumn: 'org_id',
      scopeFilterColumn: 'user_id',
      policy: { tenant_column: 'org_id', scope_column: 'user_id', tables: { countries: { shared: true } } },
    };
    expect(resolvePolicy({ scope_filter_column: null }, current)).toEqual({
      requiresOrganizationScoping: true,
      tenantFilterColumn: 'org_id',
      policy: { tenant_column: 'org_id', tables: { countries: { shared: true } } },
    });
    expect(resolvePolicy({}, current)).toEqual(current);
    expect(() => resolvePolicy({ tenant_filter_column: null }, current)).toThrow(/needs a tenant column/);
  });
});

describe('jobs', () => {
  const job = (status: JobRecord['status'], createdAt: string): JobRecord => ({
    id: '01900000-0000-7000-8000-000000000001',
    organizationId: 1,
    kind: 'index',
    databaseId: '01900000-0000-7000-8000-000000000002',
    status,
    tablesDone: 3,
    tablesTotal: 7,
    createdAt,
  });

  it('reads a job that outlived the indexer as failed (JOB_TIMED_OUT), and a finished one as it is', () => {
    const created = Date.parse('2026-01-01T00:00:00.000Z');
    expect(jobDeadlineMs()).toBe((900 + MAX_EVENT_AGE_SECONDS + 60) * 1000);
    const running = publicJob(job('running', '2026-01-01T00:00:00.000Z'), created + 60_000);
    expect(running).toMatchObject({
      status: 'running',
      progress: { tables_done: 3, tables_total: 7 },
      error: null,
    });
    const late = publicJob(job('running', '2026-01-01T00:00:00.000Z'), created + jobDeadlineMs() + 1);
    expect(late).toMatchObject({
      status: 'failed',
      error: { code: 'JOB_TIMED_OUT' },
      finished_at: new Date(created + jobDeadlineMs()).toISOString(),
    });
    const done = publicJob(job('succeeded', '2026-01-01T00:00:00.000Z'), created + 10 * jobDeadlineMs());
    expect(done.status).toBe('succeeded');
  });

  it('hears the progress of introspection: relations done of all, from 0 to the end', async () => {
    const catalog = structuredClone(ordersCatalog);
    catalog.relations.push({ ...structuredClone(catalog.relations[0]!), name: 'refunds' });
    const seen: [number, number][] = [];
    await collectSamples(
      catalog,
      { onProgress: (done, total) => void seen.push([done, total]) },
      async () => [],
      postgres,
    );
    expect(seen[0]).toEqual([0, 2]);
    expect(seen.at(-1)).toEqual([2, 2]);
    expect(seen.map(([done]) => done)).toEqual([...seen.map(([done]) => done)].sort());
  });
});
