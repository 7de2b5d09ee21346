// The signed cursor codec (lib/store/cursor.ts, docs/design.md "Lists and cursors"): round trips,
// and every way a cursor can be wrong (altered byte, truncation, padding tricks, replay on
// another list, organization, scope, conversation, order or an embed session's database) is a 400
// on field `cursor`.
import { describe, expect, it, vi } from 'vitest';
import { ServiceError } from '#lib/errors.ts';
import {
  type CursorQuery,
  createCursorCodec,
  cursorCodec,
  MAX_CURSOR_LENGTH,
  MIN_SECRET_LENGTH,
} from '#lib/store/cursor.ts';

const SECRET = 'unit-test-cursor-key-0123456789abcdef';
const codec = createCursorCodec(SECRET);

const query: CursorQuery = {
  list: 'conversation-messages',
  organizationId: 7,
  scopeId: 'user#42',
  conversationId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  order: 'desc',
};
const position = ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c'];

const decodeError = (cursor: string, as: CursorQuery = query): ServiceError => {
  try {
    codec.decode(as, cursor);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error(`cursor ${cursor} was accepted`);
};

const expectCursorError = (cursor: string, as: CursorQuery = query) => {
  const error = decodeError(cursor, as);
  expect(error.kind).toBe('VALIDATION');
  expect(error.status).toBe(400);
  expect(error.issues).toEqual([{ field: 'cursor', message: expect.any(String), code: 'INVALID_CURSOR' }]);
};

const base64urlAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('cursor codec', () => {
  it('round-trips a position for the query it was issued for', () => {
    const cursor = codec.encode(query, position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor.length).toBeLessThan(200);
    expect(codec.decode(query, cursor)).toEqual(position);
  });

  it('round-trips positions holding any characters', () => {
    const odd = ['2026-01-01T00:00:00.000Z', 'a"b\\c', 'ü 🙂', ''];
    expect(codec.decode(query, codec.encode(query, odd))).toEqual(odd);
  });

  it('does not show the scope or the identity of the query in clear', () => {
    const cursor = codec.encode(query, position);
    expect(Buffer.from(cursor, 'base64url').toString('utf8')).not.toContain('user#42');
  });

  it('refuses the cursor when any one character is changed', () => {
    const cursor = codec.encode(query, position);
    for (let index = 0; index < cursor.length; index += 1) {
      for (const replacement of [
        base64urlAlphabet[(base64urlAlphabet.indexOf(cursor[index]!) + 1) % 64]!,
        '*',
      ]) {
        const tampered = `${cursor.slice(0, index)}${replacement}${cursor.slice(index + 1)}`;
        expectCursorError(tampered);
      }
    }
  });

  it('refuses the cursor when any one decoded byte is flipped', () => {
    const bytes = Buffer.from(codec.encode(query, position), 'base64url');
    for (let index = 0; index < bytes.length; index += 1) {
      const copy = Buffer.from(bytes);
      copy[index] = copy[index]! ^ 0x01;
      expectCursorError(copy.toString('base64url'));
    }
  });

  it('refuses every truncation and extension', () => {
    const cursor = codec.encode(query, position);
    for (let length = 1; length < cursor.length; length += 1) expectCursorError(cursor.slice(0, length));
    expectCursorError(`${cursor}A`);
    expectCursorError(`${cursor}==`);
    expectCursorError(`A${cursor}`);
  });

  it('refuses an over-long cursor and one signed with another key', () => {
    expectCursorError('A'.repeat(MAX_CURSOR_LENGTH + 4));
    const foreign = createCursorCodec('another-cursor-key-0123456789abcdefgh').encode(query, position);
    expectCursorError(foreign);
  });

  it.each([
    ['another list', { ...query, list: 'scope-messages' }],
    ['another organization', { ...query, organizationId: 8 }],
    ['another scope', { ...query, scopeId: 'user#43' }],
    ['no scope', { ...query, scopeId: undefined }],
    ['another conversation', { ...query, conversationId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d' }],
    ['no conversation', { ...query, conversationId: undefined }],
    ['the other order', { ...query, order: 'asc' }],
  ] satisfies [string, CursorQuery][])('refuses a cursor replayed on %s', (_name, other) => {
    const cursor = codec.encode(query, position);
    expectCursorError(cursor, other);
  });

  it("binds an embed session's cursor to its database: none continues on another database or none", () => {
    const onDatabase: CursorQuery = { ...query, tenant: '1', databaseId: 'database-a' };
    const cursor = codec.encode(onDatabase, position);
    expect(codec.decode(onDatabase, cursor)).toEqual(position);
    expectCursorError(cursor, { ...onDatabase, databaseId: 'database-b' });
    expectCursorError(cursor, { ...onDatabase, databaseId: undefined });
    expectCursorError(codec.encode({ ...onDatabase, databaseId: undefined }, position), onDatabase);
    // A database is never read as a tenant, nor the other way round.
    expectCursorError(codec.encode({ ...query, tenant: 'database-a' }, position), {
      ...query,
      databaseId: 'database-a',
    });
  });

  it('keeps identities that only differ in how fields split apart', () => {
    const a: CursorQuery = { list: 'conversations', organizationId: 1, scopeId: 'a","b', order: 'desc' };
    const b: CursorQuery = {
      list: 'conversations',
      organizationId: 1,
      scopeId: 'a',
      conversationId: 'b',
      order: 'desc',
    };
    expectCursorError(codec.encode(a, position), b);
  });

  it('refuses to be built with a short key', () => {
    expect(() => createCursorCodec('x'.repeat(MIN_SECRET_LENGTH - 1))).toThrow();
  });
});

describe('the stage codec', () => {
  it.each([
    ['empty', ''],
    ['short', 'too-short'],
  ])('fails closed with a 500 that logs why when CURSOR_SECRET is %s', async (_name, secret) => {
    // Arrange: the settings are read on first use, after each test's reset.
    vi.stubEnv('CURSOR_SECRET', secret);

    // Act
    let error: unknown;
    try {
      await cursorCodec();
    } catch (caught) {
      error = caught;
    }

    // Assert
    expect((error as ServiceError).kind).toBe('INTERNAL');
    expect(String((error as ServiceError).cause)).toMatch(/CURSOR_SECRET/);
  });

  it('signs with the configured secret', async () => {
    vi.stubEnv('CURSOR_SECRET', SECRET);
    expect(codec.decode(query, (await cursorCodec()).encode(query, position))).toEqual(position);
  });
});
