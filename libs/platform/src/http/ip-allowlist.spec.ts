import { ipAllowed, isValidAllowlistEntry } from './ip-allowlist';

describe('ipAllowed', () => {
  it('allows every address when the list is empty', () => {
    expect(ipAllowed('203.0.113.9', [])).toBe(true);
  });

  it('matches exact IPv4 and IPv6 addresses', () => {
    expect(ipAllowed('203.0.113.9', ['203.0.113.9'])).toBe(true);
    expect(ipAllowed('203.0.113.10', ['203.0.113.9'])).toBe(false);
    expect(ipAllowed('2001:db8::1', ['2001:db8::1'])).toBe(true);
  });

  it('matches CIDR ranges', () => {
    expect(ipAllowed('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(ipAllowed('11.1.2.3', ['10.0.0.0/8'])).toBe(false);
    expect(ipAllowed('2001:db8::abcd', ['2001:db8::/32'])).toBe(true);
  });

  it('treats IPv4-mapped IPv6 callers as IPv4', () => {
    expect(ipAllowed('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
  });

  it('refuses a caller that is not an IP at all', () => {
    expect(ipAllowed('not-an-ip', ['10.0.0.0/8'])).toBe(false);
  });
});

describe('isValidAllowlistEntry', () => {
  it('accepts addresses and ranges and refuses malformed entries', () => {
    expect(isValidAllowlistEntry('10.0.0.0/8')).toBe(true);
    expect(isValidAllowlistEntry('2001:db8::/129')).toBe(false);
    expect(isValidAllowlistEntry('10.0.0.0/33')).toBe(false);
    expect(isValidAllowlistEntry('example.com')).toBe(false);
    expect(isValidAllowlistEntry('10.0.0.1/8/1')).toBe(false);
  });
});
