import { appDescriptor, databaseUrlFor } from '@paygrid/platform';
import { appPort, assertPortsFree, REPLICA_PORT_STRIDE } from './app-launcher';
import { AppSupervisor } from './app-supervisor';
import { provideInfrastructure } from './infrastructure';
import { localStackSettings } from './local-stack';
import { readySandboxPoolCard, sandboxCredentials } from './sandbox-credentials';

/**
 * `npm start`: the whole platform in the foreground. Brings up Kafka, topics, databases and checks
 * Redis, runs the six apps with prefixed readable logs under a supervisor (an app that exits is started
 * again with backoff while the others keep running), prints the gateway URL and the sandbox
 * credentials, and on Ctrl-C stops everything it started and nothing else.
 *
 * `PAYGRID_REPLICAS=2 npm start` runs two processes of every app (the second on port + 10: gateways on
 * 3000 and 3010), sharing databases and consumer groups, as two pods of each Deployment would.
 */
const say = (line: string) => process.stdout.write(`paygrid            ${line}\n`);

async function main(): Promise<void> {
  const settings = localStackSettings();
  await assertPortsFree({ ...settings, kafkaBrokers: '', databaseServerUrl: '', redisUrl: '' });
  const infrastructure = await provideInfrastructure(say, '', { kafkaPrefix: settings.kafkaPrefix });
  const supervisor = new AppSupervisor({ ...settings, ...infrastructure }, say);
  let stopping = false;

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    await supervisor.stop();
    await infrastructure.release();
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  supervisor.start();
  try {
    await supervisor.waitUntilReady(120_000);
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    await shutdown(1);
    return;
  }
  const gateway = appDescriptor('gateway');
  const base = `http://127.0.0.1:${gateway.port}/api`;
  say('');
  say(`Paygrid is up. API base URL: ${base}   (health: ${base}/health)`);
  if (settings.replicas > 1) {
    const gateways = Array.from({ length: settings.replicas }, (_, replica) => appPort(settings, gateway.port, replica));
    say(`${settings.replicas} replicas of every app (ports + ${REPLICA_PORT_STRIDE} each); gateways on ${gateways.join(', ')}`);
  }
  say('Sandbox credentials (POST /api/v1/connect/token with x-client-id and x-api-key):');
  for (const credential of sandboxCredentials()) {
    say(`  ${credential.label.padEnd(14)} account ${credential.accountId}  x-client-id ${credential.clientId}  x-api-key ${credential.apiKey}`);
  }
  const poolCard = await readySandboxPoolCard(databaseUrlFor(infrastructure.databaseServerUrl, appDescriptor('issuing').database)).catch(() => undefined);
  if (poolCard) {
    say(`A ready pool card of the master (POST /api/v1/issuing/cards/assign, then /cards/activate): card_number ${poolCard.card_number}  activation_code ${poolCard.activation_code}`);
  }
  say('Press Ctrl-C to stop.');
}

main().catch((error) => {
  process.stderr.write(`paygrid: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
