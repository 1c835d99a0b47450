/**
 * How long a pooled Postgres connection may sit idle before the pool closes it (DATABASE_POOL_IDLE_MS):
 * five minutes, so a service quiet for longer gives its connections back to the database. A leaf module,
 * so that the config schema can name the default without loading the data source.
 */
export const DEFAULT_POOL_IDLE_MS = 300_000;
