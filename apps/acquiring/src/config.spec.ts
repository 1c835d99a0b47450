import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '@paygrid/platform';
import { assertProductionKeys, configSchema } from './config';

describe('acquiring configuration', () => {
  it('runs on development defaults with a 24-hour capture window and no override', () => {
    const config = loadConfig(configSchema, {});
    expect(config.CAPTURE_WINDOW_HOURS).toBe(24);
    expect(config.CAPTURE_WINDOW_OVERRIDE_MS).toBe(0);
    expect(config.CARD_ENCRYPTION_KEY).toHaveLength(32);
    expect(() => assertProductionKeys(config)).not.toThrow();
  });

  it('refuses a capture window outside 1–24 hours and a key that is not 32 bytes, naming them', () => {
    expect(() => loadConfig(configSchema, { CAPTURE_WINDOW_HOURS: '25', CARD_ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(ConfigError);
    try {
      loadConfig(configSchema, { CAPTURE_WINDOW_HOURS: '25', CARD_ENCRYPTION_KEY: 'c2hvcnQ=' });
    } catch (error) {
      expect((error as ConfigError).problems.map((problem) => problem.split(' ')[0])).toEqual(['CARD_ENCRYPTION_KEY', 'CAPTURE_WINDOW_HOURS']);
    }
  });

  it('refuses to run in production on the published development keys', () => {
    const config = loadConfig(configSchema, { NODE_ENV: 'production' });
    expect(() => assertProductionKeys(config)).toThrow('CARD_ENCRYPTION_KEY is the published development key');
    const real = loadConfig(configSchema, {
      NODE_ENV: 'production',
      CARD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CARD_TRANSPORT_KEY: randomBytes(32).toString('base64'),
    });
    expect(() => assertProductionKeys(real)).not.toThrow();
  });
});
