import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'pino';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppName } from '../config/app-catalog';
import { createLogger, PinoNestLogger } from '../logging/logger';
import { bindHttpCorrelation } from '../logging/fastify-correlation';
import { bindHttpTracing } from '../tracing/http-server-spans';
import { flushTracing, installTracing } from '../tracing/tracer';
import { TracingConfig } from '../tracing/tracing-config';
import { nestKafkaOptions } from '../kafka/kafka-factory';
import { kafkaNamesOf } from '../kafka/kafka-names';
import { ResilientServerKafka } from '../kafka/resilient-kafka-transport';
import { ConsumerHealth } from '../health/consumer-health';
import { BODY_LIMIT_BYTES } from '../http/error-mapping';
import { answerClientError, HttpErrorFilter, installJsonBodyParser, routerRefusal, sendApiError } from '../http/http-errors';
import { Metrics } from '../metrics/metrics';
import { HttpDrain } from '../http/http-drain';
import { installProcessGuard } from './process-guard';
import { stopOnSignals } from './graceful-shutdown';
import { LOGGER } from '../nest/tokens';
import { memoizeValidationMetadata } from '@paygrid/contracts';

/**
 * Boots one app: Nest on Fastify (1 MiB body limit), the spec's error envelopes for every failure,
 * tracing (installed first, one span per HTTP request), HTTP metrics, the Kafka command consumer for
 * services (supervised: it survives broker outages), a graceful shutdown on SIGTERM/SIGINT that drains
 * requests in flight (graceful-shutdown.ts), a last-resort handler for anything unhandled
 * (process-guard.ts), and a clear message instead of a stack when the port
 * is taken.
 */
export interface StartOptions {
  app: AppName;
  module: Type<unknown> | DynamicModule;
  config: { PORT: number; HOST: string; KAFKA_BROKERS: string[]; LOG_LEVEL: string; KAFKA_PREFIX: string } &
    TracingConfig;
  /** Services consume their command topic; the gateway does not. */
  consumesCommands: boolean;
  /** Extra HTTP setup (routes outside Nest, global prefix, docs). */
  configure?: (app: NestFastifyApplication, logger: Logger) => void | Promise<void>;
}

export async function createHttpApp(options: StartOptions): Promise<NestFastifyApplication> {
  const bootLogger = createLogger(options.app, options.config.LOG_LEVEL);
  installTracing(options.app, options.config, bootLogger);
  // Every body, query and command payload is validated with class-validator: its per-class rule lookup
  // is kept instead of recomputed per object (metadata-memo.ts).
  memoizeValidationMetadata();
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: true,
    // Closing answers come from HttpDrain, in the API's envelope (not Fastify's own body).
    return503OnClosing: false,
    // Ids are at most 36 characters; anything far longer is refused in the router, in our envelope.
    maxParamLength: 200,
    frameworkErrors: (error: { code?: string }, _request: FastifyRequest, reply: FastifyReply) =>
      sendApiError(reply, routerRefusal(error)),
    clientErrorHandler: answerClientError,
  });
  const app = await NestFactory.create<NestFastifyApplication>(options.module, adapter, {
    logger: new PinoNestLogger(bootLogger),
    abortOnError: false,
    // Our own JSON parser (installJsonBodyParser) replaces Nest's: SDK-style empty bodies, envelope B errors.
    bodyParser: false,
  });
  const logger = app.get<Logger>(LOGGER);
  const fastify = app.getHttpAdapter().getInstance();
  app.get(HttpDrain).install(fastify);
  bindHttpCorrelation(fastify);
  bindHttpTracing(fastify);
  fastify.addHook('onClose', () => flushTracing());
  installJsonBodyParser(fastify);
  app.useGlobalFilters(app.get(HttpErrorFilter));
  const metrics = app.get(Metrics);
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    // One access-log line per API request (probes and scrapes stay out of the way at debug).
    const level = route.startsWith('/health') || route === '/metrics' ? 'debug' : 'info';
    logger[level](
      { method: request.method, route, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime) },
      'request completed',
    );
  });
  await options.configure?.(app, logger);
  if (options.consumesCommands) {
    const groupId = kafkaNamesOf(options.config).group(options.app);
    const kafka = nestKafkaOptions(options.app, options.config.KAFKA_BROKERS, groupId, logger);
    app.connectMicroservice({ strategy: new ResilientServerKafka(kafka.options ?? {}, logger, app.get(ConsumerHealth)) });
  }
  return app;
}

export async function startApp(options: StartOptions): Promise<INestApplication> {
  const logger = createLogger(options.app, options.config.LOG_LEVEL);
  installProcessGuard(logger);
  try {
    const app = await createHttpApp(options);
    stopOnSignals(app, app.get(HttpDrain), logger);
    // init first: handlers are registered and the outbox relay runs before the first command arrives.
    await app.init();
    await app.startAllMicroservices();
    await app.listen(options.config.PORT, options.config.HOST);
    logger.info({ port: options.config.PORT, host: options.config.HOST }, `${options.app} listening`);
    return app;
  } catch (error) {
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      logger.fatal(
        `port ${options.config.PORT} is already in use: is another Paygrid ${options.app} running? Stop it or set PORT.`,
      );
    } else {
      logger.fatal({ err: error }, `${options.app} failed to start`);
      process.stderr.write(`${options.app} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exit(1);
  }
}
