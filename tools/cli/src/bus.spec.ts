import { cliBusOptions } from './bus';
import { CliFailure } from './commands/registry';

describe('cliBusOptions', () => {
  it('reads the brokers, the stack prefix and the timeout from the environment, with defaults', () => {
    expect(cliBusOptions({})).toEqual({ brokers: ['127.0.0.1:9092'], kafkaPrefix: 'paygrid', timeoutMs: 15_000, logLevel: 'silent' });
    expect(cliBusOptions({ KAFKA_BROKERS: 'a:1, b:2', KAFKA_PREFIX: 'staging', PAYGRID_CLI_TIMEOUT_MS: '500' })).toMatchObject({
      brokers: ['a:1', 'b:2'],
      kafkaPrefix: 'staging',
      timeoutMs: 500,
    });
  });

  it('refuses a timeout that is not a sensible integer', () => {
    expect(() => cliBusOptions({ PAYGRID_CLI_TIMEOUT_MS: 'soon' })).toThrow(CliFailure);
  });
});
