import { describe, expect, it } from 'vitest';
import { createOrganization, findOrganization } from '#lib/store/organizations.ts';

describe('organizations store', () => {
  it('creates organizations with increasing integer ids', async () => {
    const first = await createOrganization({ name: 'One', plan: 'starter' });
    const second = await createOrganization({ name: 'Two' });
    expect(second.id).toBe(first.id + 1);
    expect(await findOrganization(first.id)).toEqual(first);
    expect(second.plan).toBe('free');
  });
});
