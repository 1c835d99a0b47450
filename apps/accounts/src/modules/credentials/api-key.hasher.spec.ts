import { ApiKeyHasher, newApiKey, newClientId, randomBase62 } from './api-key.hasher';

describe('ApiKeyHasher', () => {
  const hasher = new ApiKeyHasher('a-pepper-that-is-long-enough-for-tests');

  it('hashes a key to 64 lower-case hex characters that do not contain the key', () => {
    const key = 'sk_sandbox_master_0123456789abcdef';
    const hash = hasher.hash(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key);
    expect(hasher.hash(key)).toBe(hash);
  });

  it('depends on the pepper, so a stolen table alone cannot confirm a guessed key', () => {
    expect(new ApiKeyHasher('another-pepper-that-is-long-enough').hash('k')).not.toBe(hasher.hash('k'));
  });

  it('matches the right key and refuses a wrong one', () => {
    const stored = hasher.hash('right-key');
    expect(hasher.matches('right-key', stored)).toBe(true);
    expect(hasher.matches('wrong-key', stored)).toBe(false);
    expect(hasher.matches('right-key ', stored)).toBe(false);
  });

  it('refuses every key when there is no stored hash (unknown client id)', () => {
    expect(hasher.matches('anything', null)).toBe(false);
    expect(hasher.matches('', null)).toBe(false);
  });

  it('refuses a malformed stored hash instead of throwing', () => {
    expect(hasher.matches('right-key', 'abc')).toBe(false);
  });
});

describe('generated identifiers', () => {
  it('makes client ids of cli_ and 20 base62 characters', () => {
    expect(newClientId()).toMatch(/^cli_[0-9A-Za-z]{20}$/);
    expect(newClientId()).not.toBe(newClientId());
  });

  it('makes API keys of sk_ and 40 base62 characters', () => {
    expect(newApiKey()).toMatch(/^sk_[0-9A-Za-z]{40}$/);
  });

  it('draws base62 characters of exactly the asked length', () => {
    expect(randomBase62(0)).toBe('');
    expect(randomBase62(500)).toMatch(/^[0-9A-Za-z]{500}$/);
  });
});
