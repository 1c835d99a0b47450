import { CommandFamily } from './topics';

/**
 * The request/reply contract between the gateway and the services.
 *
 * The gateway authenticates, validates and resolves who is acting before it sends; services trust the
 * `actor` it sends. `command_id` (derived from the acting account and the idempotency key) lets a
 * service apply a mutating command at most once and answer a repeat with the stored reply.
 */
export interface Actor {
  /** The account the request acts as: the caller's own, or the `x-on-behalf-of` sub-account. */
  account_id: string;
  /** The master account of the acting account (equal to account_id for a master). */
  master_account_id: string;
  /** The account whose credentials authenticated the request. */
  caller_account_id: string;
  client_id: string;
  permissions: string[];
}

export interface CommandEnvelope<P = unknown> {
  type: string;
  command_id: string | null;
  actor: Actor | null;
  payload: P;
  sent_at: string;
}

export interface ReplyError {
  status: number;
  body: { type?: string; code: string | number; message: string; [extra: string]: unknown };
  headers?: Record<string, string>;
}

export type CommandReply<R = unknown> = { ok: true; result: R } | { ok: false; error: ReplyError };

/** Every service answers this so the gateway's health can tell the bus path is alive end to end. */
export const PING_COMMAND = 'system.ping';
export interface PingResult {
  service: string;
  time: string;
}

export class CommandFormatError extends Error {}

export function parseCommandEnvelope(raw: unknown): CommandEnvelope {
  if (typeof raw !== 'object' || raw === null) throw new CommandFormatError('command is not an object');
  const candidate = raw as Record<string, unknown>;
  if (typeof candidate.type !== 'string' || candidate.type.length === 0) {
    throw new CommandFormatError('command type must be a non-empty string');
  }
  if (candidate.command_id !== null && typeof candidate.command_id !== 'string') {
    throw new CommandFormatError('command_id must be a string or null');
  }
  if (candidate.actor !== null && (typeof candidate.actor !== 'object' || candidate.actor === undefined)) {
    throw new CommandFormatError('actor must be an object or null');
  }
  return candidate as unknown as CommandEnvelope;
}

/** Which service family owns a command type, from its prefix (`accounts.list` → accounts). */
export type CommandType = `${CommandFamily}.${string}` | typeof PING_COMMAND;
