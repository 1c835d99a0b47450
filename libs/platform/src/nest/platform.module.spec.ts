import { PlatformModule, PlatformOptions } from './platform.module';
import { commonConfig } from '../config/common-config';
import { loadConfig } from '../config/config';

/**
 * `npm run migrate` creates the durable jobs' table from the app's migrations declaration alone, so a module
 * whose `jobs` and declaration disagree must not boot (its database would differ from the command's).
 */
describe('PlatformModule.forRoot', () => {
  const base: PlatformOptions = {
    app: 'payouts',
    config: loadConfig(commonConfig('payouts'), { LOG_LEVEL: 'silent' }),
  };
  const jobs = { queue: 'test-jobs' };

  it('refuses durable jobs whose table the database does not declare', () => {
    expect(() => PlatformModule.forRoot({ ...base, database: { migrations: [] }, jobs })).toThrow(
      /payouts keeps durable jobs but its database does not declare durableJobs/,
    );
  });

  it('refuses a database declaring durable jobs the app does not keep', () => {
    expect(() =>
      PlatformModule.forRoot({ ...base, database: { migrations: [], durableJobs: true } }),
    ).toThrow(/payouts declares durableJobs but passes no jobs options/);
  });

  it('refuses durable jobs without a database', () => {
    expect(() => PlatformModule.forRoot({ ...base, jobs })).toThrow(
      /durable jobs need the app to have a database/,
    );
  });

  it('accepts durable jobs with the declaration, and a database without either', () => {
    expect(() =>
      PlatformModule.forRoot({ ...base, database: { migrations: [], durableJobs: true }, jobs }),
    ).not.toThrow();
    expect(() => PlatformModule.forRoot({ ...base, database: { migrations: [] } })).not.toThrow();
  });
});
