// Transport security of connected databases (lib/connectors/tls.ts, docs/databases.md "Transport
// security"): the driver options built from URLs. TLS with chain and host-name checks unless the
// host is loopback or the URL explicitly asks for less; an unknown mode is refused, never guessed.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, transportOf } from '#lib/connectors/tls.ts';
import { mysqlConfig } from '#lib/dialects/mysql/connector.ts';
import { postgresConfig } from '#lib/dialects/postgres/connector.ts';

const pgSsl = (url: string) => postgresConfig(url, 1000, 1).ssl;
const mysqlSslOf = (url: string) => mysqlConfig(url, 1000, 1).ssl;

describe('PostgreSQL URLs', () => {
  it('verify chain and host name by default when the host is not loopback', () => {
    expect(pgSsl('postgres://u:p@db.example.com:5432/shop')).toEqual({
      rejectUnauthorized: true,
      servername: 'db.example.com',
    });
    // An IP address is checked against the certificate's IP entries; it is never sent as SNI.
    const byAddress = pgSsl('postgres://u:p@10.0.3.7/shop');
    expect(byAddress).toEqual({ rejectUnauthorized: true });
    expect(pgSsl('postgres://u:p@[2001:db8::5]/shop')).toEqual({ rejectUnauthorized: true });
  });

  it('verify for require, prefer and allow as well: never an unverified connection by accident', () => {
    for (const mode of ['require', 'prefer', 'allow', 'verify-full', 'VERIFY-FULL']) {
      expect(pgSsl(`postgres://u:p@db.example.com/shop?sslmode=${mode}`), mode).toEqual({
        rejectUnauthorized: true,
        servername: 'db.example.com',
      });
    }
  });

  it('connect in clear text only with an explicit sslmode=disable, or on loopback', () => {
    expect(pgSsl('postgres://u:p@db.example.com/shop?sslmode=disable')).toBe(false);
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '[::1]']) {
      expect(pgSsl(`postgres://u:p@${host}:5432/shop`), host).toBe(false);
    }
  });

  it('use TLS on loopback when the URL asks for it', () => {
    expect(pgSsl('postgres://u:p@localhost/shop?sslmode=verify-full')).toEqual({
      rejectUnauthorized: true,
      servername: 'localhost',
    });
  });

  it('skip the host-name check only for verify-ca, and every check only for no-verify', () => {
    const verifyCa = pgSsl('postgres://u:p@db.example.com/shop?sslmode=verify-ca');
    expect(verifyCa).toMatchObject({ rejectUnauthorized: true, servername: 'db.example.com' });
    const check = (verifyCa as { checkServerIdentity: (host: string, cert: unknown) => unknown })
      .checkServerIdentity;
    expect(check('other.example.com', {})).toBeUndefined();
    expect(pgSsl('postgres://u:p@db.example.com/shop?sslmode=no-verify')).toEqual({
      rejectUnauthorized: false,
    });
  });

  it('refuse an unknown sslmode', () => {
    expect(() => pgSsl('postgres://u:p@db.example.com/shop?sslmode=sometimes')).toThrow(
      /unsupported sslmode/,
    );
  });
});

describe('MySQL URLs', () => {
  it('verify chain and host name by default (mysql2 checks the name only with verifyIdentity)', () => {
    expect(mysqlSslOf('mysql://u:p@db.example.com/app')).toEqual({
      rejectUnauthorized: true,
      verifyIdentity: true,
    });
    for (const mode of ['REQUIRED', 'PREFERRED', 'VERIFY_IDENTITY', 'verify-full', 'require']) {
      expect(mysqlSslOf(`mysql://u:p@db.example.com/app?ssl-mode=${mode}`), mode).toEqual({
        rejectUnauthorized: true,
        verifyIdentity: true,
      });
    }
    // The PostgreSQL spelling is read too.
    expect(mysqlSslOf('mysql://u:p@db.example.com/app?sslmode=verify-full')).toEqual({
      rejectUnauthorized: true,
      verifyIdentity: true,
    });
  });

  it('connect in clear text only with ssl-mode=DISABLED, or on loopback', () => {
    expect(mysqlSslOf('mysql://u:p@db.example.com/app?ssl-mode=DISABLED')).toBeUndefined();
    expect(mysqlSslOf('mysql://u:p@db.example.com/app?sslmode=disable')).toBeUndefined();
    expect(mysqlSslOf('mysql://u:p@127.0.0.1:3306/app')).toBeUndefined();
    expect(mysqlSslOf('mysql://u:p@localhost/app')).toBeUndefined();
  });

  it('skip the host-name check only for VERIFY_CA, and every check only for no-verify', () => {
    expect(mysqlSslOf('mysql://u:p@db.example.com/app?ssl-mode=VERIFY_CA')).toEqual({
      rejectUnauthorized: true,
      verifyIdentity: false,
    });
    expect(mysqlSslOf('mysql://u:p@db.example.com/app?ssl-mode=no-verify')).toEqual({
      rejectUnauthorized: false,
    });
    expect(() => mysqlSslOf('mysql://u:p@db.example.com/app?ssl-mode=MAYBE')).toThrow(/unsupported/);
  });
});

describe('loopback', () => {
  it('covers 127.0.0.0/8, ::1, localhost and Unix sockets, and nothing that only looks like them', () => {
    for (const host of ['127.0.0.1', '127.255.0.1', '::1', '[::1]', 'localhost', '/var/run/postgresql'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      '127.0.0.1.example.com',
      'localhost.example.com',
      '10.0.0.1',
      '::ffff:10.0.0.1',
      'db',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
    expect(transportOf(null, 'db')).toBe('verify-full');
  });
});
