// Transport security of connected databases (docs/databases.md "Transport security"). A URL's
// sslmode (PostgreSQL) or ssl-mode (MySQL) becomes one of four transports:
//
//   verify-full  TLS, the certificate chain checked against Node's CA store (plus
//                NODE_EXTRA_CA_CERTS) and the host name against the certificate. The default for
//                every host that is not loopback, and what `require`, `prefer` and `allow` mean:
//                a connection that is encrypted but not verified gives the database password to
//                whoever can answer in the server's place, so we never fall back to it silently
//                (libpq's `require` does; node-postgres treats it as verify-full today, as we do).
//   verify-ca    TLS, the chain checked, the host name not (a certificate issued for another host
//                by the same CA is accepted). Only when the URL says so.
//   no-verify    TLS without any check: protects against a passive listener only. Only when the
//                URL says so (`sslmode=no-verify`).
//   plain        no TLS: password and rows travel in clear text. The default on loopback
//                (127.0.0.0/8, ::1, localhost, a Unix socket), elsewhere only with
//                `sslmode=disable` (`ssl-mode=DISABLED`).
export type Transport = 'verify-full' | 'verify-ca' | 'no-verify' | 'plain';

/** Hosts whose traffic never leaves the machine. */
export const isLoopbackHost = (host: string): boolean => {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    name === 'localhost' ||
    name === '::1' ||
    name === '0:0:0:0:0:0:0:1' ||
    /^127(\.\d{1,3}){3}$/.test(name) ||
    // A Unix socket directory (pg): no network at all.
    name.startsWith('/')
  );
};

const transports: Record<string, Transport> = {
  disable: 'plain',
  disabled: 'plain',
  allow: 'verify-full',
  prefer: 'verify-full',
  preferred: 'verify-full',
  require: 'verify-full',
  required: 'verify-full',
  verify_ca: 'verify-ca',
  verify_full: 'verify-full',
  verify_identity: 'verify-full',
  no_verify: 'no-verify',
};

/**
 * The transport a URL asks for: its mode (case and `-`/`_` ignored), or by default verify-full,
 * plain on loopback. An unknown mode is an error, never a guess.
 */
export const transportOf = (mode: string | null, host: string): Transport => {
  if (mode === null || mode.trim() === '') return isLoopbackHost(host) ? 'plain' : 'verify-full';
  const transport = transports[mode.trim().toLowerCase().replaceAll('-', '_')];
  if (!transport)
    throw new Error(
      'unsupported sslmode (disable, require, verify-ca, verify-full or no-verify; as ssl-mode: DISABLED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY)',
    );
  return transport;
};
