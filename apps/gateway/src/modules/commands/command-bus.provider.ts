import { Inject, Injectable, OnApplicationShutdown, OnModuleInit, Provider } from '@nestjs/common';
import { Logger } from 'pino';
import { APP_CONFIG, CommandBus, KafkaNames, LOGGER, Metrics } from '@paygrid/platform';
import { GatewayConfig } from '../../config';

/** The gateway's one CommandBus, connected before the HTTP server accepts requests. */
export const COMMAND_BUS = Symbol('COMMAND_BUS');

@Injectable()
export class CommandBusLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(COMMAND_BUS) private readonly bus: CommandBus) {}
  onModuleInit(): Promise<void> {
    return this.bus.connect();
  }
  onApplicationShutdown(): Promise<void> {
    return this.bus.close();
  }
}

export const commandBusProviders: Provider[] = [
  {
    provide: COMMAND_BUS,
    inject: [APP_CONFIG, KafkaNames, LOGGER, Metrics],
    useFactory: (config: GatewayConfig, names: KafkaNames, logger: Logger, metrics: Metrics) =>
      new CommandBus(
        {
          clientId: 'gateway',
          brokers: config.KAFKA_BROKERS,
          names,
          group: 'gateway',
          timeoutMs: config.COMMAND_TIMEOUT_MS,
        },
        logger,
        metrics,
      ),
  },
  CommandBusLifecycle,
];
