import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { WEBHOOK_URL_MAX_LENGTH } from '@paygrid/contracts';
import { ipAllowed } from '@paygrid/platform';

/**
 * Server-side request forgery guard: an endpoint URL may not point the dispatcher at loopback, private,
 * link-local (including the cloud metadata address 169.254.169.254), carrier-grade NAT, multicast or
 * reserved addresses, neither when it is registered nor when a delivery is sent (DNS can change in
 * between; the sender checks the address it actually connects to, see webhook-sender.ts). Local
 * development and tests allow them through WEBHOOK_ALLOW_PRIVATE_URLS.
 */
export const FORBIDDEN_RANGES: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/96',
  '64:ff9b::/96',
  '100::/64',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
];

export class UrlRefusedError extends Error {}

export function isForbiddenAddress(address: string): boolean {
  return ipAllowed(dottedIfMapped(address), FORBIDDEN_RANGES);
}

/** `::ffff:7f00:1` → `127.0.0.1`: an IPv4-mapped address is judged as the IPv4 address it reaches. */
function dottedIfMapped(address: string): string {
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Syntax: http or https, a host, at most 2048 characters. Returns the parsed URL or throws UrlRefusedError. */
export function parseEndpointUrl(raw: string): URL {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH)
    throw new UrlRefusedError(`url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefusedError('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UrlRefusedError('url must use https or http');
  if (url.hostname === '') throw new UrlRefusedError('url must name a host');
  return url;
}

/** The host as the socket layer sees it: IPv6 literals lose their brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Registration-time check: every address the host resolves to must be public (one private address among
 * public ones is enough to refuse, since the connection may pick it).
 */
export async function assertPublicTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<URL> {
  const url = parseEndpointUrl(raw);
  if (allowPrivate) return url;
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new UrlRefusedError(`url host ${host} does not resolve`);
    }
  }
  const forbidden = addresses.find(isForbiddenAddress);
  if (addresses.length === 0) throw new UrlRefusedError(`url host ${host} does not resolve`);
  if (forbidden !== undefined) {
    throw new UrlRefusedError(
      `url host ${host} resolves to ${forbidden}, a loopback, private, link-local or reserved address`,
    );
  }
  return url;
}
