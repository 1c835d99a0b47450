import { ConfigSchema } from '@paygrid/platform';

/**
 * Renders `.env.example` from the apps' config schemas, so the file documents every variable with its
 * description and default and can never drift: env-example.spec.ts compares it with the committed file,
 * and `npm run env:example` rewrites it.
 */
export function renderEnvExample(schemas: Record<string, ConfigSchema>): string {
  const lines = [
    '# Paygrid configuration. Every app reads its variables from the environment and refuses to start',
    '# on a missing or invalid value, naming it. Generated from apps/*/src/config.ts by',
    '# `npm run env:example`; do not edit by hand. Values shown are the defaults (none = required).',
    '# `npm start` gives each app its own PORT and DATABASE_URL; KAFKA_BROKERS, DATABASE_URL (any',
    '# database on the server) and REDIS_URL given to `npm start` replace the local infrastructure.',
    '',
  ];
  const seen = new Map<string, string[]>();
  for (const [app, schema] of Object.entries(schemas)) {
    for (const name of Object.keys(schema)) seen.set(name, [...(seen.get(name) ?? []), app]);
  }
  const apps = Object.keys(schemas);
  const common = [...seen].filter(([, users]) => users.length === apps.length).map(([name]) => name);
  lines.push('# --- every app ---');
  for (const name of common) {
    const defaults = new Set(apps.map((app) => schemas[app][name].default));
    if (defaults.size === 1) lines.push(...describe(name, schemas[apps[0]][name]));
    else {
      const perApp = apps.map((app) => `${app} ${schemas[app][name].default}`).join(', ');
      lines.push(`# ${schemas[apps[0]][name].description.replace(/ \(.*\)$/, '')}; default per app: ${perApp}`, `# ${name}=`);
    }
  }
  for (const [app, schema] of Object.entries(schemas)) {
    const own = Object.keys(schema).filter((name) => !common.includes(name));
    if (own.length === 0) continue;
    lines.push('', `# --- ${app} ---`);
    for (const name of own) lines.push(...describe(name, schema[name]));
  }
  return `${lines.join('\n')}\n`;
}

function describe(name: string, variable: ConfigSchema[string]): string[] {
  const value = variable.default === undefined ? '' : variable.secret ? '' : variable.default;
  const note = variable.secret ? ' (secret: set your own; a development default applies when unset)' : '';
  return [`# ${variable.description}${note}`, `${variable.default === undefined || variable.secret ? '# ' : ''}${name}=${value}`];
}
