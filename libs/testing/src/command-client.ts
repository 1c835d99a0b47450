import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { Actor, CommandFamily, CommandReply, PING_COMMAND } from '@paygrid/contracts';
import { CommandBus, KafkaNames, Metrics } from '@paygrid/platform';
import { testBrokers } from './env';
import { waitFor } from './wait-for';

/**
 * Sends commands to the services of one test stack and returns their raw replies, over the platform's
 * own CommandBus (the gateway's transport) with a reply group of its own.
 */
export interface TestSendOptions {
  actor: Actor | null;
  commandId?: string | null;
  timeoutMs?: number;
}

export class TestCommandClient {
  private constructor(readonly bus: CommandBus) {}

  static async connect(names: KafkaNames): Promise<TestCommandClient> {
    const bus = new CommandBus(
      {
        clientId: 'paygrid-test',
        brokers: testBrokers(),
        names,
        group: `test-client-${randomBytes(3).toString('hex')}`,
        timeoutMs: 15_000,
      },
      pino({ level: 'silent' }),
      new Metrics('paygrid-test'),
    );
    await bus.connect();
    return new TestCommandClient(bus);
  }

  send<R = unknown>(
    family: CommandFamily,
    type: string,
    payload: unknown,
    options: TestSendOptions,
  ): Promise<CommandReply<R>> {
    return this.bus.request<R>(family, type, payload, { ...options, commandId: options.commandId ?? null });
  }

  /** A mutating command with a fresh command id, as the gateway sends one for a new idempotency key. */
  mutate<R = unknown>(
    family: CommandFamily,
    type: string,
    payload: unknown,
    options: { actor: Actor | null },
  ): Promise<CommandReply<R>> {
    return this.send<R>(family, type, payload, { ...options, commandId: `cmd_${randomUUID()}` });
  }

  /** Resolves once the family's service answers a ping (its consumer has joined and fetches). */
  async ready(family: CommandFamily, timeoutMs = 60_000): Promise<void> {
    await waitFor(
      async () => {
        const reply = await this.send(family, PING_COMMAND, {}, { actor: null, timeoutMs: 2000 }).catch(
          () => undefined,
        );
        return reply?.ok === true;
      },
      { timeoutMs, what: `the ${family} service to answer a ping` },
    );
  }

  close(): Promise<void> {
    return this.bus.close();
  }
}
