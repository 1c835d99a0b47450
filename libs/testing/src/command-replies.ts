import { randomUUID } from 'node:crypto';
import { Actor, CommandReply } from '@paygrid/contracts';

/** Helpers for asserting on services' command replies in integration tests. */
export function actorOf(accountId: string = randomUUID(), masterId: string = accountId): Actor {
  return { account_id: accountId, master_account_id: masterId, caller_account_id: accountId, client_id: 'cli_it', permissions: [] };
}

/** The result of a reply that must have succeeded. */
export function resultOf<R>(reply: CommandReply<R>): R {
  if (!reply.ok) throw new Error(`command refused: ${reply.error.status} ${JSON.stringify(reply.error.body)}`);
  return reply.result;
}

/** The status and body of a reply that must have been a refusal. */
export function refusalOf(reply: CommandReply<unknown>): { status: number; body: Record<string, unknown> } {
  if (reply.ok) throw new Error(`command unexpectedly succeeded: ${JSON.stringify(reply.result)}`);
  return { status: reply.error.status, body: reply.error.body };
}
