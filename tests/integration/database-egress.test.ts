// A database's data egress settings (docs/model-engines.md "Data egress"): set through the
// control plane (PATCH /api/v1/organization/databases/{id}, shown by GET) and through the admin
// command (`database egress set`), against DynamoDB Local; no re-index; bad values refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { type DatabaseRecord, findDatabase } from '#lib/store/databases.ts';
import { adminFails, adminOk } from '../helpers/admin.ts';
import { registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let organizationId: number;
let manageKey: string;
let database: DatabaseRecord;

beforeAll(async () => {
  gateway = await startTestGateway();
  organizationId = (await makeOrganization('professional')).organization.id;
  manageKey = (await createApiKey({ organizationId, kind: 'sk', manage: true })).key;
  database = await registerDatabase({ organizationId });
  return () => gateway.close();
}, 60_000);

const call = async (method: string, body?: unknown) => {
  const response = await fetch(`${gateway.url}/api/v1/organization/databases/${database.id}`, {
    method,
    headers: { 'X-API-Key': manageKey, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
};

describe('data egress through the control plane', () => {
  it('defaults to rows with nothing redacted', async () => {
    const { status, body } = await call('GET');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ model_data: 'rows', redacted_columns: [] });
  });

  it('sets model_data and redacted_columns, without a re-index, and shows them', async () => {
    const before = await findDatabase(organizationId, database.id);

    const patched = await call('PATCH', { model_data: 'aggregates', redacted_columns: ['customers.email'] });

    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      model_data: 'aggregates',
      redacted_columns: ['customers.email'],
      job: null,
    });
    const stored = await findDatabase(organizationId, database.id);
    expect(stored).toMatchObject({ modelData: 'aggregates', redactedColumns: ['customers.email'] });
    expect(stored?.schemaIndex).toEqual(before?.schemaIndex);
    expect((await call('GET')).body.data.model_data).toBe('aggregates');
  });

  it('refuses an unknown model_data and a malformed column with a 400, changing nothing', async () => {
    const bad = await call('PATCH', { model_data: 'everything' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('model_data');
    expect((await call('PATCH', { redacted_columns: ['email'] })).status).toBe(400);
    expect((await call('GET')).body.data.model_data).toBe('aggregates');
  });
});

describe('admin database egress set', () => {
  it('sets schema_only and the redacted columns, then clears them', async () => {
    const set = await adminOk([
      'database',
      'egress',
      'set',
      '--database',
      database.id,
      '--model-data',
      'schema_only',
      '--redact',
      'customers.email,public.customers.city',
    ]);
    expect(set).toEqual({
      database_id: database.id,
      model_data: 'schema_only',
      redacted_columns: ['customers.email', 'public.customers.city'],
    });
    expect(await findDatabase(organizationId, database.id)).toMatchObject({ modelData: 'schema_only' });

    const cleared = await adminOk([
      'database',
      'egress',
      'set',
      '--database',
      database.id,
      '--model-data',
      'rows',
      '--redact',
      '',
    ]);
    expect(cleared).toMatchObject({ model_data: 'rows', redacted_columns: [] });
  });

  it('refuses an unknown --model-data with a usage error', async () => {
    expect(
      await adminFails(2, ['database', 'egress', 'set', '--database', database.id, '--model-data', 'all']),
    ).toMatch(/model_data must be rows, aggregates or schema_only/);
  });
});
