// Where a connected database's connections may go (docs/design.md "Isolation against an
// attacker: second round", docs/databases.md "Connection targets"). Outside the local stack:
//  - never loopback, "this network", link-local (169.254/16: the cloud's metadata endpoints,
//    fe80::/10), the EC2 IPv6 metadata range, multicast, reserved, IPv6 discard-only
//    (100::/64) or documentation (2001:db8::/32) addresses;
//  - private (10/8, 172.16/12, 192.168/16), shared (CGNAT 100.64/10), unique-local (fc00::/7),
//    NAT64 (64:ff9b::/96, 64:ff9b:1::/48), IPv4-compatible (::a.b.c.d), 6to4 and Teredo
//    addresses only when the stage allows private hosts (DB_ALLOW_PRIVATE_HOSTS); an IPv4
//    address embedded in IPv6 — mapped (::ffff:a.b.c.d), SIIT-translated (::ffff:0:a.b.c.d) or
//    compatible, in any spelling — is checked as that IPv4 address;
//  - a name is resolved ONCE per connector (every address it resolves to must pass) and every
//    connection, at the test and on every indexing or answering connection after it, goes to
//    that checked address through the drivers' socket factory with a custom lookup: the name is
//    kept for TLS (SNI and the certificate's host check), and a DNS answer that changes later
//    (rebinding) is never asked for. A failed lookup is refused, never passed through.
// A refusal is a connection failure with detail HOST_NOT_ALLOWED; the connection test reports
// every network failure as one detail (lib/connectors/errors.ts).
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, Socket } from 'node:net';
import { settings } from '#lib/config.ts';

export interface TargetRules {
  /** The local stack: any address (its databases are on this machine). */
  anywhere: boolean;
  /** The stage allows private, shared and unique-local addresses. */
  privateHosts: boolean;
}

export const targetRules = (): TargetRules => ({
  anywhere: settings().stage === 'local',
  privateHosts: settings().database.allowPrivateHosts,
});

const never = new BlockList();
never.addSubnet('0.0.0.0', 8, 'ipv4');
never.addSubnet('127.0.0.0', 8, 'ipv4');
never.addSubnet('169.254.0.0', 16, 'ipv4');
never.addSubnet('192.0.0.0', 24, 'ipv4');
never.addSubnet('224.0.0.0', 3, 'ipv4');
never.addAddress('::', 'ipv6');
never.addAddress('::1', 'ipv6');
never.addSubnet('fe80::', 10, 'ipv6');
never.addSubnet('fec0::', 10, 'ipv6');
never.addSubnet('ff00::', 8, 'ipv6');
never.addSubnet('fd00:ec2::', 32, 'ipv6');
// Discard-only (RFC 6666) and documentation (RFC 3849): no database is ever there.
never.addSubnet('100::', 64, 'ipv6');
never.addSubnet('2001:db8::', 32, 'ipv6');

const privateRanges = new BlockList();
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('100.64.0.0', 10, 'ipv4');
privateRanges.addSubnet('198.18.0.0', 15, 'ipv4');
privateRanges.addSubnet('fc00::', 7, 'ipv6');
// Translation and tunnel ranges: where they lead is another address the check cannot see.
privateRanges.addSubnet('64:ff9b::', 96, 'ipv6');
privateRanges.addSubnet('64:ff9b:1::', 48, 'ipv6');
privateRanges.addSubnet('2002::', 16, 'ipv6');
privateRanges.addSubnet('2001::', 32, 'ipv6');
privateRanges.addSubnet('::', 96, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a valid one: isIP said 6), in any of its spellings. */
const ipv6Groups = (address: string): number[] => {
  const bare = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare);
  const hex = dotted
    ? `${bare.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : bare;
  const [head = '', tail] = hex.split('::');
  const groupsOf = (part: string | undefined) =>
    part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [];
  const first = groupsOf(head);
  const last = groupsOf(tail);
  return tail === undefined ? first : [...first, ...Array(8 - first.length - last.length).fill(0), ...last];
};

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits, and how: IPv4-mapped
 * (::ffff:a.b.c.d) and SIIT IPv4-translated (::ffff:0:a.b.c.d) name that IPv4 host, and are
 * checked as it; IPv4-compatible (::a.b.c.d, deprecated) is checked as it too, and is a
 * translated address besides. Whatever the spelling (hex groups, dotted quad, zeros written out).
 */
const embeddedIpv4 = (address: string): { ipv4: string; form: 'mapped' | 'compatible' } | undefined => {
  const groups = ipv6Groups(address);
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const form =
    zeros(0, 5) && groups[5] === 0xffff
      ? 'mapped'
      : zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0
        ? 'mapped'
        : zeros(0, 6) && !(groups[6] === 0 && (groups[7] ?? 0) <= 1)
          ? 'compatible'
          : undefined;
  if (!form) return undefined;
  const high = groups[6] ?? 0;
  const low = groups[7] ?? 0;
  return { ipv4: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, form };
};

/** Why an address is refused under the rules; undefined when connections may go there. */
export const refusedAddress = (address: string, rules: TargetRules): string | undefined => {
  if (rules.anywhere) return undefined;
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return 'not an address';
  const embedded = family === 6 ? embeddedIpv4(bare) : undefined;
  const ipv4 = family === 6 ? embedded?.ipv4 : bare;
  const [checked, type] = ipv4 ? [ipv4, 'ipv4' as const] : [bare, 'ipv6' as const];
  if (never.check(checked, type)) return 'a loopback, link-local or reserved address';
  if (embedded?.form === 'compatible' && !rules.privateHosts) return 'an IPv4-compatible IPv6 address';
  if (!rules.privateHosts && privateRanges.check(checked, type))
    return 'a private, shared or translated address (not allowed on this stage)';
  return undefined;
};

/** A connection refused by the target rules (detail HOST_NOT_ALLOWED, lib/connectors/errors.ts). */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
  readonly code = 'HOST_NOT_ALLOWED';
}

type LookupCallback = (
  error: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * The drivers' socket factory for one connector's host: the first connection resolves the name
 * and checks every address; that answer (or its refusal) holds for every later connection.
 */
export const targetSockets = (host: string, rules: TargetRules = targetRules()) => {
  const bare = host.replace(/^\[|\]$/g, '');
  let resolved: Promise<{ address: string; family: number }> | undefined;
  const resolve = (): Promise<{ address: string; family: number }> => {
    resolved ??= new Promise((done, fail) => {
      if (isIP(bare) !== 0) {
        const reason = refusedAddress(bare, rules);
        if (reason) fail(new TargetRefused(`the host is ${reason}`));
        else done({ address: bare, family: isIP(bare) });
        return;
      }
      if (!rules.anywhere && (bare === 'localhost' || bare.endsWith('.localhost')))
        return fail(new TargetRefused('the host is a loopback name'));
      dnsLookup(bare, { all: true }, (error, addresses) => {
        if (error || addresses.length === 0) {
          const failure = Object.assign(new Error('the host name does not resolve'), {
            code: (error as NodeJS.ErrnoException | null)?.code ?? 'ENOTFOUND',
          });
          return fail(failure);
        }
        for (const { address } of addresses) {
          const reason = refusedAddress(address, rules);
          if (reason) return fail(new TargetRefused(`the host resolves to ${reason}`));
        }
        done(addresses[0]!);
      });
    });
    // A failure is not kept: the next connection asks again (a passing DNS outage heals).
    resolved.catch(() => {
      resolved = undefined;
    });
    return resolved;
  };
  const lookup = (_name: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve().then(
      ({ address, family }) =>
        options.all ? callback(null, [{ address, family }]) : callback(null, address, family),
      (error: Error) => callback(error, '', 0),
    );
  };
  /** Connects `socket` to the checked address of `name` (an address literal is checked here: net never looks it up). */
  const connectTo = (socket: Socket, port: number, name: string): Socket => {
    const connect = Socket.prototype.connect as (this: Socket, options: object) => Socket;
    if (isIP(bare) !== 0) {
      const reason = refusedAddress(bare, rules);
      if (reason) {
        process.nextTick(() => socket.destroy(new TargetRefused(`the host is ${reason}`)));
        return socket;
      }
      return connect.call(socket, { port, host: bare });
    }
    return connect.call(socket, { port, host: name, lookup });
  };
  /** pg: an unconnected socket whose connect(port, host) goes to the checked address, `host` kept for TLS. */
  const socket = (): Socket => {
    const created = new Socket();
    (created as unknown as { connect: (port: number, name: string) => Socket }).connect = (port, name) =>
      connectTo(created, port, name);
    return created;
  };
  /** mysql2: a socket already connecting to the checked address of `name`. */
  const connected = (port: number, name: string): Socket => connectTo(new Socket(), port, name);
  return { resolve, lookup, socket, connected };
};
