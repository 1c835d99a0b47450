/** Addresses of the real infrastructure the integration tiers use, overridable like the apps'. */
export function testBrokers(): string[] {
  return (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',').map((broker) => broker.trim());
}

export function testPostgresUrl(database = 'postgres'): string {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${database}`;
  return url.toString();
}

/** The test Redis; on another logical database when given (for an app whose keys have fixed names). */
export function testRedisUrl(database?: number): string {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (database === undefined) return url;
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
