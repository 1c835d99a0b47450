import { connectCliBus, cliBusOptions } from './bus';
import { runCli } from './cli';

/**
 * `paygrid` — the operators' command line for a running Paygrid stack (docs/accounts.md):
 *
 *   paygrid keys create --account <uuid> [--ip 1.2.3.4,10.0.0.0/8] [--permission sensitive_card_details] [--label text]
 *   paygrid keys list [--account <uuid>]
 *   paygrid keys revoke <key_id|client_id>
 *
 * It talks to the services over Kafka (KAFKA_BROKERS), like the gateway does.
 */
async function main(): Promise<void> {
  const code = await runCli(process.argv.slice(2), {
    connect: () => connectCliBus(cliBusOptions(process.env)),
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
  // Exit explicitly: a Kafka client that failed to connect may still hold timers open.
  process.exitCode = code;
  setImmediate(() => process.exit(code));
}

if (require.main === module) void main();
