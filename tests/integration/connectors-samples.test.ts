// Schema-index samples on PGlite (docs/design.md "Answering on unseen databases": values of one
// tenant are never shown to another). The index is shared by every tenant and written into model
// prompts, so a sampled value must have been seen under two tenants or more, and on a relation
// with a scope column under two scopes or more as well; values planted under a single tenant, or
// a single scope, are never stored.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnector } from '#lib/connectors/index.ts';
import type { Connector } from '#lib/connectors/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';

// status values and where they occur ((tenant, scope) pairs):
//   open        (1, alice) (1, bob) (2, carol)   two tenants, three scopes   → kept
//   pending     (1, bob) (2, carol)              two tenants, two scopes     → kept
//   vip-only    (1, alice)                       one tenant                  → never stored
//   closed      (1, alice) (1, bob)              one tenant, two scopes      → never stored
//   escalated   (1, alice) (2, alice)            two tenants, one scope      → never stored
const tickets: [number, string, string, string][] = [
  [1, 'alice', 'open', 'web'],
  [1, 'bob', 'open', 'web'],
  [2, 'carol', 'open', 'phone'],
  [1, 'bob', 'pending', 'phone'],
  [2, 'carol', 'pending', 'web'],
  [1, 'alice', 'vip-only', 'web'],
  [1, 'alice', 'closed', 'phone'],
  [1, 'bob', 'closed', 'web'],
  [1, 'alice', 'escalated', 'web'],
  [2, 'alice', 'escalated', 'phone'],
];

const seed = `
CREATE TABLE tickets (id integer PRIMARY KEY, org_id integer NOT NULL, user_id text, status text NOT NULL,
  channel text NOT NULL, "constructor" text NOT NULL, "__proto__" text NOT NULL);
INSERT INTO tickets VALUES
${tickets.map(([org, user, status, channel], i) => `(${i + 1}, ${org}, '${user}', '${status}', '${channel}', '${channel}', '${channel}')`).join(',\n')};
-- Tenant-filtered without a scope column: 'acme-secret' only under tenant 1.
CREATE TABLE invoices (id integer PRIMARY KEY, org_id integer NOT NULL, kind text NOT NULL);
INSERT INTO invoices VALUES (1, 1, 'standard'), (2, 2, 'standard'), (3, 1, 'acme-secret'), (4, 1, 'acme-secret');
-- Shared, with a scope column: readable by every tenant, filtered by scope.
CREATE TABLE notes (id integer PRIMARY KEY, user_id text, topic text NOT NULL);
INSERT INTO notes VALUES (1, 'alice', 'billing'), (2, 'bob', 'billing'), (3, 'alice', 'alice-diagnosis');
-- Shared, no scope column: every value is everyone's.
CREATE TABLE regions (id integer PRIMARY KEY, name text NOT NULL);
INSERT INTO regions VALUES (1, 'North'), (2, 'South');
`;

let directory: string;
let connector: Connector;
let catalog: Catalog;

const samplesOf = (name: string) => {
  const relation = catalog.relations.find((r) => r.name === name);
  if (!relation) throw new Error(`${name} not in the catalog`);
  return relation.samples;
};

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'tabletalk-samples-'));
  const seedFile = join(directory, 'seed.sql');
  writeFileSync(seedFile, seed);
  connector = await createConnector({ engine: 'pglite', url: 'memory:', seedFile });
  catalog = await connector.introspect({
    policy: effectivePolicy({
      requiresOrganizationScoping: true,
      tenantFilterColumn: 'org_id',
      scopeFilterColumn: 'user_id',
      policy: {
        tenant_column: 'org_id',
        scope_column: 'user_id',
        tables: { notes: { shared: true }, regions: { shared: true } },
      },
    }),
  });
}, 60_000);

afterAll(async () => {
  await connector?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('samples of a tenant- and scope-filtered relation', () => {
  it('keeps only values seen under two tenants and two scopes', () => {
    expect(samplesOf('tickets').status).toEqual(['open', 'pending']);
  });

  it('never stores a value planted under one tenant or one scope, in any column', () => {
    const everything = JSON.stringify(catalog);
    for (const planted of ['vip-only', 'closed', 'escalated', 'acme-secret', 'alice-diagnosis']) {
      expect(everything, planted).not.toContain(planted);
    }
  });

  it('samples neither the tenant nor the scope column', () => {
    expect(Object.keys(samplesOf('tickets'))).not.toContain('user_id');
    expect(Object.keys(samplesOf('tickets'))).not.toContain('org_id');
  });

  it('stores the samples of columns named constructor and __proto__ as their own entries', () => {
    const samples = samplesOf('tickets');
    expect(Object.hasOwn(samples, 'constructor')).toBe(true);
    expect(Object.hasOwn(samples, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(samples)).toBe(Object.prototype);
    expect(samples.constructor).toEqual(['phone', 'web']);
  });
});

describe('samples of other relations', () => {
  it('tenant-filtered without a scope column: two tenants', () => {
    expect(samplesOf('invoices').kind).toEqual(['standard']);
  });

  it('shared with a scope column: two scopes', () => {
    expect(samplesOf('notes').topic).toEqual(['billing']);
  });

  it('shared without a scope column: every value', () => {
    expect(samplesOf('regions').name).toEqual(['North', 'South']);
  });
});
