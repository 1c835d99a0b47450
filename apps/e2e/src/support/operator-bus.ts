import pino from 'pino';
import { CreatedCredential, CredentialCommand, CredentialPermission, CredentialView } from '@paygrid/contracts';
import { CommandBus, KafkaNames, Metrics } from '@paygrid/platform';
import { e2eKafkaBrokers, e2eKafkaPrefix } from './stack-settings';

/**
 * The operator path (what `npm run paygrid -- keys ...` does): commands straight onto the bus, with no
 * merchant actor. Lets e2e suites create and revoke keys of the running stack.
 */
export async function withOperatorBus<T>(work: (bus: CommandBus) => Promise<T>): Promise<T> {
  const bus = new CommandBus(
    {
      clientId: 'e2e-operator',
      brokers: e2eKafkaBrokers(),
      names: new KafkaNames(e2eKafkaPrefix()),
      group: `e2e-operator-${process.pid}-${Date.now()}`,
      timeoutMs: 15_000,
    },
    pino({ level: 'silent' }),
    new Metrics('e2e-operator'),
  );
  await bus.connect();
  try {
    return await work(bus);
  } finally {
    await bus.close();
  }
}

export function createKey(
  bus: CommandBus,
  accountId: string,
  options: { ip_allowlist?: string[]; permissions?: CredentialPermission[] } = {},
): Promise<CreatedCredential> {
  return bus.execute(
    CredentialCommand.create,
    { account_id: accountId, label: 'e2e', ...options },
    { actor: null, commandId: `cmd_e2e_${Date.now()}_${Math.random().toString(36).slice(2)}` },
  );
}

export function revokeKey(bus: CommandBus, keyId: string): Promise<CredentialView> {
  return bus.execute(CredentialCommand.revoke, { key_id: keyId }, { actor: null, commandId: `cmd_e2e_revoke_${keyId}` });
}
