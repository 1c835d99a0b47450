import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `paygrid_expect_rows(actual, expected, what)`: true when a write touched the rows it planned to, else an
 * error (SQLSTATE P0002, no_data_found, or P0003, too_many_rows) that fails the statement and so its
 * transaction. It lets a write be sent without awaiting its answer (expected-rows.ts): a write that missed
 * its row fails the transaction in Postgres instead of passing unnoticed in an answer nobody reads.
 */
export class ExpectedRows1700000000040 implements MigrationInterface {
  name = 'ExpectedRows1700000000040';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE OR REPLACE FUNCTION paygrid_expect_rows(actual bigint, expected integer, what text)
        RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        IF actual < expected THEN
          RAISE EXCEPTION '% touched % row(s), expected %', what, actual, expected USING ERRCODE = 'P0002';
        ELSIF actual > expected THEN
          RAISE EXCEPTION '% touched % row(s), expected %', what, actual, expected USING ERRCODE = 'P0003';
        END IF;
        RETURN true;
      END $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP FUNCTION IF EXISTS paygrid_expect_rows(bigint, integer, text)');
  }
}
