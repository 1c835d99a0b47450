import { Consumer, ConsumerCrashEvent } from 'kafkajs';
import { Logger } from 'pino';

/**
 * Keeps one Kafka consumer consuming across any broker outage, for as long as the process lives.
 *
 * kafkajs restarts a crashed consumer by itself only after a retriable failure. After a non-retriable
 * one it disconnects the consumer for good, and nothing consumes until someone restarts the process
 * (seen after a 20 s outage: "Failed to find group coordinator", then commands answered by nobody).
 * Here the consumer comes from a factory: after a crash kafkajs will not recover from, a fresh consumer
 * is built, connected, subscribed and run again, with capped exponential backoff, until `stop`.
 *
 * The first start fails loudly (the process exits and its supervisor restarts it); every later failure
 * is retried in place. `state` feeds readiness (ConsumerHealth): `running` from the group join until a
 * crash or stop, so a service whose consumer is down says so instead of reporting "up".
 */
export type ConsumerState = 'starting' | 'running' | 'restarting' | 'stopped';

export interface ConsumerBackoff {
  initialMs: number;
  maxMs: number;
}

/** Capped so that a consumer is back within seconds of the broker's return. */
export const DEFAULT_CONSUMER_BACKOFF: ConsumerBackoff = { initialMs: 500, maxMs: 5_000 };

export interface SupervisedConsumerOptions {
  /** Names the consumer in logs, readiness and metrics (`commands`, `command-replies`, ...). */
  name: string;
  /** A new, unconnected consumer: called for the first start and after every crash kafkajs gives up on. */
  create: () => Consumer;
  /** Subscribes and runs the connected consumer (resolves once it joined its group). */
  run: (consumer: Consumer) => Promise<void>;
  logger: Logger;
  backoff?: ConsumerBackoff;
  /** Told about every state change (readiness, metrics). */
  onStateChange?: (consumer: SupervisedConsumer) => void;
}

export class SupervisedConsumer {
  state: ConsumerState = 'starting';
  /** When the consumer last entered its state (Date.now()). */
  since = Date.now();
  /** Why the consumer is not running, while it is not. */
  lastError?: string;
  restarts = 0;
  private current?: Consumer;
  private stopped = false;
  private generation = 0;
  private failures = 0;
  private timer?: NodeJS.Timeout;
  private readonly backoff: ConsumerBackoff;

  constructor(private readonly options: SupervisedConsumerOptions) {
    this.backoff = options.backoff ?? DEFAULT_CONSUMER_BACKOFF;
  }

  get name(): string {
    return this.options.name;
  }

  /** The consumer of the current generation (replaced after a crash). */
  get consumer(): Consumer | undefined {
    return this.current;
  }

  /** The first start: rejects if it fails, so a process that cannot consume at boot exits. */
  async start(): Promise<void> {
    this.stopped = false;
    this.setState('starting');
    await this.launch();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.generation += 1;
    clearTimeout(this.timer);
    this.setState('stopped');
    const consumer = this.current;
    this.current = undefined;
    await consumer?.disconnect().catch(() => undefined);
  }

  private async launch(): Promise<void> {
    const generation = ++this.generation;
    const consumer = this.options.create();
    this.current = consumer;
    this.watch(consumer, generation);
    try {
      await consumer.connect();
      await this.options.run(consumer);
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  private watch(consumer: Consumer, generation: number): void {
    const isCurrent = () => generation === this.generation && !this.stopped;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      if (!isCurrent()) return;
      if (this.state !== 'running' && this.state !== 'starting') {
        this.options.logger.info({ consumer: this.name }, 'kafka consumer is consuming again');
      }
      this.failures = 0;
      this.lastError = undefined;
      this.setState('running');
    });
    consumer.on(consumer.events.CRASH, (event: ConsumerCrashEvent) => {
      if (!isCurrent()) return;
      const { error, restart } = event.payload;
      this.lastError = error.message;
      this.setState('restarting');
      if (restart) {
        this.options.logger.warn(
          { consumer: this.name, err: error },
          'kafka consumer crashed; kafkajs restarts it',
        );
        return;
      }
      this.options.logger.error(
        { consumer: this.name, err: error },
        'kafka consumer crashed for good; starting a new one',
      );
      this.scheduleRelaunch();
    });
  }

  private scheduleRelaunch(): void {
    const delayMs = Math.min(this.backoff.initialMs * 2 ** this.failures, this.backoff.maxMs);
    this.failures += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.relaunch(), delayMs);
  }

  private async relaunch(): Promise<void> {
    if (this.stopped) return;
    await this.current?.disconnect().catch(() => undefined);
    if (this.stopped) return;
    this.restarts += 1;
    try {
      await this.launch();
    } catch (error) {
      if (this.stopped) return;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.setState('restarting');
      this.options.logger.warn(
        { consumer: this.name, err: error, failures: this.failures },
        'kafka consumer could not start; will retry',
      );
      this.scheduleRelaunch();
    }
  }

  private setState(state: ConsumerState): void {
    if (state !== this.state) this.since = Date.now();
    this.state = state;
    this.options.onStateChange?.(this);
  }
}
