import { SetMetadata } from '@nestjs/common';

/**
 * Marks a provider method as the handler of one command type. Discovered at boot by the
 * CommandDispatcher, which refuses to start when two methods claim the same type.
 *
 * `mutates: true` runs the handler inside a transaction guarded by the command ledger, so a repeated
 * command_id returns the stored reply instead of applying twice; the handler receives that
 * transaction's EntityManager as its second argument.
 */
export const COMMAND_HANDLER = 'paygrid:command-handler';

export interface CommandHandlerOptions {
  mutates?: boolean;
}

export interface CommandHandlerMetadata extends CommandHandlerOptions {
  type: string;
}

export const CommandHandler = (type: string, options: CommandHandlerOptions = {}) =>
  SetMetadata<string, CommandHandlerMetadata>(COMMAND_HANDLER, { type, ...options });
