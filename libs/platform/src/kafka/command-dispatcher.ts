import { Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { KafkaContext } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { CommandEnvelope, CommandReply, parseCommandEnvelope, PING_COMMAND, validatePayload } from '@paygrid/contracts';
import { ApiError, Errors } from '../errors/api-error';
import { runWithCorrelation, CORRELATION_HEADER } from '../logging/correlation';
import { applyCommandOnce, ErrorMapper, storedCommandReply } from '../commands/command-ledger';
import { CommandContext, StagedContext, WriteContext } from '../commands/command-context';
import { COMMAND_HANDLER as TYPED_HANDLER, CommandHandlerMetadata } from '../commands/handle-command.decorator';
import { runInTransaction } from '../database/transaction-context';
import { runAsOneStatement } from '../database/one-statement';
import { headerText } from './kafka-factory';
import { APP_NAME, COMMAND_ERROR_MAPPER, LOGGER } from '../nest/tokens';
import { Metrics } from '../metrics/metrics';

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

type Route = (command: CommandEnvelope) => Promise<CommandReply>;

/**
 * The command pipeline of a service. Routes each command arriving on its command topic to the one
 * `@HandleCommand` method for its type (two claiming one type fail the boot), validates the payload
 * against the command's declared class, applies mutating commands through the command ledger, and
 * always answers with a CommandReply: a domain refusal (ApiError) becomes `{ok: false}` with its
 * envelope; any other failure is logged here and answered as a generic api_error, so no internal
 * message crosses the bus.
 */
@Injectable()
export class CommandDispatcher implements OnApplicationBootstrap {
  private readonly routes = new Map<string, Route>();
  private readonly mapError: ErrorMapper;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_NAME) private readonly app: string,
    private readonly metrics: Metrics,
    @Optional() private readonly dataSource?: DataSource,
    @Optional() @Inject(COMMAND_ERROR_MAPPER) mapError?: ErrorMapper,
  ) {
    this.mapError = mapError ?? ((error) => error);
  }

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance);
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const method = instance[methodName];
        if (typeof method !== 'function') continue;
        const typed = this.reflector.get<CommandHandlerMetadata | undefined>(TYPED_HANDLER, method);
        if (typed) this.register(typed.definition.type, this.typedRoute(typed, method.bind(instance)));
      }
    }
  }

  handledTypes(): string[] {
    return [...this.routes.keys()].sort();
  }

  async dispatch(raw: unknown, context?: KafkaContext): Promise<CommandReply> {
    const headers = context?.getMessage().headers as Record<string, unknown> | undefined;
    return runWithCorrelation(headerText(headers, CORRELATION_HEADER), () => this.dispatchInScope(raw));
  }

  private register(type: string, route: Route): void {
    if (this.routes.has(type)) throw new Error(`two handlers claim command ${type}`);
    this.routes.set(type, route);
  }

  private requireDatabase(type: string): DataSource {
    if (!this.dataSource) throw new Error(`command ${type} mutates but the app has no database`);
    return this.dataSource;
  }

  private typedRoute(meta: CommandHandlerMetadata, handle: (payload: object, context: CommandContext) => unknown): Route {
    const { definition, staged, findsStoredReply } = meta;
    const dataSource = definition.mutates ? this.requireDatabase(definition.type) : undefined;
    return async (command) => {
      const validated = validatePayload(definition.payload, command.payload ?? {});
      if (!validated.ok) throw Errors.invalidRequest(validated.problems.join('; '));
      const payload = validated.value;
      const base = new CommandContext(command.type, command.command_id, command.actor);
      if (definition.needsActor) base.requireActor();
      if (!dataSource) return { ok: true, result: await handle(payload, base) };
      if (!staged) {
        const outcome = await applyCommandOnce(
          dataSource,
          this.logger,
          command,
          async (tx) => handle(payload, new WriteContext(command.type, command.command_id, command.actor, tx)),
          this.mapError,
        );
        return outcome.reply;
      }
      if (!findsStoredReply) {
        const stored = await storedCommandReply(dataSource, command.command_id);
        if (stored) return stored;
      }
      const context = new StagedContext(
        command.type,
        command.command_id,
        command.actor,
        // The first transaction's events wait for the final commit's wake-up (outbox-writer.ts): the relay
        // then publishes the command's events as one batch instead of waking in the middle of it.
        (work) =>
          runInTransaction(
            dataSource,
            this.logger,
            async (tx) => {
              try {
                return await work(tx);
              } catch (error) {
                throw this.mapError(error);
              }
            },
            { outbox: { deferWake: true } },
          ),
        async (work) => {
          const outcome = await applyCommandOnce(dataSource, this.logger, command, work, this.mapError);
          if (!outcome.reply.ok) throw ApiError.from(outcome.reply.error as never);
          return { result: outcome.reply.result, applied: outcome.applied };
        },
        async (build) => {
          try {
            return await runAsOneStatement(dataSource, build, { deferWake: true });
          } catch (error) {
            throw this.mapError(error);
          }
        },
      );
      return { ok: true, result: await handle(payload, context) };
    };
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
    // An applied command is a debug line (hot path); a refusal is worth an info line to on-call.
    if (type !== PING_COMMAND) {
      const level = reply.ok ? 'debug' : 'info';
      this.logger[level]({ command_type: type, outcome, duration_ms: Math.round(seconds * 1000) }, 'command handled');
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
    const route = this.routes.get(command.type);
    if (!route) throw Errors.operationNotAvailable(command.type);
    return route(command);
  }

  private refusal(error: unknown, type: string): CommandReply {
    const mapped = this.mapError(error);
    if (mapped instanceof ApiError) return { ok: false, error: mapped.serialize() };
    this.logger.error({ err: error, command_type: type }, 'command failed');
    return { ok: false, error: Errors.internal().serialize() };
  }
}
