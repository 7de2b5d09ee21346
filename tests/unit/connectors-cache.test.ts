// The container's connectors are bounded: at most MAX_OPEN_CONNECTORS stay open, and the one
// used longest ago is closed when another database needs one (each holds a pool or a worker).
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  closeConnectors,
  connectorFor,
  MAX_OPEN_CONNECTORS,
  openConnectorCount,
} from '#lib/connectors/index.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';

vi.mock('#lib/connectors/secrets.ts', () => ({
  // Nothing listens on port 1: the pools are created, never connected.
  secretStore: () => ({ read: async () => 'postgres://reader@127.0.0.1:1/shop' }),
}));

const database = (n: number) =>
  ({ id: `db-${n}`, engine: 'postgres', connectionRef: 'ref' }) as unknown as DatabaseRecord;

afterEach(() => closeConnectors());

describe('connectorFor', () => {
  it('keeps at most MAX_OPEN_CONNECTORS and closes the least recently used', async () => {
    // Arrange
    const first = await connectorFor(database(0));
    const second = await connectorFor(database(1));
    const closedFirst = vi.spyOn(first, 'close');
    const closedSecond = vi.spyOn(second, 'close');
    for (let n = 2; n < MAX_OPEN_CONNECTORS; n++) await connectorFor(database(n));
    // Using the first again makes the second the least recently used.
    expect(await connectorFor(database(0))).toBe(first);

    // Act
    await connectorFor(database(MAX_OPEN_CONNECTORS));
    await new Promise((done) => setTimeout(done, 0));

    // Assert
    expect(openConnectorCount()).toBe(MAX_OPEN_CONNECTORS);
    expect(closedSecond).toHaveBeenCalledTimes(1);
    expect(closedFirst).not.toHaveBeenCalled();
    expect(await connectorFor(database(0))).toBe(first);
  });
});
