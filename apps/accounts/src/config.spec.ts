import { ConfigError, loadConfig } from '@paygrid/platform';
import { configSchema, sandboxSeedEnabled } from './config';
import { SANDBOX_SEED_DEFAULTS } from './modules/seed/sandbox-seed.defaults';

describe('accounts configuration', () => {
  it('boots with documented defaults, including the sandbox keys', () => {
    const config = loadConfig(configSchema, {});
    expect(config.ACCOUNT_REVIEW_DELAY_MS).toBe(3000);
    expect(config.SANDBOX_MASTER_CLIENT_ID).toBe(SANDBOX_SEED_DEFAULTS.master.clientId);
    expect(config.SANDBOX_SUB2_API_KEY).toBe(SANDBOX_SEED_DEFAULTS.sub2.apiKey);
  });

  it('seeds the sandbox by default except in production', () => {
    expect(sandboxSeedEnabled(loadConfig(configSchema, {}))).toBe(true);
    expect(sandboxSeedEnabled(loadConfig(configSchema, { NODE_ENV: 'production' }))).toBe(false);
    expect(sandboxSeedEnabled(loadConfig(configSchema, { NODE_ENV: 'production', SANDBOX_SEED: 'true' }))).toBe(true);
    expect(sandboxSeedEnabled(loadConfig(configSchema, { SANDBOX_SEED: 'false' }))).toBe(false);
  });

  it('refuses a short pepper and a negative review delay, naming them', () => {
    expect(() => loadConfig(configSchema, { API_KEY_PEPPER: 'short', ACCOUNT_REVIEW_DELAY_MS: '-1' })).toThrow(ConfigError);
    try {
      loadConfig(configSchema, { API_KEY_PEPPER: 'short', ACCOUNT_REVIEW_DELAY_MS: '-1' });
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('API_KEY_PEPPER is invalid');
      expect(problems).toContain('ACCOUNT_REVIEW_DELAY_MS is invalid');
    }
  });
});
