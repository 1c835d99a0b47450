/**
 * Configuration from the environment, declared once per app and validated at boot.
 *
 * Each variable has a parser; a missing required value or a value that does not parse stops the app
 * with an error naming the variable. The declarations double as documentation: `.env.example`, the
 * deploy manifests and their tests are checked against them.
 */
export interface ConfigVar<T> {
  /** What the variable is for, shown in errors and docs. */
  description: string;
  /** Used when the variable is unset or empty; no default means required. */
  default?: string;
  /** Secrets are never printed. */
  secret?: boolean;
  parse(raw: string): T;
}

export type ConfigSchema = Record<string, ConfigVar<unknown>>;
export type ConfigOf<S extends ConfigSchema> = { readonly [K in keyof S]: S[K] extends ConfigVar<infer T> ? T : never };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * Variables an earlier version read, with what replaced them: a deployment still setting one would
 * otherwise be silently ignored (e.g. two stacks meant to be apart sharing consumer groups).
 */
const RETIRED_VARIABLES: Record<string, string> = {
  KAFKA_GROUP_PREFIX: 'set KAFKA_PREFIX instead (it prefixes every topic and consumer group)',
};

export function loadConfig<S extends ConfigSchema>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): ConfigOf<S> {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, replacement] of Object.entries(RETIRED_VARIABLES)) {
    if (env[name] !== undefined && env[name] !== '') problems.push(`${name} is no longer read: ${replacement}`);
  }
  for (const [name, spec] of Object.entries(schema)) {
    const given = env[name];
    const raw = given === undefined || given === '' ? spec.default : given;
    if (raw === undefined) {
      problems.push(`${name} is required (${spec.description})`);
      continue;
    }
    try {
      values[name] = spec.parse(raw);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problems.push(`${name} is invalid: ${reason} (${spec.description})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(values) as ConfigOf<S>;
}

type Options = { default?: string | number | boolean; secret?: boolean };

function declare<T>(description: string, options: Options, parse: (raw: string) => T): ConfigVar<T> {
  return {
    description,
    default: options.default === undefined ? undefined : String(options.default),
    secret: options.secret,
    parse,
  };
}

export const env = {
  string(description: string, options: Options & { minLength?: number; pattern?: RegExp } = {}): ConfigVar<string> {
    return declare(description, options, (raw) => {
      if (options.minLength !== undefined && raw.length < options.minLength) {
        throw new Error(`must be at least ${options.minLength} characters`);
      }
      if (options.pattern && !options.pattern.test(raw)) throw new Error(`"${raw}" does not match ${options.pattern}`);
      return raw;
    });
  },
  int(description: string, options: Options & { min?: number; max?: number } = {}): ConfigVar<number> {
    return declare(description, options, (raw) => {
      if (!/^-?\d+$/.test(raw)) throw new Error(`"${raw}" is not an integer`);
      const value = Number(raw);
      if (options.min !== undefined && value < options.min) throw new Error(`must be >= ${options.min}`);
      if (options.max !== undefined && value > options.max) throw new Error(`must be <= ${options.max}`);
      return value;
    });
  },
  bool(description: string, options: Options = {}): ConfigVar<boolean> {
    return declare(description, options, (raw) => {
      if (/^(true|1|yes)$/i.test(raw)) return true;
      if (/^(false|0|no)$/i.test(raw)) return false;
      throw new Error(`"${raw}" is not a boolean (true/false)`);
    });
  },
  url(description: string, protocols: string[], options: Options = {}): ConfigVar<string> {
    return declare(description, options, (raw) => {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        throw new Error('is not a URL');
      }
      if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
        throw new Error(`protocol must be one of ${protocols.join(', ')}`);
      }
      return raw;
    });
  },
  list(description: string, options: Options = {}): ConfigVar<string[]> {
    return declare(description, options, (raw) => {
      const items = raw.split(',').map((item) => item.trim()).filter(Boolean);
      if (items.length === 0) throw new Error('must name at least one value');
      return items;
    });
  },
  oneOf<T extends string>(description: string, values: readonly T[], options: Options = {}): ConfigVar<T> {
    return declare(description, options, (raw) => {
      if (!(values as readonly string[]).includes(raw)) throw new Error(`must be one of ${values.join(', ')}`);
      return raw as T;
    });
  },
};

/** For an app's main: a bad or missing value stops the process with every problem named. */
export function loadConfigOrExit<S extends ConfigSchema>(app: string, schema: S): ConfigOf<S> {
  try {
    return loadConfig(schema);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${app}: ${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
}
