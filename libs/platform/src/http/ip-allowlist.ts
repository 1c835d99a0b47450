import { BlockList, isIP } from 'node:net';

/**
 * Matches a caller IP against an API key's allow-list of addresses and CIDR ranges (IPv4 and IPv6,
 * with IPv4-mapped IPv6 addresses such as ::ffff:10.0.0.1 treated as IPv4). An empty list allows all.
 * Used by accounts at token issuance and by the gateway on every request.
 */
export function isValidAllowlistEntry(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export function ipAllowed(ip: string, allowlist: readonly string[]): boolean {
  if (allowlist.length === 0) return true;
  const caller = unmapIpv4(ip);
  const family = isIP(caller);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of allowlist) {
    if (!isValidAllowlistEntry(entry)) continue;
    const [address, prefix] = entry.split('/');
    const entryAddress = unmapIpv4(address);
    const type = isIP(entryAddress) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(entryAddress, type);
    else list.addSubnet(entryAddress, Number(prefix), type);
  }
  return list.check(caller, family === 4 ? 'ipv4' : 'ipv6');
}

function unmapIpv4(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1] : ip;
}
