// Connection targets (lib/connectors/target.ts, docs/databases.md "Connection targets"): the
// review's ranges are refused on a deployed stage unless it allows private hosts; loopback and
// link-local never; a failed lookup is refused; a name is resolved once and every connection goes
// to the address that was checked, so a DNS answer that changes afterwards (rebinding) is never
// used; the connection test tells network failures apart from nothing but authentication and
// unknown databases.
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const answers: string[][] = [];
vi.mock('node:dns', async (original) => {
  const real = await original<typeof import('node:dns')>();
  return {
    ...real,
    lookup: (name: string, options: unknown, callback: (...args: unknown[]) => void) => {
      if (name.endsWith('.test-target')) {
        const next = answers.shift();
        if (!next) return callback(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
        return callback(
          null,
          next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
      }
      return (real.lookup as (...args: unknown[]) => void)(name, options, callback);
    },
  };
});

const { refusedAddress, targetSockets, TargetRefused } = await import('#lib/connectors/target.ts');
const { checkHostAllowed } = await import('#lib/manage/connection.ts');
const { resetSettings } = await import('#lib/config.ts');
const { testConnection } = await import('#lib/connectors/connection-test.ts');
const { ServiceError } = await import('#lib/errors.ts');

const deployed = { anywhere: false, privateHosts: false };
const vpc = { anywhere: false, privateHosts: true };

const REVIEWED = [
  '10.0.0.5',
  '192.168.1.10',
  '172.16.0.1',
  '172.31.255.254',
  '100.64.0.1',
  'fc00::1',
  'fd12:3456::1',
  '64:ff9b::7f00:1',
  '64:ff9b::a00:1',
];

describe('refusedAddress', () => {
  it('refuses the review’s private, shared, unique-local and NAT64 ranges on a deployed stage', () => {
    for (const address of REVIEWED) expect(refusedAddress(address, deployed), address).toBeDefined();
    for (const address of ['203.0.113.7', '8.8.8.8', '2600:1f18::7', '2a00:1450::1'])
      expect(refusedAddress(address, deployed), address).toBeUndefined();
  });

  it('allows them where the stage allows private hosts, but never loopback, link-local or an embedded loopback', () => {
    for (const address of REVIEWED) expect(refusedAddress(address, vpc), address).toBeUndefined();
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '0.0.0.0',
      '169.254.169.254',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::127.0.0.1',
      '::ffff:7f00:1',
      '::7f00:1',
      '::ffff:169.254.169.254',
    ])
      expect(refusedAddress(address, vpc), address).toBeDefined();
  });

  it('reads an IPv4-compatible address as the IPv4 address it holds', () => {
    expect(refusedAddress('::10.0.0.1', deployed)).toBeDefined();
    expect(refusedAddress('::ffff:10.0.0.1', deployed)).toBeDefined();
    expect(refusedAddress('::ffff:203.0.113.7', deployed)).toBeUndefined();
  });

  it('reads a SIIT IPv4-translated address (::ffff:0:a.b.c.d) as the mapped form, in any spelling', () => {
    for (const address of [
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '0:0:0:0:ffff:0:7f00:1',
      '::ffff:0:169.254.169.254',
      '::ffff:0:a9fe:a9fe',
      '0:0:0:0:0:ffff:127.0.0.1',
    ])
      expect(refusedAddress(address, vpc), address).toBeDefined();
    expect(refusedAddress('::ffff:0:10.0.0.1', deployed)).toBeDefined();
    expect(refusedAddress('::ffff:0:a00:1', deployed)).toBeDefined();
    expect(refusedAddress('::ffff:0:10.0.0.1', vpc)).toBeUndefined();
    expect(refusedAddress('::ffff:0:203.0.113.7', deployed)).toBeUndefined();
    expect(refusedAddress('::ffff:0:cb00:7107', deployed)).toBeUndefined();
  });

  it('never allows the IPv6 discard-only (100::/64) and documentation (2001:db8::/32) ranges', () => {
    for (const address of ['100::1', '100::ffff:ffff:ffff:ffff', '2001:db8::1', '2001:db8:ffff::7'])
      expect(refusedAddress(address, vpc), address).toBeDefined();
    for (const address of ['100:0:0:1::1', '2001:db9::1'])
      expect(refusedAddress(address, vpc), address).toBeUndefined();
  });
});

describe('targetSockets', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));
  afterEach(() => {
    answers.length = 0;
  });

  const connectOnce = (targets: ReturnType<typeof targetSockets>, name: string) =>
    new Promise<string>((done, fail) => {
      const socket = targets.socket();
      socket.once('connect', () => {
        done(socket.remoteAddress ?? '');
        socket.destroy();
      });
      socket.once('error', fail);
      (socket as unknown as { connect: (port: number, host: string) => void }).connect(port, name);
    });

  it('resolves a name once: a later answer that changes (rebinding) is never used', async () => {
    // The first answer is the checked one; the second would point elsewhere.
    answers.push(['127.0.0.1'], ['203.0.113.7']);
    const targets = targetSockets('db.test-target', { anywhere: true, privateHosts: false });
    expect(await connectOnce(targets, 'db.test-target')).toBe('127.0.0.1');
    expect(await connectOnce(targets, 'db.test-target')).toBe('127.0.0.1');
    expect(answers).toEqual([['203.0.113.7']]);
  });

  it('refuses a name that resolves to a refused address, and one that does not resolve', async () => {
    answers.push(['203.0.113.7', '10.0.0.1']);
    await expect(targetSockets('mixed.test-target', deployed).resolve()).rejects.toBeInstanceOf(
      TargetRefused,
    );
    await expect(targetSockets('gone.test-target', deployed).resolve()).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });

  it('refuses an address literal at connect time, where no lookup runs', async () => {
    const targets = targetSockets('127.0.0.1', deployed);
    await expect(connectOnce(targets, '127.0.0.1')).rejects.toBeInstanceOf(TargetRefused);
  });
});

describe('checkHostAllowed on a deployed stage', () => {
  afterEach(() => {
    process.env.STAGE = 'local';
    delete process.env.DB_ALLOW_PRIVATE_HOSTS;
    resetSettings();
  });

  it('refuses the private ranges and a failed lookup, and allows them when the stage does', async () => {
    process.env.STAGE = 'prod';
    resetSettings();
    for (const host of ['10.1.2.3', '192.168.0.9', '[fc00::1]', '[::127.0.0.1]', '[64:ff9b::a00:1]'])
      await expect(checkHostAllowed(`postgres://u@${host}:5432/db`), host).rejects.toMatchObject({
        kind: 'CONNECTION_TEST_FAILED',
        message: expect.stringContaining('HOST_NOT_ALLOWED'),
      });
    await expect(checkHostAllowed('postgres://u@nowhere.test-target:5432/db')).rejects.toMatchObject({
      kind: 'CONNECTION_TEST_FAILED',
      message: expect.stringContaining('COULD_NOT_CONNECT'),
    });
    process.env.DB_ALLOW_PRIVATE_HOSTS = 'true';
    resetSettings();
    await expect(checkHostAllowed('postgres://u@10.1.2.3:5432/db')).resolves.toBeUndefined();
    await expect(checkHostAllowed('postgres://u@[::127.0.0.1]:5432/db')).rejects.toMatchObject({
      message: expect.stringContaining('HOST_NOT_ALLOWED'),
    });
  });
});

describe('the connection test', () => {
  const failingWith = (detail: string) =>
    ({
      test: async () => {
        throw new ServiceError('DB_CONNECTION_FAILED', { message: `Could not connect: ${detail}`, detail });
      },
    }) as unknown as Parameters<typeof testConnection>[0];
  const reasonOf = (detail: string) =>
    testConnection(failingWith(detail)).then(
      () => 'passed',
      (error: InstanceType<typeof ServiceError>) => /\(([A-Z_]+)\)$/.exec(error.message)?.[1],
    );

  it('says COULD_NOT_CONNECT for every network failure: a closed port, an HTTP service and a silent host look alike', async () => {
    for (const detail of [
      'CONNECTION_REFUSED',
      'CONNECTION_RESET',
      'CONNECTION_TIMEOUT',
      'HOST_NOT_FOUND',
      'HOST_UNREACHABLE',
      'TLS_FAILED',
      'CONNECTION_FAILED',
    ])
      expect(await reasonOf(detail), detail).toBe('COULD_NOT_CONNECT');
  });

  it('keeps authentication, an unknown database and a refused host apart', async () => {
    for (const detail of ['AUTH_FAILED', 'DATABASE_NOT_FOUND', 'HOST_NOT_ALLOWED'])
      expect(await reasonOf(detail), detail).toBe(detail);
  });
});
