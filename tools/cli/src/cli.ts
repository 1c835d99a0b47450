import { parseArgs } from 'node:util';
import { CommandFamily } from '@paygrid/contracts';
import { ApiError } from '@paygrid/platform';
import { COMMAND_GROUPS } from './commands';
import { CliBus, CliUsageError, CommandGroup, Subcommand } from './commands/registry';

/**
 * Argument handling and error reporting of `paygrid <group> <command> ...`, separate from main.ts so
 * tests drive it with a fake bus. Exit codes: 0 done, 1 refused or failed, 2 wrong usage.
 */
export interface ConnectedBus extends CliBus {
  /** Resolves once `family`'s service answers; rejects with a CliFailure when it does not. */
  ready(family: CommandFamily): Promise<void>;
  close(): Promise<void>;
}

export interface CliIo {
  connect(): Promise<ConnectedBus>;
  out(line: string): void;
  err(line: string): void;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export async function runCli(argv: string[], io: CliIo, groups: readonly CommandGroup[] = COMMAND_GROUPS): Promise<number> {
  const [groupName, commandName, ...rest] = argv;
  if (groupName === undefined || isHelp(groupName)) {
    usage(groups).forEach(groupName === undefined ? io.err : io.out);
    return groupName === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const group = groups.find((candidate) => candidate.name === groupName);
  if (!group) return usageError(io, `unknown command "${groupName}"`, usage(groups));
  if (commandName === undefined || isHelp(commandName)) {
    groupUsage(group).forEach(commandName === undefined ? io.err : io.out);
    return commandName === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = group.subcommands.find((candidate) => candidate.name === commandName);
  if (!command) return usageError(io, `unknown command "${groupName} ${commandName}"`, groupUsage(group));

  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
    checkPositionals(command, parsed.positionals);
  } catch (error) {
    return usageError(io, messageOf(error), [`usage: paygrid ${group.name} ${command.name} ${command.usage}`]);
  }

  let bus: ConnectedBus | undefined;
  try {
    bus = await io.connect();
    for (const family of [command.family, ...(command.alsoNeeds ?? [])]) await bus.ready(family);
    await command.run({ bus, out: io.out, err: io.err }, parsed);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CliUsageError) {
      return usageError(io, error.message, [`usage: paygrid ${group.name} ${command.name} ${command.usage}`]);
    }
    io.err(`error: ${describeFailure(error)}`);
    return EXIT_FAILED;
  } finally {
    await bus?.close().catch(() => undefined);
  }
}

/** A refusal from a service keeps its code; anything else says what happened without a stack. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError) {
    const code = 'type' in error.body ? error.body.code : String(error.body.code);
    return `${error.body.message} (${code}, HTTP ${error.status})`;
  }
  return messageOf(error);
}

export function usage(groups: readonly CommandGroup[]): string[] {
  return [
    'usage: paygrid <command> <subcommand> [options]',
    '',
    ...groups.flatMap((group) => groupUsage(group).slice(1)),
    '',
    'Environment: KAFKA_BROKERS (default 127.0.0.1:9092), KAFKA_PREFIX (the stack, default paygrid), PAYGRID_CLI_TIMEOUT_MS (default 15000).',
  ];
}

function groupUsage(group: CommandGroup): string[] {
  return [
    `usage: paygrid ${group.name} <subcommand> [options]`,
    `${group.name}: ${group.summary}`,
    ...group.subcommands.map((command) => `  paygrid ${group.name} ${command.name} ${command.usage}\n      ${command.summary}`),
  ];
}

function checkPositionals(command: Subcommand, positionals: string[]): void {
  const { min, max } = command.positionals;
  if (positionals.length < min) throw new CliUsageError(`missing argument: ${command.usage}`);
  if (positionals.length > max) throw new CliUsageError(`unexpected argument "${positionals[max]}"`);
}

function usageError(io: CliIo, message: string, help: string[]): number {
  io.err(`error: ${message}`);
  help.forEach(io.err);
  return EXIT_USAGE;
}

function isHelp(word: string): boolean {
  return word === 'help' || word === '--help' || word === '-h';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
