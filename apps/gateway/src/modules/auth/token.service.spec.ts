import jwt from 'jsonwebtoken';
import { VerifiedCredential } from '@paygrid/contracts';
import { GatewayConfig } from '../../config';
import { TokenService } from './token.service';

const SECRET = 'a-test-secret-of-some-length-0123456789';
const service = new TokenService({ JWT_SECRET: SECRET, TOKEN_TTL_SECONDS: 600 } as GatewayConfig);
const credential = {
  account_id: 'acc-1',
  short_reference_id: 'S1',
  parent_account_id: '',
  client_id: 'client-1',
  business_codes: ['BANKING'],
  key_id: 'key-1',
  master_account_id: 'acc-1',
  permissions: ['r:all'],
  ip_allowlist: [],
} as unknown as VerifiedCredential;

describe('TokenService (HS256 with the secret as a KeyObject)', () => {
  it('verifies its own tokens, bearer or bare, and a token signed with the plain string secret', () => {
    const { auth_token } = service.issue(credential);
    expect(service.verify(`Bearer ${auth_token}`).client_id).toBe('client-1');
    expect(service.verify(auth_token).kid).toBe('key-1');
    const byString = jwt.sign({ client_id: 'other', exp: Math.floor(Date.now() / 1000) + 60 }, SECRET, { algorithm: 'HS256' });
    expect(service.verify(byString).client_id).toBe('other');
  });

  it('refuses a token signed with another secret, an expired one, and a missing header', () => {
    const forged = jwt.sign({ client_id: 'x', exp: Math.floor(Date.now() / 1000) + 60 }, 'another-secret', { algorithm: 'HS256' });
    expect(() => service.verify(forged)).toThrow('Invalid auth token');
    const expired = jwt.sign({ client_id: 'x', exp: Math.floor(Date.now() / 1000) - 10 }, SECRET, { algorithm: 'HS256' });
    expect(() => service.verify(expired)).toThrow('Token expired');
    expect(() => service.verify(undefined)).toThrow('x-auth-token header is required');
  });

  it('answers a token it verified before from memory, and still expires it at its exp', () => {
    const fresh = new TokenService({ JWT_SECRET: SECRET, TOKEN_TTL_SECONDS: 60 } as GatewayConfig);
    const { auth_token, expired_at } = fresh.issue(credential);
    const first = fresh.verify(auth_token);
    expect(fresh.verify(`Bearer ${auth_token}`)).toBe(first);
    expect(Object.isFrozen(first.perms)).toBe(true);
    const now = jest.spyOn(Date, 'now').mockReturnValue(expired_at * 1000);
    try {
      expect(() => fresh.verify(auth_token)).toThrow('Token expired');
      expect(() => fresh.verify(auth_token)).toThrow('Token expired');
    } finally {
      now.mockRestore();
    }
  });

  it('answers a header it saw before from memory, and expires it too', () => {
    const fresh = new TokenService({ JWT_SECRET: SECRET, TOKEN_TTL_SECONDS: 60 } as GatewayConfig);
    const { auth_token, expired_at } = fresh.issue(credential);
    const first = fresh.verify(`Bearer ${auth_token}`);
    expect(fresh.verify(`Bearer ${auth_token}`)).toBe(first);
    expect(fresh.verify(`bearer  ${auth_token} `)).toBe(first);
    expect(fresh.verify(auth_token)).toBe(first);
    const now = jest.spyOn(Date, 'now').mockReturnValue(expired_at * 1000);
    try {
      expect(() => fresh.verify(`Bearer ${auth_token}`)).toThrow('Token expired');
      expect(() => fresh.verify(`bearer  ${auth_token} `)).toThrow('Token expired');
      expect(() => fresh.verify(auth_token)).toThrow('Token expired');
      expect(() => fresh.verify(`Bearer ${auth_token}`)).toThrow('Token expired');
    } finally {
      now.mockRestore();
    }
  });

  it('keeps refusing a forged token on every attempt (only verified tokens are remembered)', () => {
    const { auth_token } = service.issue(credential);
    const [header, payload] = auth_token.split('.');
    const tampered = `${header}.${payload}.${'A'.repeat(43)}`;
    expect(() => service.verify(tampered)).toThrow('Invalid auth token');
    expect(() => service.verify(tampered)).toThrow('Invalid auth token');
    expect(service.verify(auth_token).kid).toBe('key-1');
  });
});
