// `admin database add --scope-required` (or "scope_required": true in --policy), stored in the row
// policy and read by the answering flow and `admin sql check` (docs/databases.md "Row policy"):
// it needs a scope column, and a row policy may not list a relation named __proto__,
// constructor or prototype (a parsed record would drop it silently).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { findDatabaseById } from '#lib/store/databases.ts';
import { adminFails, adminOk, root } from '../helpers/admin.ts';

const demoSeed = join(root, 'local/demo/shop.sql');
let dir: string;
let org: string;

const file = (name: string, content: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

const add = (extra: string[]) => [
  'database',
  'add',
  '--org',
  org,
  '--name',
  // One name per database: a second of the same name is a duplicate.
  `Demo shop ${randomUUID()}`,
  '--engine',
  'pglite',
  '--url',
  'memory:',
  '--seed',
  demoSeed,
  '--requires-scoping',
  '--tenant-column',
  'org_id',
  '--shared-tables',
  'countries,categories',
  ...extra,
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'admin-scope-required-'));
  const created = await adminOk<{ id: number }>([
    'org',
    'create',
    '--name',
    'Scopes Co',
    '--plan',
    'professional',
  ]);
  org = String(created.id);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('database add: scope_required', () => {
  it('stores --scope-required in the row policy; the effective policy says scopeRequired', async () => {
    const added = await adminOk<{ id: string }>(add(['--scope-column', 'store_id', '--scope-required']));
    const record = await findDatabaseById(added.id);
    expect(record?.policy.scope_required).toBe(true);
    expect(effectivePolicy(record!).scopeRequired).toBe(true);
  });

  it('takes "scope_required": true from --policy', async () => {
    const policy = file('policy.json', { scope_column: 'store_id', scope_required: true });
    const added = await adminOk<{ id: string }>(add(['--policy', policy]));
    expect(effectivePolicy((await findDatabaseById(added.id))!).scopeRequired).toBe(true);
  });

  it('leaves it off by default', async () => {
    const added = await adminOk<{ id: string }>(add(['--scope-column', 'store_id']));
    expect(effectivePolicy((await findDatabaseById(added.id))!).scopeRequired).toBe(false);
  });

  it('refuses it without a scope column', async () => {
    expect(await adminFails(2, add(['--scope-required']))).toContain('--scope-required needs a scope column');
  });

  it.each(['__proto__', 'constructor'])('refuses a policy or --shared-tables listing %s', async (name) => {
    const policy = file(`${name}.json`, `{"tables": {"${name}": {"shared": true}}}`);
    expect(await adminFails(2, add(['--policy', policy]))).toContain('cannot list a relation named');
    expect(await adminFails(2, add(['--shared-tables', name]))).toContain('cannot list a relation named');
  });
});
