import { ParseArgsConfig } from 'node:util';
import { Actor, CommandDefinition, CommandFamily, PayloadOf, ResultOf } from '@paygrid/contracts';

/**
 * The shape every CLI command group follows, so `webhooks ...` (or any other operator tool) is one
 * more file in commands/ and one line in commands/index.ts. A subcommand declares its options for
 * node:util parseArgs and gets a context with the bus and the two output streams; it never touches
 * process.* itself, which keeps it testable.
 */
export interface CliBus {
  /**
   * Sends a declared command (libs/contracts) with operator scope (no actor) and returns its declared
   * result; a refusal is thrown as the platform's ApiError. Mutating commands pass a fresh command id.
   * `actor` reads as that merchant would (the ledger audit compares what the API shows each account).
   */
  execute<C extends CommandDefinition>(
    definition: C,
    payload: PayloadOf<C>,
    options?: { commandId?: string; actor?: Actor },
  ): Promise<ResultOf<C>>;
}

export interface CliContext {
  bus: CliBus;
  out(line: string): void;
  err(line: string): void;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

export interface Subcommand {
  name: string;
  /** One line, after the group and subcommand names: `--account <uuid> [--label text]`. */
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** How many positional arguments it takes. */
  positionals: { min: number; max: number };
  /** The service family it talks to: the CLI checks that family answers before running. */
  family: CommandFamily;
  /** Other families it talks to, checked the same way (a check across services needs them all). */
  alsoNeeds?: readonly CommandFamily[];
  run(context: CliContext, args: ParsedArgs): Promise<void>;
}

export interface CommandGroup {
  name: string;
  summary: string;
  subcommands: Subcommand[];
}

/** A mistake in how the CLI was called: printed with the usage, exit code 2. */
export class CliUsageError extends Error {}

/** A refusal worth a clear sentence rather than a stack: exit code 1. */
export class CliFailure extends Error {}
