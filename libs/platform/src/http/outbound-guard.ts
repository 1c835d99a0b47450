import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { isIP, LookupFunction } from 'node:net';
import { ConfigVar, env } from '../config/config';
import { ipAllowed } from './ip-allowlist';

/**
 * Server-side request forgery guard for every call we make to a URL a merchant chose (webhook endpoints,
 * issuing decision endpoints): such a URL may not point us at loopback, private, link-local (including the
 * cloud metadata address 169.254.169.254), carrier-grade NAT, multicast or reserved addresses, neither when
 * it is registered (assertPublicTarget) nor when the call is made (guardedLookup and forbiddenLiteral: DNS
 * can change in between, so the caller checks the address its socket actually connects to). Local
 * development and tests allow them through each app's `*_ALLOW_PRIVATE_URLS` setting (allowPrivateUrlsVar).
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

/** The longest URL we call; the contracts cap webhook and decision endpoint URLs at the same length. */
export const OUTBOUND_URL_MAX_LENGTH = 2048;

export class UrlRefusedError extends Error {}

/** Thrown through a socket's lookup when the host resolved to a forbidden address: no connection is made. */
export class AddressRefusedError extends Error {
  constructor(readonly address: string) {
    super(`refused: ${address} is a loopback, private, link-local or reserved address`);
  }
}

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
export function parseOutboundUrl(raw: string): URL {
  if (raw.length > OUTBOUND_URL_MAX_LENGTH)
    throw new UrlRefusedError(`url must be at most ${OUTBOUND_URL_MAX_LENGTH} characters`);
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
  (await dnsLookupAll(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Registration-time check: every address the host resolves to must be public (one private address among
 * public ones is enough to refuse, since the connection may pick it).
 */
export async function assertPublicTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<URL> {
  const url = parseOutboundUrl(raw);
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

/**
 * Call-time check of an IP literal host (a literal never reaches a socket's lookup): the address when it is
 * forbidden, so the caller refuses before connecting.
 */
export function forbiddenLiteral(url: URL): string | undefined {
  const host = hostOf(url);
  return isIP(host) !== 0 && isForbiddenAddress(host) ? host : undefined;
}

/**
 * Call-time check of a host name: a `lookup` for node:http / node:net that resolves like dns.lookup and fails
 * with AddressRefusedError when any address of the answer is forbidden, so the socket only ever connects to
 * an address that was checked (a DNS answer that changed since registration, DNS rebinding, cannot reach an
 * internal service). `resolve` replaces the system's lookup (tests, a host that must answer differently).
 */
export function guardedLookup(resolve?: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const answer = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0) return callback(notFound(hostname), '', 0);
      const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address));
      if (forbidden) return callback(new AddressRefusedError(forbidden.address), '', 0);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first.address, first.family);
    };
    if (!resolve) return dnsLookup(hostname, { ...options, all: true }, answer);
    resolve(hostname).then(
      (found) => answer(null, found.map((address) => ({ address, family: isIP(address) }))),
      (error: NodeJS.ErrnoException) => answer(error, []),
    );
  };
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}

export const PRIVATE_URL_SETTINGS = ['auto', 'true', 'false'] as const;
export type PrivateUrlSetting = (typeof PRIVATE_URL_SETTINGS)[number];

/** An app's switch for the guard, e.g. WEBHOOK_ALLOW_PRIVATE_URLS: `what` names the URLs it governs. */
export function allowPrivateUrlsVar(what: string): ConfigVar<PrivateUrlSetting> {
  return env.oneOf(
    `allow ${what} that resolve to loopback, private, link-local or metadata addresses (auto = yes unless NODE_ENV=production)`,
    PRIVATE_URL_SETTINGS,
    { default: 'auto' },
  );
}

/** `auto` (every app's default) means "allowed, except in production"; the k8s manifests say `false`. */
export function privateUrlsAllowed(setting: PrivateUrlSetting, nodeEnv: string): boolean {
  if (setting === 'auto') return nodeEnv !== 'production';
  return setting === 'true';
}
