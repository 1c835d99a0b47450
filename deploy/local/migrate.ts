import { parseArgs } from 'node:util';
import { StackSettings } from './app-launcher';
import { localDatabaseServerUrl, localKafkaBrokers, localRedisServerUrl } from './infrastructure';
import { localStackSettings } from './local-stack';
import { describeOutcome, migrateAppDatabases, MigrationOutcome, reasonOf } from './migrate-databases';

/**
 * `npm run migrate`: every app's database created when missing and migrated as its app's boot would do it,
 * without starting any app (nor Kafka or Redis). The databases are `npm start`'s, on DATABASE_URL's server
 * (any database on it; the machine's Postgres by default); `-- --database-suffix _e2e` migrates another
 * stack's (`paygrid_accounts_e2e`, ...). Prints one line per app; exits 1 when any app failed.
 */
function databaseSuffixFrom(args: string[]): string {
  let suffix: string;
  try {
    suffix = parseArgs({ args, options: { 'database-suffix': { type: 'string', default: '' } } }).values[
      'database-suffix'
    ];
  } catch (error) {
    throw new Error(`${reasonOf(error)}\nusage: npm run migrate [-- --database-suffix <suffix>]`);
  }
  // ensureDatabase would refuse the name too; refusing it here names the flag.
  if (!/^[a-z0-9_]*$/.test(suffix))
    throw new Error(`--database-suffix must be lowercase letters, digits or _ (got "${suffix}")`);
  return suffix;
}

/** The server's address without its credentials, for messages. */
function serverLabel(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}`;
}

async function main(): Promise<number> {
  const settings: StackSettings = {
    ...localStackSettings(),
    databaseSuffix: databaseSuffixFrom(process.argv.slice(2)),
    databaseServerUrl: localDatabaseServerUrl(),
    kafkaBrokers: localKafkaBrokers(),
    redisUrl: localRedisServerUrl(),
  };
  const server = serverLabel(settings.databaseServerUrl);
  let outcomes: MigrationOutcome[];
  try {
    outcomes = await migrateAppDatabases(settings, (line) => process.stdout.write(`${line}\n`));
  } catch (error) {
    process.stderr.write(`migrate: could not prepare the databases on ${server}: ${reasonOf(error)}\n`);
    return 1;
  }
  for (const outcome of outcomes) {
    const line = `${describeOutcome(outcome)}\n`;
    if ('error' in outcome) process.stderr.write(line);
    else process.stdout.write(line);
  }
  const failed = outcomes.filter((outcome) => 'error' in outcome).map((outcome) => outcome.app);
  if (failed.length === 0) return 0;
  process.stderr.write(
    `migrate: failed for ${failed.join(', ')} (above); every other database is migrated\n`,
  );
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`migrate: ${reasonOf(error)}\n`);
    process.exit(1);
  },
);
