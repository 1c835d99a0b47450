import { Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { KafkaContext } from '@nestjs/microservices';
import { DataSource, EntityManager } from 'typeorm';
import { Logger } from 'pino';
import { CommandEnvelope, CommandReply, parseCommandEnvelope, PING_COMMAND } from '@paygrid/contracts';
import { ApiError, Errors } from '../errors/api-error';
import { runWithCorrelation, CORRELATION_HEADER } from '../logging/correlation';
import { runCommandOnce } from '../commands/command-ledger';
import { headerText } from './kafka-factory';
import { COMMAND_HANDLER, CommandHandlerMetadata } from './command-handler.decorator';
import { APP_NAME, LOGGER } from '../nest/tokens';
import { Metrics } from '../metrics/metrics';

type Handler = (command: CommandEnvelope, manager?: EntityManager) => Promise<unknown>;

/**
 * When nobody can be waiting for a command any more. Far beyond any sender's reply timeout, so clock
 * skew cannot drop a live command; a new consumer group reads its topic from the start (see
 * kafka-factory.ts), and what it finds from before this process started (less a grace for commands
 * queued during a quick restart) is history, not work.
 */
export const COMMAND_MAX_AGE_MS = 60_000;
export const RESTART_GRACE_MS = 15_000;
const PROCESS_STARTED_AT = Date.now();

function isStale(command: CommandEnvelope): boolean {
  const sentAt = Date.parse(command.sent_at);
  if (!Number.isFinite(sentAt)) return false;
  return Date.now() - sentAt > COMMAND_MAX_AGE_MS || sentAt < PROCESS_STARTED_AT - RESTART_GRACE_MS;
}

/**
 * Routes each command arriving on the service's command topic to its `@CommandHandler` method and
 * always answers with a CommandReply: a handler's domain refusal (ApiError) becomes `{ok: false}` with
 * its envelope; any other failure is logged here and answered as a generic api_error, so no internal
 * message crosses the bus.
 */
@Injectable()
export class CommandDispatcher implements OnApplicationBootstrap {
  private readonly handlers = new Map<string, { handle: Handler; mutates: boolean }>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_NAME) private readonly app: string,
    private readonly metrics: Metrics,
    @Optional() private readonly dataSource?: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance);
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const method = instance[methodName];
        if (typeof method !== 'function') continue;
        const meta = this.reflector.get<CommandHandlerMetadata | undefined>(COMMAND_HANDLER, method);
        if (!meta) continue;
        if (this.handlers.has(meta.type)) throw new Error(`two handlers claim command ${meta.type}`);
        if (meta.mutates && !this.dataSource) throw new Error(`command ${meta.type} mutates but the app has no database`);
        this.handlers.set(meta.type, { handle: method.bind(instance) as Handler, mutates: meta.mutates ?? false });
      }
    }
  }

  handledTypes(): string[] {
    return [...this.handlers.keys()].sort();
  }

  async dispatch(raw: unknown, context?: KafkaContext): Promise<CommandReply> {
    const headers = context?.getMessage().headers as Record<string, unknown> | undefined;
    return runWithCorrelation(headerText(headers, CORRELATION_HEADER), () => this.dispatchInScope(raw));
  }

  private async dispatchInScope(raw: unknown): Promise<CommandReply> {
    const started = process.hrtime.bigint();
    let type = 'unknown';
    let reply: CommandReply;
    try {
      const command = parseCommandEnvelope(raw);
      type = command.type;
      reply = await this.execute(command);
    } catch (error) {
      reply = this.refusal(error, type);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const outcome = reply.ok ? 'ok' : 'refused';
    this.metrics.commandDuration.observe({ type, outcome }, seconds);
    if (type !== PING_COMMAND) {
      this.logger.info({ command_type: type, outcome, duration_ms: Math.round(seconds * 1000) }, 'command handled');
    }
    return reply;
  }

  private async execute(command: CommandEnvelope): Promise<CommandReply> {
    if (isStale(command)) {
      // Nobody waits for this reply any more (the sender timed out long ago, and a new consumer group
      // reads topics from the start): applying it now would surprise a client that was told to retry.
      this.logger.warn({ command_type: command.type, sent_at: command.sent_at }, 'dropping stale command');
      throw Errors.serviceUnavailable(command.type);
    }
    if (command.type === PING_COMMAND) {
      return { ok: true, result: { service: this.app, time: new Date().toISOString() } };
    }
    const handler = this.handlers.get(command.type);
    if (!handler) throw Errors.operationNotAvailable(command.type);
    if (handler.mutates && this.dataSource) {
      return runCommandOnce(this.dataSource, command.command_id, command.type, (manager) =>
        handler.handle(command, manager),
      );
    }
    return { ok: true, result: await handler.handle(command) };
  }

  private refusal(error: unknown, type: string): CommandReply {
    if (error instanceof ApiError) return { ok: false, error: error.serialize() };
    this.logger.error({ err: error, command_type: type }, 'command failed');
    return { ok: false, error: Errors.internal().serialize() };
  }
}
