import { APP_CATALOG, AppName, DEFAULT_KAFKA_PREFIX } from '@paygrid/platform';
import { assertPortsFree, launchApps, RunningApp, stopApps, waitUntilReady } from './app-launcher';
import { provideInfrastructure } from './infrastructure';
import { sandboxCredentials } from './sandbox-credentials';

/**
 * `npm start`: the whole platform in the foreground. Brings up Kafka, topics, databases and checks
 * Redis, runs the six apps with prefixed readable logs, prints the gateway URL and the sandbox
 * credentials, and on Ctrl-C stops everything it started and nothing else.
 */
const say = (line: string) => process.stdout.write(`paygrid            ${line}\n`);

async function main(): Promise<void> {
  const settings = {
    portOffset: 0,
    databaseSuffix: '',
    kafkaPrefix: process.env.KAFKA_PREFIX || DEFAULT_KAFKA_PREFIX,
    extraEnv: {},
    logLevel: process.env.LOG_LEVEL ?? 'info',
    logSink: 'terminal' as const,
  };
  await assertPortsFree({ ...settings, kafkaBrokers: '', databaseServerUrl: '', redisUrl: '' });
  const infrastructure = await provideInfrastructure(say, '', { kafkaPrefix: settings.kafkaPrefix });
  let apps: RunningApp[] = [];
  let stopping = false;

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    await stopApps(apps);
    await infrastructure.release();
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  apps = launchApps({ ...settings, ...infrastructure }, (app: AppName, code) => {
    if (stopping) return;
    say(`${app} exited with code ${code}; stopping the platform`);
    void shutdown(1);
  });
  try {
    await waitUntilReady(apps, 120_000);
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    await shutdown(1);
    return;
  }
  const gateway = APP_CATALOG.find((app) => app.name === 'gateway');
  const base = `http://127.0.0.1:${gateway?.port}/api`;
  say('');
  say(`Paygrid is up. API base URL: ${base}   (health: ${base}/health)`);
  say('Sandbox credentials (POST /api/v1/connect/token with x-client-id and x-api-key):');
  for (const credential of sandboxCredentials()) {
    say(`  ${credential.label.padEnd(14)} account ${credential.accountId}  x-client-id ${credential.clientId}  x-api-key ${credential.apiKey}`);
  }
  say('Press Ctrl-C to stop.');
}

main().catch((error) => {
  process.stderr.write(`paygrid: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
