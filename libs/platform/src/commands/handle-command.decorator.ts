import { SetMetadata } from '@nestjs/common';
import { CommandDefinition } from '@paygrid/contracts';
import { CommandContext, StagedContext, WriteContext } from './command-context';

/**
 * The one way a service answers a command: `@HandleCommand(AcquiringCommand.createIntent)` on a
 * provider method. The pipeline (CommandDispatcher) validates the payload against the definition's
 * class (a 400 naming each broken field, before any database work), then:
 * - a query (`mutates: false`) runs as is, with a CommandContext;
 * - a mutating command runs inside one transaction with the command ledger (applied at most once per
 *   command_id, its reply or refusal stored, after-commit hooks run once it commits), with a WriteContext;
 * - a mutating command marked `{ staged: true }` (it calls out of process between two writes) runs after
 *   the pipeline has checked for a stored reply, with a StagedContext whose `complete` is the ledger step;
 *   with `findsStoredReply: true` as well, the pipeline skips that standalone read (one statement and one
 *   commit per command): the handler promises to find a completed command's stored reply itself, in its
 *   first transaction, before it writes or calls out anything a repeat must not (typically when its first
 *   insert hits a unique key on the command id), and to answer it with `resultOrThrow`.
 * The method's signature is checked against the definition: its payload class and result type.
 */
export const COMMAND_HANDLER = 'paygrid:command-handler';

export interface CommandHandlerMetadata {
  definition: CommandDefinition;
  staged: boolean;
  /** A staged handler that reads its command's stored reply itself (see above). */
  findsStoredReply?: boolean;
}

type ContextOf<M extends boolean, S extends boolean> = M extends false
  ? CommandContext
  : S extends true
    ? StagedContext
    : WriteContext;

type HandlerMethod<P, R, Ctx> = (payload: P, context: Ctx) => Promise<R> | R;

export function HandleCommand<P extends object, R, M extends boolean, S extends boolean = false>(
  definition: CommandDefinition<P, R, M>,
  options?: { staged: S; findsStoredReply?: S },
) {
  const staged = options?.staged === true;
  if (staged && !definition.mutates) throw new Error(`query ${definition.type} cannot be staged`);
  const mark = SetMetadata<string, CommandHandlerMetadata>(COMMAND_HANDLER, {
    definition: definition as unknown as CommandDefinition,
    staged,
    findsStoredReply: staged && options?.findsStoredReply === true,
  });
  return (
    target: object,
    key: string | symbol,
    // Only `value` is named (not TypedPropertyDescriptor, whose setter would make the check invariant),
    // so a method taking fewer arguments, or a wider payload type, still fits.
    descriptor: { value?: HandlerMethod<P, R, ContextOf<M, S>> },
  ): void => {
    mark(target, key, descriptor as PropertyDescriptor);
  };
}
