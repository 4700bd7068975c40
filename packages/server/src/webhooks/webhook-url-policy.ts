import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalidInput } from '@cms/core';

/** Resolves a hostname to all its addresses; injectable so tests can fake DNS answers. */
export type WebhookDnsLookup = (hostname: string) => Promise<LookupAddress[]>;

/** Options of the webhook url policy; `allowPrivate` mirrors `CMS_WEBHOOK_ALLOW_PRIVATE` (decisions §1). */
export interface WebhookUrlPolicyOptions {
  allowPrivate: boolean;
  lookup?: WebhookDnsLookup;
}

const NOT_PUBLIC_HINT =
  'webhooks may not target loopback, private, link-local, site-local, tunnel or metadata addresses unless CMS_WEBHOOK_ALLOW_PRIVATE is set';

// Names that reach a cloud instance-metadata service without going through a 169.254/16 literal.
const METADATA_HOSTNAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
]);

// Order matters: the first matching kind names the refusal. IPv4-mapped IPv6 addresses
// (::ffff:10.0.0.1) match the IPv4 subnets, as BlockList checks them against both families.
const ADDRESS_KINDS: ReadonlyArray<[kind: string, subnets: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']>]> = [
  [
    'loopback',
    [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  ],
  [
    'unspecified',
    [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  ],
  [
    'cloud metadata',
    [
      ['169.254.169.254', 32, 'ipv4'],
      ['fd00:ec2::254', 128, 'ipv6'],
    ],
  ],
  [
    'link-local',
    [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  ],
  [
    'private',
    [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ],
  ],
  ['carrier-grade NAT', [['100.64.0.0', 10, 'ipv4']]],
  // Deprecated site-local unicast (RFC 3879): routers of old networks still route it inside a site.
  ['site-local', [['fec0::', 10, 'ipv6']]],
  // Teredo (RFC 4380) tunnels to an IPv4 server and client it embeds (the client obfuscated), through
  // whatever relay the host uses: where it lands cannot be checked from the address.
  ['Teredo tunnel', [['2001::', 32, 'ipv6']]],
  // Discard-only (RFC 6666): a black hole inside a network, never a receiver.
  ['discard-only', [['100::', 64, 'ipv6']]],
  [
    'reserved',
    [
      ['192.0.0.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['::', 96, 'ipv6'],
    ],
  ],
  [
    'multicast',
    [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  ],
];

const BLOCK_LISTS: ReadonlyArray<[string, BlockList]> = ADDRESS_KINDS.map(([kind, subnets]) => {
  const list = new BlockList();
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family);
  return [kind, list];
});

/**
 * Names why an address is not a public unicast address (`'loopback'`, `'private'`, ...), or
 * returns null for a public one.
 */
export function describeNonPublicAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  for (const [kind, list] of BLOCK_LISTS) {
    if (list.check(address, family === 4 ? 'ipv4' : 'ipv6')) return kind;
  }
  return family === 6 ? describeTranslatedAddress(address) : null;
}

/**
 * IPv6 prefixes that carry an IPv4 address a gateway translates to: NAT64 `64:ff9b::/96` (RFC 6052,
 * the IPv4 address in the last 32 bits), the stateless translator's IPv4-translated addresses
 * `::ffff:0:0:0/96` (RFC 2765, SIIT, in the last 32 bits) and 6to4 `2002::/16` (RFC 3056, in bits
 * 16-47). They reach whatever IPv4 address they embed, so they are as public as that address. The
 * local-use NAT64 prefix `64:ff9b:1::/48` (RFC 8215) only exists inside a network: never public.
 * (IPv4-mapped `::ffff:0:0/96` is checked against the IPv4 lists directly; IPv4-compatible `::/96` is
 * reserved.)
 */
function describeTranslatedAddress(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const embedded = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'local NAT64 (64:ff9b:1::/48)';
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    const kind = describeNonPublicAddress(embedded(g6, g7));
    return kind === null ? null : `NAT64 (64:ff9b::/96) to a ${kind}`;
  }
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) {
    const kind = describeNonPublicAddress(embedded(g6, g7));
    return kind === null ? null : `SIIT (::ffff:0:0:0/96) to a ${kind}`;
  }
  if (g0 === 0x2002) {
    const kind = describeNonPublicAddress(embedded(g1, g2));
    return kind === null ? null : `6to4 (2002::/16) to a ${kind}`;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] | null {
  let host: string;
  try {
    host = new URL(`http://[${address.split('%')[0]}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = '', tail] = host.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  const groups = [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => group >= 0 && group <= 0xffff) ? groups : null;
}

/**
 * Parses a webhook url and checks its form: absolute, `https:`, with a host. Throws `INVALID_INPUT`.
 * @example parseWebhookUrl('https://hooks.example.com/cms').hostname === 'hooks.example.com'
 */
export function parseWebhookUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidInput({ url: 'must be an absolute URL such as https://hooks.example.com/cms' });
  }
  if (parsed.protocol !== 'https:') {
    throw invalidInput({ url: `must use https:// (webhooks are delivered over HTTPS only), got ${parsed.protocol}//` });
  }
  if (hostOf(parsed) === '') throw invalidInput({ url: 'must name a host, as in https://hooks.example.com/cms' });
  return parsed;
}

/**
 * Resolves a webhook host (or takes its IP literal) and returns all its addresses, throwing
 * `INVALID_INPUT` when it does not resolve or when any address is not public (unless allowed).
 */
export async function resolveAllowedAddresses(
  hostname: string,
  options: WebhookUrlPolicyOptions,
): Promise<LookupAddress[]> {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (!options.allowPrivate && METADATA_HOSTNAMES.has(host)) {
    throw invalidInput({ url: `"${host}" is a cloud metadata host; ${NOT_PUBLIC_HINT}` });
  }
  const literal = isIP(host);
  const addresses = literal !== 0 ? [{ address: host, family: literal }] : await resolve(host, options.lookup);
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const kind = describeNonPublicAddress(address);
      if (kind === null) continue;
      // Any non-public answer refuses the host: the connection could use any of them.
      const where = address === host ? address : `"${host}" resolves to ${address}`;
      throw invalidInput({ url: `${where} is a ${kind} address; ${NOT_PUBLIC_HINT}` });
    }
  }
  return addresses;
}

/**
 * Checks a webhook url against decisions §6 (https only; no loopback, private, link-local or
 * metadata targets unless `allowPrivate`) and returns the addresses its host resolved to, so the
 * sender can connect to a checked one. Throws `INVALID_INPUT` with the reason under `url`.
 */
export async function assertWebhookUrlAllowed(url: string, options: WebhookUrlPolicyOptions): Promise<LookupAddress[]> {
  return resolveAllowedAddresses(hostOf(parseWebhookUrl(url)), options);
}

/** The URL's hostname without the brackets of an IPv6 literal. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

async function resolve(host: string, lookup: WebhookDnsLookup = defaultLookup): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(host);
  } catch (error: unknown) {
    const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : '';
    throw invalidInput({ url: `host "${host}" does not resolve${code}: check the spelling and the DNS record` });
  }
  if (addresses.length === 0) {
    throw invalidInput({ url: `host "${host}" has no address: check the DNS record` });
  }
  return addresses;
}

function defaultLookup(hostname: string): Promise<LookupAddress[]> {
  return dnsLookup(hostname, { all: true });
}
