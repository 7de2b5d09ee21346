// UUIDv7 identifiers (RFC 9562): format, version and variant bits, the millisecond timestamp in
// the first 48 bits, and creation order = sort order, which message cursors rely on.
import { describe, expect, it } from 'vitest';
import { uuidPattern, uuidv7 } from '#lib/ids.ts';

const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timestampOf = (id: string): number => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
const isStrictlyIncreasing = (ids: string[]) =>
  ids.every((id, index) => index === 0 || (ids[index - 1] ?? '') < id);

describe('uuidv7', () => {
  it('is a lower-case UUID with version nibble 7 and the RFC 9562 variant', () => {
    for (let index = 0; index < 200; index += 1) {
      const id = uuidv7();
      expect(id).toMatch(v7);
      expect(id).toMatch(uuidPattern);
      expect(id[14]).toBe('7');
    }
  });

  it('carries the creation time in milliseconds in its first 48 bits', () => {
    const before = Date.now();
    const id = uuidv7();
    const after = Date.now();
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    // Ids made within one millisecond may borrow the next one when the 12-bit counter wraps.
    expect(timestampOf(id)).toBeLessThanOrEqual(after + 1);
  });

  it('sorts 1,000 ids made in a tight loop in creation order, with no duplicates', () => {
    // Act
    const ids = Array.from({ length: 1_000 }, () => uuidv7());

    // Assert
    expect(new Set(ids).size).toBe(1_000);
    expect([...ids].sort()).toEqual(ids);
    expect(isStrictlyIncreasing(ids)).toBe(true);
    for (const id of ids) expect(id).toMatch(v7);
  });

  it('stays in order within one millisecond past the 12-bit counter (more than 4,096 ids)', () => {
    // Arrange: a clock stuck on one millisecond, ahead of every id made so far.
    const stuck = Date.now() + 60_000;

    // Act
    const ids = Array.from({ length: 5_000 }, () => uuidv7(stuck));

    // Assert
    expect(isStrictlyIncreasing(ids)).toBe(true);
    expect(new Set(ids).size).toBe(5_000);
    expect(timestampOf(ids[0] ?? '')).toBe(stuck);
    for (const id of ids) expect(id).toMatch(v7);
  });

  it('never goes backwards when the clock does', () => {
    const ahead = uuidv7(Date.now() + 120_000);
    const behind = uuidv7(Date.now() - 120_000);
    expect(behind > ahead).toBe(true);
  });
});
