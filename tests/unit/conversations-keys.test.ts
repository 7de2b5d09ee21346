// Key builders of conversations and messages (lib/store/scopes.ts, conversations.ts, messages.ts):
// the layout infra/table.yml's indexes are read with, and scopes that cannot collide.
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '#lib/ids.ts';
import { conversationKey, conversationListKey } from '#lib/store/conversations.ts';
import { messageItem, messageKey, messageTimelineKey, uuidv7Time } from '#lib/store/messages.ts';
import { NO_SCOPE, scopeKey, scopePartition } from '#lib/store/scopes.ts';

const CONVERSATION = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const MESSAGE = '0190a1b2-c3d5-7e5f-8a9b-0c1d2e3f4a5c';

describe('scope keys', () => {
  it('puts organization and encoded scope in the partition of both indexes', () => {
    expect(scopePartition(7, { scopeId: 'user-1' })).toBe('SCOPE#7#user-1');
    expect(scopePartition(7, { scopeId: 'a#b' })).toBe('SCOPE#7#a%23b');
    expect(scopePartition(7, { scopeId: undefined })).toBe(`SCOPE#7#${NO_SCOPE}`);
  });

  it('never gives two scopes, or a scope and "no scope", the same key', () => {
    const scopes = [
      'a#b',
      'a%23b',
      'a',
      'a#',
      '#',
      '%',
      '%NOSCOPE',
      'NOSCOPE',
      'ü',
      'u\u0308',
      '1 2',
      '1+2',
      '🙂',
    ];
    const keys = scopes.map((scopeId) => scopeKey({ scopeId }));
    expect(new Set(keys).size).toBe(scopes.length);
    expect(keys).not.toContain(NO_SCOPE);
    for (const key of keys) expect(key).not.toContain('#');
  });

  it("keeps a tenant's address apart from every scope id, whatever the scope id holds", () => {
    // The review's collision: a session without tenant whose scope is `1/alice` and tenant 1's alice.
    const tenantAlice = scopeKey({ tenant: '1', scopeId: 'alice' });
    const candidates = ['1/alice', '1%2Falice', '1#alice', '1%23alice', '1', 'alice', `1#alice`];
    for (const scopeId of candidates) expect(scopeKey({ scopeId })).not.toBe(tenantAlice);
    // Tenants and scopes that share characters never meet either.
    const addresses = [
      { tenant: '1', scopeId: 'a#b' },
      { tenant: '1#a', scopeId: 'b' },
      { tenant: '1', scopeId: undefined },
      { tenant: '1', scopeId: '%NOSCOPE' },
      { tenant: '1/a', scopeId: 'b' },
      { tenant: '1', scopeId: 'a/b' },
      { scopeId: '1#a#b' },
    ];
    const keys = addresses.map(scopeKey);
    expect(new Set(keys).size).toBe(addresses.length);
    expect(tenantAlice).toBe('1#alice');
  });

  it('keeps organizations apart whatever the scope says', () => {
    expect(scopePartition(1, { scopeId: '2#x' })).not.toBe(scopePartition(12, { scopeId: 'x' }));
    expect(scopePartition(1, { scopeId: '2#x' })).toBe('SCOPE#1#2%23x');
  });
});

describe('conversation keys', () => {
  it('reads a conversation by organization and id, and lists it by last activity then id', () => {
    expect(conversationKey(7, CONVERSATION)).toEqual({ PK: `CONV#7#${CONVERSATION}`, SK: 'CONV' });
    // Each organization has its own id space: the same id names two conversations.
    expect(conversationKey(7, CONVERSATION).PK).not.toBe(conversationKey(8, CONVERSATION).PK);
    expect(conversationListKey(7, { scopeId: 's' }, '2026-01-01T00:00:00.000Z', CONVERSATION)).toEqual({
      GSI1PK: 'SCOPE#7#s',
      GSI1SK: `2026-01-01T00:00:00.000Z#${CONVERSATION}`,
    });
  });
});

describe('message keys', () => {
  it('keeps messages in their conversation’s partition, after the conversation item', () => {
    const key = messageKey(7, CONVERSATION, MESSAGE);
    expect(key).toEqual({ PK: `CONV#7#${CONVERSATION}`, SK: `MSG#${MESSAGE}` });
    expect(conversationKey(7, CONVERSATION).SK < key.SK).toBe(true);
    expect(messageTimelineKey(7, { scopeId: 's' }, MESSAGE)).toEqual({
      GSI2PK: 'SCOPE#7#s',
      GSI2SK: MESSAGE,
    });
  });

  it('builds the whole item with both keys and the record', () => {
    const item = messageItem(
      {
        id: MESSAGE,
        conversationId: CONVERSATION,
        organizationId: 7,
        role: 'user',
        content: 'hi',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      { scopeId: 'a#b' },
    );
    expect(item).toMatchObject({
      PK: `CONV#7#${CONVERSATION}`,
      SK: `MSG#${MESSAGE}`,
      GSI2PK: 'SCOPE#7#a%23b',
      GSI2SK: MESSAGE,
      type: 'message',
      content: 'hi',
    });
  });

  it('orders message ids by time, and reads the time back from the id', () => {
    const times = [1_767_225_600_000, 1_767_225_600_001, 1_767_225_660_000];
    const ids = times.map((time) => uuidv7(time));
    expect([...ids].sort()).toEqual(ids);
    expect(ids.map(uuidv7Time)).toEqual(times);
  });
});
