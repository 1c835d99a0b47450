import { QueryRunner } from 'typeorm';

/**
 * A table whose rows are never deleted, as a rule Postgres enforces: a BEFORE DELETE trigger raising
 * `message`. It keeps a reference to the table valid without a foreign key, whose lock on the referenced
 * row would make a row many writers refer to (an endpoint, a day's batch) a hot row. Used by migrations:
 * the function and trigger are named after the table, so changing this helper renames nothing already
 * created.
 */
export async function refuseDeletes(runner: QueryRunner, table: string, message: string): Promise<void> {
  await runner.query(`
    CREATE FUNCTION ${table}_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '%', ${quoteLiteral(message)};
    END $$`);
  await runner.query(
    `CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_refuse_delete()`,
  );
}

/** Undoes refuseDeletes. */
export async function allowDeletes(runner: QueryRunner, table: string): Promise<void> {
  await runner.query(`DROP TRIGGER IF EXISTS ${table}_no_delete ON ${table}`);
  await runner.query(`DROP FUNCTION IF EXISTS ${table}_refuse_delete()`);
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
