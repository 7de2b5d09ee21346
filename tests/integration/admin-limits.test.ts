// `admin org set-limits`, run as a real child process against the suite's DynamoDB Local (as
// tests/integration/admin.test.ts runs the other commands): an enterprise organization's own
// limits, stored on its record, merged option by option, reset with `default`.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { effectiveLimits, plans } from '#lib/limits/plans.ts';
import { createOrganization, findOrganization } from '#lib/store/organizations.ts';

const root = new URL('../..', import.meta.url).pathname;
const node = join(root, 'node_modules/.bin/node');

const admin = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((done) => {
    execFile(node, ['admin/main.ts', ...args], { cwd: root, env: process.env }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });

describe('admin org set-limits', () => {
  it('sets an enterprise organization’s own limits, merges later changes, and goes back with default', async () => {
    // Arrange
    const { id } = await createOrganization({ name: 'Bigco', plan: 'enterprise' });
    // Act
    const first = await admin(
      'org',
      'set-limits',
      '--org',
      String(id),
      '--per-minute',
      '5000',
      '--indexing',
      '50',
    );
    const second = await admin(
      'org',
      'set-limits',
      '--org',
      String(id),
      '--concurrent',
      '400',
      '--per-minute',
      'default',
    );
    // Assert
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(first.stdout)).toMatchObject({
      id,
      plan: 'enterprise',
      limits: { requests_per_minute: 5_000, indexing_operations: 50 },
      effective_limits: {
        requests_per_minute: 5_000,
        requests_per_hour: plans.enterprise.requestsPerHour,
        indexing_operations: 50,
        messages_per_minute: 30,
      },
    });
    expect(second.code).toBe(0);
    const stored = await findOrganization(id);
    expect(stored?.limits).toEqual({ indexingOperations: 50, concurrentRequests: 400 });
    const effective = effectiveLimits('enterprise', stored?.limits);
    expect(JSON.parse(second.stdout).effective_limits).toEqual({
      requests_per_minute: effective.requestsPerMinute,
      requests_per_hour: effective.requestsPerHour,
      concurrent_requests: 400,
      monthly_requests: effective.monthlyRequests,
      indexing_operations: 50,
      messages_per_minute: effective.messagesPerMinute,
      messages_per_hour: effective.messagesPerHour,
      embed_scope_messages_per_minute: effective.embedScopeMessagesPerMinute,
      embed_scope_messages_per_hour: effective.embedScopeMessagesPerHour,
      embed_scope_messages_per_day: effective.embedScopeMessagesPerDay,
      database_key_messages_per_minute: effective.databaseKeyMessagesPerMinute,
      database_key_messages_per_hour: effective.databaseKeyMessagesPerHour,
      database_key_messages_per_day: effective.databaseKeyMessagesPerDay,
    });
  });

  it('refuses other plans (exit 1), bad values and an empty change (exit 2), changing nothing', async () => {
    const { id } = await createOrganization({ name: 'Smallco', plan: 'professional' });
    const [otherPlan, badValue, nothing, unknown] = await Promise.all([
      admin('org', 'set-limits', '--org', String(id), '--per-hour', '100'),
      admin('org', 'set-limits', '--org', String(id), '--per-hour', '0'),
      admin('org', 'set-limits', '--org', String(id)),
      admin('org', 'set-limits', '--org', '987654321', '--monthly', '10'),
    ]);
    expect(otherPlan).toMatchObject({ code: 1, stdout: '' });
    expect(otherPlan.stderr).toContain(
      `organization ${id} is on the professional plan: limit overrides apply to enterprise organizations only`,
    );
    expect(badValue).toMatchObject({ code: 2, stdout: '' });
    expect(badValue.stderr).toContain('--per-hour must be a positive whole number');
    expect(nothing).toMatchObject({ code: 2, stdout: '' });
    expect(nothing.stderr).toContain('org set-limits needs at least one of --per-minute');
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toContain('organization 987654321 not found');
    expect((await findOrganization(id))?.limits).toBeUndefined();
  });
});
