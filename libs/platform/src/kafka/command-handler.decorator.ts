import { SetMetadata } from '@nestjs/common';

/**
 * @deprecated use `@HandleCommand(definition)` (commands/handle-command.decorator.ts). Kept only while
 * services move to declared commands; the dispatcher routes both.
 */
export const LEGACY_COMMAND_HANDLER = 'paygrid:legacy-command-handler';

export interface LegacyCommandHandlerMetadata {
  type: string;
  mutates?: boolean;
}

export const CommandHandler = (type: string, options: { mutates?: boolean } = {}) =>
  SetMetadata<string, LegacyCommandHandlerMetadata>(LEGACY_COMMAND_HANDLER, { type, ...options });
