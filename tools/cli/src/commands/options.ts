import { ParsedArgs } from './registry';

/**
 * Reading parsed options, shared by the command groups so every flag behaves the same way.
 */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Repeatable and comma-separated: `--ip 1.2.3.4 --ip 10.0.0.0/8` equals `--ip 1.2.3.4,10.0.0.0/8`. */
export function listOption(args: ParsedArgs, name: string): string[] {
  const raw = args.values[name];
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return values
    .flatMap((value) => String(value).split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}
