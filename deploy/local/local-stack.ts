import { DEFAULT_KAFKA_PREFIX } from '@paygrid/platform';
import { replicasOf, StackSettings } from './app-launcher';

/** What provideInfrastructure finds (or starts): the broker, the Postgres server and Redis. */
type Endpoints = 'kafkaBrokers' | 'databaseServerUrl' | 'redisUrl';

/**
 * The stack `npm start` runs, as far as the environment decides it: the catalog's ports, the databases
 * without suffix, KAFKA_PREFIX (or the default), LOG_LEVEL and PAYGRID_REPLICAS. `npm run migrate` reads the
 * same, so it migrates the databases `npm start` uses under the configuration its apps get.
 */
export function localStackSettings(
  env: NodeJS.ProcessEnv = process.env,
): Omit<StackSettings, Endpoints> & { logSink: 'terminal'; replicas: number } {
  return {
    portOffset: 0,
    databaseSuffix: '',
    kafkaPrefix: env.KAFKA_PREFIX || DEFAULT_KAFKA_PREFIX,
    extraEnv: {},
    logLevel: env.LOG_LEVEL ?? 'info',
    logSink: 'terminal',
    replicas: replicasFromEnv(env.PAYGRID_REPLICAS),
  };
}

/** PAYGRID_REPLICAS: processes per app, 1 by default. */
function replicasFromEnv(raw: string | undefined): number {
  return replicasOf({ replicas: raw === undefined || raw === '' ? 1 : Number(raw) });
}
