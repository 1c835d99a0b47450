import { keysCommands } from './keys';
import { ledgerCommands } from './ledger';
import { CommandGroup } from './registry';
import { webhooksCommands } from './webhooks';

/** Every command group of the CLI; add a group here (e.g. `webhooksCommands`) to expose it. */
export const COMMAND_GROUPS: readonly CommandGroup[] = [keysCommands, webhooksCommands, ledgerCommands];
