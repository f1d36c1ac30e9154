import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { InputError } from '../errors.js';

/**
 * Which addresses URL ingest may fetch from. The user's own URL may point anywhere they
 * choose (a server on their machine or network included); everything the page leads to —
 * its images, and every redirect on the way to it or to them — must be on that same
 * host and port, or on public addresses. Loopback, private, link-local (cloud metadata),
 * carrier-grade NAT, multicast and reserved ranges are refused, so a page cannot make the
 * tool reach into the network it runs in.
 */
/** Resolves to the address to connect to (one the check approved), or undefined for the user's own host, reached as the system resolves it. */
export type AddressCheck = (url: URL) => Promise<string | undefined>;

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** A public unicast address (IPv4-mapped IPv6 addresses are judged by their IPv4 part). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** The check for one ingest of `userUrl`: its own host and port, or public addresses only. */
export function publicOrSameHost(userUrl: string, resolve: Resolver = systemResolver): AddressCheck {
  const own = hostAndPort(new URL(userUrl));
  let ownAddress: Promise<string> | undefined;
  return async (url) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new InputError(`${url.href}: only http and https links are followed`);
    }
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const lookup = async (): Promise<string[]> => {
      try {
        return isIP(hostname) ? [hostname] : await resolve(hostname);
      } catch {
        throw new InputError(`${url.href}: host not found`);
      }
    };
    if (hostAndPort(url) === own) {
      // The user's own host may be anywhere, but it stays where it first was: every request
      // to it (the page, its redirects, its images) connects to the address of the first.
      ownAddress ??= lookup().then((addresses) => {
        if (addresses[0] === undefined) throw new InputError(`${url.href}: host not found`);
        return addresses[0];
      });
      return ownAddress;
    }
    const addresses = await lookup();
    const blocked = addresses.find((address) => !isPublicAddress(address));
    if (blocked !== undefined || addresses.length === 0) {
      throw new InputError(
        `${url.href} was not fetched: ${url.hostname} is ${blocked === undefined ? 'unresolvable' : `a non-public address (${blocked})`}, ` +
          `and only the page's own host (${own}) or public addresses are followed`,
      );
    }
    return addresses[0];
  };
}

function hostAndPort(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.toLowerCase()}:${port}`;
}
