// Jest applies no moduleNameMapper to globalSetup: map the @paygrid aliases before anything imports them.
// eslint-disable-next-line @nx/enforce-module-boundaries
import '../../../../libs/testing/src/jest/register-source-paths';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import {
  assertPortsFree,
  launchApps,
  provideInfrastructure,
  REPO_ROOT,
  RunningApp,
  stopApps,
  waitUntilReady,
} from '@paygrid/local-stack';
import { deleteStackTopics, KafkaNames } from '@paygrid/platform';
import { e2eSettings, E2E_LOG_DIRECTORY, E2E_PIDS_FILE } from './stack-settings';

/**
 * Starts the whole platform for the e2e tier exactly as `npm start` runs it (compiled apps as child
 * processes against the real Kafka, Postgres and Redis), on fresh databases. The app pids go into
 * the environment so a test can kill one and start it again (see stack-control.ts).
 */
declare global {
  var __PAYGRID_E2E__: { apps: RunningApp[]; release: () => Promise<void> } | undefined;
}

export default async function globalSetup(): Promise<void> {
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed (${build.status} ${build.signal} ${build.error}):\n${build.stdout}\n${build.stderr}`);
  rmSync(E2E_LOG_DIRECTORY, { recursive: true, force: true });
  mkdirSync(E2E_LOG_DIRECTORY, { recursive: true });
  process.env.PAYGRID_E2E_KAFKA_PREFIX ??= `paygrid-e2e-${Date.now().toString(36)}`;
  const infrastructure = await provideInfrastructure(() => undefined, '_e2e', {
    recreateDatabases: true,
    kafkaPrefix: process.env.PAYGRID_E2E_KAFKA_PREFIX,
  });
  const settings = e2eSettings(infrastructure);
  await assertPortsFree(settings);
  const apps = launchApps(settings, () => undefined);
  const release = async () => {
    await deleteStackTopics(infrastructure.kafkaBrokers.split(','), new KafkaNames(settings.kafkaPrefix)).catch(() => undefined);
    await infrastructure.release();
  };
  globalThis.__PAYGRID_E2E__ = { apps, release };
  try {
    await waitUntilReady(apps, 120_000);
  } catch (error) {
    await stopApps(apps);
    await release();
    throw new Error(`e2e stack did not start (logs in ${E2E_LOG_DIRECTORY}): ${(error as Error).message}`);
  }
  writeFileSync(E2E_PIDS_FILE, JSON.stringify(Object.fromEntries(apps.map((app) => [app.name, app.process.pid]))));
  process.env.PAYGRID_E2E_BROKERS = infrastructure.kafkaBrokers;
  process.env.PAYGRID_E2E_DATABASE_SERVER = infrastructure.databaseServerUrl;
  process.env.PAYGRID_E2E_REDIS = settings.redisUrl;
}
