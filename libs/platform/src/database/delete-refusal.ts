import { escapeLiteral } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reference kept without a foreign key. A foreign key locks the parent row FOR KEY SHARE on every child
 * insert; a parent many concurrent writers refer to (a webhook endpoint, a day's settlement batch) then
 * becomes a hot row, each new concurrent locker costing Postgres a MultiXact and a rewrite of the row.
 * What the key promised is kept instead by the writers (each child takes its parent id from a row read or
 * written in the same transaction) and by a rule Postgres enforces: the parent's rows are never deleted
 * (a BEFORE DELETE trigger raising `message`). Used by migrations; the function and trigger are named
 * after the parent table, so nothing created is renamed by a change here.
 */
export interface LockFreeReference {
  child: string;
  /** The foreign key's name, dropped on the way up and restored on the way down. */
  constraint: string;
  column: string;
  parent: string;
  parentColumn: string;
  /** What a refused DELETE on the parent says. */
  message: string;
}

/** Drops the foreign key and makes the parent's rows undeletable. */
export async function dropReferenceLock(runner: QueryRunner, reference: LockFreeReference): Promise<void> {
  const { child, constraint, parent, message } = reference;
  await runner.query(`ALTER TABLE ${child} DROP CONSTRAINT IF EXISTS ${constraint}`);
  await runner.query(`
    CREATE FUNCTION ${parent}_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '%', ${escapeLiteral(message)};
    END $$`);
  await runner.query(
    `CREATE TRIGGER ${parent}_no_delete BEFORE DELETE ON ${parent} FOR EACH ROW EXECUTE FUNCTION ${parent}_refuse_delete()`,
  );
}

/** Undoes dropReferenceLock: deletes allowed again, the foreign key back. */
export async function restoreReferenceLock(runner: QueryRunner, reference: LockFreeReference): Promise<void> {
  const { child, constraint, column, parent, parentColumn } = reference;
  await runner.query(`DROP TRIGGER IF EXISTS ${parent}_no_delete ON ${parent}`);
  await runner.query(`DROP FUNCTION IF EXISTS ${parent}_refuse_delete()`);
  await runner.query(
    `ALTER TABLE ${child} ADD CONSTRAINT ${constraint} FOREIGN KEY (${column}) REFERENCES ${parent} (${parentColumn})`,
  );
}

/**
 * The migration that makes `reference` lock-free (dropReferenceLock on the way up, restoreReferenceLock on the
 * way down), named `name` in TypeORM's record of migrations. Each app's migration file says why its key goes.
 */
export function lockFreeReferenceMigration(
  name: string,
  reference: LockFreeReference,
): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = name;

    async up(runner: QueryRunner): Promise<void> {
      await dropReferenceLock(runner, reference);
    }

    async down(runner: QueryRunner): Promise<void> {
      await restoreReferenceLock(runner, reference);
    }
  };
}
