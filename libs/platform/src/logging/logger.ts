import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { currentCorrelationId } from './correlation';
import { traceLogFields } from '../tracing/log-fields';
import { scrubText, scrubValue } from './redaction';

/**
 * JSON logs with pino: one line per event, the app name, the correlation id and, inside a span, the
 * trace and span ids (tracing/log-fields.ts) on every line, and every object and message passed
 * through the card-data scrubber before it is written. `destination` is a test seam (default stdout).
 */
export function createLogger(
  app: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { app },
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const correlationId = currentCorrelationId();
      const trace = traceLogFields();
      return correlationId ? { correlation_id: correlationId, ...trace } : trace;
    },
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => scrubValue(object) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg));
        return method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Lets Nest's own messages (module init, route mapping, errors) go through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
