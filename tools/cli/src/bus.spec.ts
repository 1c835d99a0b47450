import { cliBusOptions } from './bus';
import { CliFailure } from './commands/registry';

describe('cliBusOptions', () => {
  it('reads the brokers and the timeout from the environment, with defaults', () => {
    expect(cliBusOptions({})).toEqual({ brokers: ['127.0.0.1:9092'], timeoutMs: 15_000, logLevel: 'silent' });
    expect(cliBusOptions({ KAFKA_BROKERS: 'a:1, b:2', PAYGRID_CLI_TIMEOUT_MS: '500' })).toMatchObject({
      brokers: ['a:1', 'b:2'],
      timeoutMs: 500,
    });
  });

  it('refuses a timeout that is not a sensible integer', () => {
    expect(() => cliBusOptions({ PAYGRID_CLI_TIMEOUT_MS: 'soon' })).toThrow(CliFailure);
  });
});
