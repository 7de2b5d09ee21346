// DynamoDB Local, as npm start, npm run offline and the test suites run it (local/dynamodb.ts),
// listens on 127.0.0.1 only: the local tables (keys, locally encrypted connection secrets) are
// not reachable from the network. DynamoDBLocal.jar alone would listen on every interface.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDynamoDbUp, type RunningDynamoDb, startDynamoDb } from '../../local/dynamodb.ts';

let dynamodb: RunningDynamoDb;

beforeAll(async () => {
  dynamodb = await startDynamoDb();
}, 60_000);

afterAll(async () => {
  await dynamodb?.stop();
});

/** Whether a TCP connection to host:port is accepted. */
const accepts = (host: string, port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      done(false);
    });
    socket.once('error', () => done(false));
  });

/** Linux: the local addresses (hex, as /proc/net/tcp{,6} write them) of sockets listening on `port`. */
const listeningAddresses = (port: number): string[] | undefined => {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  const addresses: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      // 0A: LISTEN
      if (state === '0A' && local?.endsWith(`:${portHex}`)) addresses.push(local.slice(0, -5));
    }
  }
  return addresses;
};

// 127.0.0.1, in IPv4 and IPv4-mapped IPv6 form, as the kernel prints them (little-endian words).
const LOOPBACK_HEX = new Set(['0100007F', '0000000000000000FFFF00000100007F']);

describe('DynamoDB Local', () => {
  it('answers on 127.0.0.1', async () => {
    expect(dynamodb.endpoint).toBe(`http://127.0.0.1:${dynamodb.port}`);
    expect(await isDynamoDbUp(dynamodb.endpoint)).toBe(true);
  });

  it('listens on no other address', async () => {
    // Arrange
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && !address.internal && address.family === 'IPv4')
      .map((address) => address?.address ?? '');
    const listening = listeningAddresses(dynamodb.port);

    // Assert: at least one of the two checks applies on this machine.
    expect(external.length > 0 || listening !== undefined).toBe(true);
    for (const address of external) expect(await accepts(address, dynamodb.port), address).toBe(false);
    if (listening) {
      expect(listening.length).toBeGreaterThan(0);
      for (const address of listening) expect(LOOPBACK_HEX.has(address), address).toBe(true);
    }
  });
});
