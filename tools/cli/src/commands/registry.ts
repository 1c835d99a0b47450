import { ParseArgsConfig } from 'node:util';
import { Actor, CommandFamily } from '@paygrid/contracts';

/**
 * The shape every CLI command group follows, so `webhooks ...` (or any other operator tool) is one
 * more file in commands/ and one line in commands/index.ts. A subcommand declares its options for
 * node:util parseArgs and gets a context with the bus and the two output streams; it never touches
 * process.* itself, which keeps it testable.
 */
export interface CliBus {
  /**
   * Sends a command and returns its result; a refusal is thrown as the platform's ApiError. Operator
   * commands carry no actor; `actor` reads as a merchant would (the ledger audit compares what the API shows).
   */
  send<R>(family: CommandFamily, type: string, payload: unknown, options?: { commandId?: string; actor?: Actor }): Promise<R>;
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
