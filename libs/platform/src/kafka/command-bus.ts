import { randomUUID } from 'node:crypto';
import { ClientKafka } from '@nestjs/microservices';
import { lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { Logger } from 'pino';
import {
  Actor,
  CommandEnvelope,
  CommandDefinition,
  CommandFamily,
  CommandReply,
  CommandTopics,
  PayloadOf,
  ResultOf,
} from '@paygrid/contracts';
import { ApiError, Errors } from '../errors/api-error';
import { currentCorrelationId, CORRELATION_HEADER } from '../logging/correlation';
import { Metrics } from '../metrics/metrics';
import { nestKafkaOptions } from './kafka-factory';
import { KafkaNames } from './kafka-names';

/**
 * The sending side of request/reply over Kafka (Nest's ClientKafka). Every command waits for its
 * reply at most `timeoutMs`; no reply in time answers `api_error`, which is safe to retry with the
 * same idempotency key because the retry carries the same command_id.
 */
export interface SendOptions {
  actor: Actor | null;
  commandId?: string | null;
  timeoutMs?: number;
  /**
   * Kafka message key. By default every command gets its own (spread over the partitions, so one busy
   * merchant is served by every service instance in parallel): a client waits for each reply, and
   * aggregates guard concurrent writes with conditional updates, so nothing relies on bus order.
   */
  key?: string;
  /** Defaults to the correlation scope of the caller. */
  correlationId?: string;
}

export interface CommandBusOptions {
  clientId: string;
  brokers: string[];
  /** The stack whose services this bus addresses (its command topics and its reply group). */
  names: KafkaNames;
  /** The reply consumer group within the stack, e.g. `gateway` (Nest appends `-client`). */
  group: string;
  timeoutMs: number;
}

export class CommandBus {
  private readonly client: ClientKafka;
  private connected = false;

  constructor(
    private readonly options: CommandBusOptions,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {
    const nest = nestKafkaOptions(options.clientId, options.brokers, options.names.group(options.group), logger);
    this.client = new ClientKafka(nest.options ?? {});
  }

  async connect(): Promise<void> {
    if (this.connected) return;
    for (const family of Object.keys(CommandTopics) as CommandFamily[]) {
      this.client.subscribeToResponseOf(this.options.names.commandTopic(family));
    }
    await this.client.connect();
    this.connected = true;
  }

  async close(): Promise<void> {
    if (!this.connected) return;
    this.connected = false;
    await this.client.close();
  }

  /**
   * Sends a declared command and resolves with its declared result; a refusal rejects with its
   * ApiError. Payload and result are type-checked against the command's definition in libs/contracts.
   */
  execute<C extends CommandDefinition>(definition: C, payload: PayloadOf<C>, options: SendOptions): Promise<ResultOf<C>> {
    return this.send<ResultOf<C>>(definition.family, definition.type, payload, options);
  }

  /** The raw reply of a declared command (for callers that relay a refusal as it is). */
  requestReply<C extends CommandDefinition>(definition: C, payload: PayloadOf<C>, options: SendOptions): Promise<CommandReply<ResultOf<C>>> {
    return this.request<ResultOf<C>>(definition.family, definition.type, payload, options);
  }

  /** @deprecated untyped: use `execute(definition, ...)`. Removed once every caller declares its command. */
  async send<R>(family: CommandFamily, type: string, payload: unknown, options: SendOptions): Promise<R> {
    const reply = await this.request<R>(family, type, payload, options);
    if (reply.ok) return reply.result;
    throw ApiError.from({ status: reply.error.status, body: reply.error.body as never, headers: reply.error.headers });
  }

  /** Sends and returns the raw reply (for callers that relay a refusal as it is). */
  async request<R>(family: CommandFamily, type: string, payload: unknown, options: SendOptions): Promise<CommandReply<R>> {
    const envelope: CommandEnvelope = {
      type,
      command_id: options.commandId ?? null,
      actor: options.actor,
      payload,
      sent_at: new Date().toISOString(),
    };
    const correlationId = options.correlationId ?? currentCorrelationId();
    const message = {
      key: options.key ?? options.commandId ?? randomUUID(),
      value: envelope,
      headers: correlationId ? { [CORRELATION_HEADER]: correlationId } : {},
    };
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      const reply = await lastValueFrom(
        this.client
          .send<CommandReply<R>>(this.options.names.commandTopic(family), message)
          .pipe(timeout(options.timeoutMs ?? this.options.timeoutMs)),
      );
      if (!reply.ok) outcome = 'refused';
      return reply;
    } catch (error) {
      outcome = error instanceof TimeoutError ? 'timeout' : 'failed';
      this.logger.warn({ err: error, command_type: type, outcome }, 'command got no reply');
      throw Errors.serviceUnavailable(type);
    } finally {
      this.metrics.commandRequests.observe({ type, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }
}
