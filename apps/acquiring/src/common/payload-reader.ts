import { CommandEnvelope } from '@paygrid/contracts';
import { Errors } from '@paygrid/platform';
import { isSupportedCurrency, MoneyFormatError, parsePositiveAmount } from '@paygrid/money';

/**
 * The service's own check of a command payload. The gateway validated the HTTP body in full; this
 * re-checks what the service stores or decides on (types, lengths, enums, money), so a command from any
 * other sender cannot write garbage. Problems are collected and answered as one invalid_request_error
 * naming each field path; values are never quoted (a card number in the wrong field must not echo).
 */
type Json = Record<string, unknown>;

export class PayloadReader {
  private readonly problems: string[] = [];

  private constructor(private readonly root: Json) {}

  static of(command: CommandEnvelope): PayloadReader {
    const payload = command.payload;
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      throw Errors.invalidRequest('payload must be an object');
    }
    return new PayloadReader(payload as Json);
  }

  private get(path: string): unknown {
    let value: unknown = this.root;
    for (const key of path.split('.')) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      value = (value as Json)[key];
    }
    return value;
  }

  private present(path: string, required: boolean): unknown {
    const value = this.get(path);
    if (value === undefined || value === null) {
      if (required) this.problems.push(`${path}: is required`);
      return undefined;
    }
    return value;
  }

  string(path: string, options: { required: true; max?: number; pattern?: RegExp }): string;
  string(path: string, options?: { required?: false; max?: number; pattern?: RegExp }): string | undefined;
  string(path: string, options: { required?: boolean; max?: number; pattern?: RegExp } = {}): string | undefined {
    const value = this.present(path, options.required ?? false);
    if (value === undefined) return options.required ? '' : undefined;
    if (typeof value !== 'string') return this.fail(path, 'must be a string', options.required);
    if (options.max !== undefined && value.length > options.max) {
      return this.fail(path, `must be at most ${options.max} characters`, options.required);
    }
    if (options.pattern && !options.pattern.test(value)) return this.fail(path, 'has an invalid format', options.required);
    return value;
  }

  oneOf<T extends string>(path: string, values: readonly T[], required = false): T | undefined {
    const value = this.present(path, required);
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
      this.problems.push(`${path}: must be one of ${values.join(', ')}`);
      return undefined;
    }
    return value as T;
  }

  bool(path: string): boolean | undefined {
    const value = this.present(path, false);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') {
      this.problems.push(`${path}: must be a boolean`);
      return undefined;
    }
    return value;
  }

  int(path: string, min: number, max: number, fallback: number): number {
    const value = this.present(path, false);
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${path}: must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  }

  object<T extends object = Json>(path: string, required = false): T | undefined {
    const value = this.present(path, required);
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) {
      this.problems.push(`${path}: must be an object`);
      return undefined;
    }
    return value as T;
  }

  stringMap(path: string): Record<string, string> | undefined {
    const value = this.object(path);
    if (value === undefined) return undefined;
    if (!Object.values(value).every((item) => typeof item === 'string')) {
      this.problems.push(`${path}: values must be strings`);
      return undefined;
    }
    return value as Record<string, string>;
  }

  /** ISO 8601 timestamp filter. */
  time(path: string): Date | undefined {
    const value = this.string(path);
    if (value === undefined) return undefined;
    const parsed = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(parsed.getTime())) {
      this.problems.push(`${path}: must be an ISO 8601 timestamp`);
      return undefined;
    }
    return parsed;
  }

  /** A positive decimal amount in the currency's minor-unit digits (decisions §5). */
  amount(path: string, currency: string | undefined, required = true): bigint | undefined {
    const value = this.string(path, { required: required as true });
    if (value === undefined || value === '' || currency === undefined) return undefined;
    const parsed = parseWireAmount(path, value, currency);
    if (typeof parsed === 'string') {
      this.problems.push(parsed);
      return undefined;
    }
    return parsed;
  }

  /** A supported ISO 4217 code (libs/money decides which). */
  currency(path: string, required = true): string | undefined {
    const value = this.string(path, { required: required as true });
    if (value === undefined || value === '') return undefined;
    if (isSupportedCurrency(value)) return value;
    this.problems.push(`${path}: is not a supported currency`);
    return undefined;
  }

  add(problems: string[]): void {
    this.problems.push(...problems);
  }

  /** Throws the collected problems (at most 10, in order), if any. */
  done(): void {
    if (this.problems.length > 0) throw Errors.invalidRequest(this.problems.slice(0, 10).join('; '));
  }

  private fail(path: string, rule: string, required?: boolean): undefined {
    this.problems.push(`${path}: ${rule}`);
    return (required ? '' : undefined) as undefined;
  }
}

/** A wire amount in minor units, or the sentence that refuses it. */
export function parseWireAmount(path: string, value: string, currency: string): bigint | string {
  try {
    return parsePositiveAmount(value, currency);
  } catch (error) {
    if (!(error instanceof MoneyFormatError)) throw error;
    return `${path}: ${error.reason}`;
  }
}

/** The same, refusing with invalid_request_error: for amounts whose currency is known only after a read. */
export function requireWireAmount(path: string, value: string, currency: string): bigint {
  const parsed = parseWireAmount(path, value, currency);
  if (typeof parsed === 'string') throw Errors.invalidRequest(parsed);
  return parsed;
}
