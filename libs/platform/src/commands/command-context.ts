import { Actor } from '@paygrid/contracts';
import { Executor } from '../database/data-source';
import { OneStatement } from '../database/one-statement';
import { TransactionContext } from '../database/transaction-context';
import { Errors } from '../errors/api-error';

/**
 * What a command handler is told besides its validated payload: who asked (the gateway's actor, or
 * null for the operators' CLI and the hosted pages) and which command this is. A writing handler also
 * gets the open transaction its effect and the command-ledger row commit in; a staged handler gets the
 * two steps it may take instead (see HandleCommand).
 */
export class CommandContext {
  constructor(
    readonly type: string,
    readonly commandId: string | null,
    readonly actor: Actor | null,
  ) {}

  /** The acting merchant account; a command that needs one and has none is refused, never guessed. */
  requireActor(): Actor {
    const actor = this.actor;
    if (actor === null || typeof actor !== 'object' || typeof actor.account_id !== 'string' || actor.account_id === '') {
      throw Errors.invalidRequest(`${this.type} needs an acting account (actor)`);
    }
    return actor;
  }

  /** The account a command is scoped to: the actor's, or null for an operator (every account). */
  accountScope(): string | null {
    return this.actor === null ? null : this.requireActor().account_id;
  }
}

/** A mutating command's handler runs inside the transaction its ledger row commits in. */
export class WriteContext extends CommandContext {
  constructor(
    type: string,
    commandId: string | null,
    actor: Actor | null,
    readonly tx: TransactionContext,
  ) {
    super(type, commandId, actor);
  }
}

/**
 * A staged handler calls something outside the database between two transactions (the card processor),
 * medusa-style: `transaction` records what a retry of the same command can resume, the outside call
 * happens with no transaction open, and `complete` applies the answer under the command ledger. When
 * that first record is one statement, `statement` writes it, with its events, without BEGIN and COMMIT
 * (database/one-statement.ts); its events wake the relay as `transaction`'s do.
 */
export class StagedContext extends CommandContext {
  constructor(
    type: string,
    commandId: string | null,
    actor: Actor | null,
    readonly transaction: <R>(work: (tx: TransactionContext) => Promise<R>) => Promise<R>,
    readonly complete: <R>(work: (tx: TransactionContext) => Promise<R>) => Promise<{ result: R; applied: boolean }>,
    readonly statement: (build: (events: Executor) => Promise<OneStatement>) => Promise<unknown>,
  ) {
    super(type, commandId, actor);
  }
}
