import { Counter, Gauge } from 'prom-client';
import { Logger } from 'pino';
import { Metrics } from '../metrics/metrics';
import { SupervisedConsumer, SupervisedConsumerOptions } from '../kafka/supervised-consumer';

/**
 * What readiness knows about an app's Kafka consumers: every consumer of the app (its command consumer,
 * the gateway's reply consumer, event subscribers) is supervised through here, and the `consumers`
 * check is down while any of them is not consuming. So `/health/ready` (and through the gateway's pings,
 * `/api/health`) says "down" for exactly as long as a service would not answer, and "up" again once it
 * would. An EventSubscriber on the app's Kafka client reports here without being told (`ConsumerHealth.of`).
 * Also exported as metrics: `paygrid_kafka_consumer_running{consumer}` and
 * `paygrid_kafka_consumer_restarts_total{consumer}`.
 */
export class ConsumerHealth {
  /** The app's registry by its Kafka client, so any consumer built on the app's client reports here. */
  private static readonly byClient = new WeakMap<object, ConsumerHealth>();

  static attach(kafka: object, health: ConsumerHealth): ConsumerHealth {
    ConsumerHealth.byClient.set(kafka, health);
    return health;
  }

  /** The registry of the app that owns this Kafka client (PlatformModule attaches it), if any. */
  static of(kafka: object): ConsumerHealth | undefined {
    return ConsumerHealth.byClient.get(kafka);
  }

  private readonly consumers = new Set<SupervisedConsumer>();
  private readonly running?: Gauge<'consumer'>;
  private readonly restarts?: Counter<'consumer'>;
  private readonly restartsSeen = new Map<SupervisedConsumer, number>();

  constructor(
    private readonly logger: Logger,
    metrics?: Metrics,
  ) {
    if (!metrics) return;
    const registers = [metrics.registry];
    this.running = new Gauge({
      name: 'paygrid_kafka_consumer_running',
      help: '1 while the consumer is in its group and consuming, 0 while it is starting or restarting',
      labelNames: ['consumer'],
      registers,
    });
    this.restarts = new Counter({
      name: 'paygrid_kafka_consumer_restarts_total',
      help: 'Fresh consumers started after a crash kafkajs did not recover from',
      labelNames: ['consumer'],
      registers,
    });
  }

  /** A supervised consumer that reports here (call `start()` on it). */
  supervise(
    options: Omit<SupervisedConsumerOptions, 'logger' | 'onStateChange'> & { logger?: Logger },
  ): SupervisedConsumer {
    const consumer = new SupervisedConsumer({
      ...options,
      logger: options.logger ?? this.logger,
      onStateChange: (changed) => this.observe(changed),
    });
    this.consumers.add(consumer);
    return consumer;
  }

  /** Names of the consumers that are not consuming, with why. */
  notRunning(): string[] {
    return [...this.consumers]
      .filter((consumer) => consumer.state !== 'running' && consumer.state !== 'stopped')
      .map(
        (consumer) =>
          `${consumer.name} ${consumer.state}${consumer.lastError ? ` (${consumer.lastError})` : ''}`,
      );
  }

  /** Consumers that have not been consuming for longer than `ms` (restarts included). */
  downLongerThan(ms: number): string[] {
    const now = Date.now();
    return [...this.consumers]
      .filter(
        (consumer) =>
          consumer.state !== 'running' && consumer.state !== 'stopped' && now - consumer.since > ms,
      )
      .map((consumer) => consumer.name);
  }

  /** The readiness check: rejects while any consumer is not consuming. */
  async check(): Promise<{ consumers: number }> {
    const down = this.notRunning();
    if (down.length > 0) throw new Error(`not consuming: ${down.join('; ')}`);
    return { consumers: this.consumers.size };
  }

  private observe(consumer: SupervisedConsumer): void {
    if (consumer.state === 'stopped') {
      this.consumers.delete(consumer);
      this.restartsSeen.delete(consumer);
    }
    this.running?.set({ consumer: consumer.name }, consumer.state === 'running' ? 1 : 0);
    const seen = this.restartsSeen.get(consumer) ?? 0;
    if (consumer.restarts > seen) {
      this.restarts?.inc({ consumer: consumer.name }, consumer.restarts - seen);
      this.restartsSeen.set(consumer, consumer.restarts);
    }
  }
}
