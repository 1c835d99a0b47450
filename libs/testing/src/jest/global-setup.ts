import './register-source-paths';
import { waitForKafka } from '@paygrid/platform';
import { buildDist } from '../app-process';
import { testBrokers } from '../env';

/**
 * Runs once before the integration tier: the real broker must answer. Starting it is the caller's job
 * (`npm test` or `npm run kafka:up`), so a missing broker fails fast here with its address instead of
 * timing out test by test. Topics are not made here: every test file makes its own stack (TestStack).
 *
 * The compiled apps (`dist/`) that AppProcess runs are built here, once, before any file starts: the build
 * empties `dist/` first, so a file building it while another file's child app loads from it (two workers)
 * would crash that app on a missing module.
 */
export default async function globalSetup(): Promise<void> {
  buildDist();
  await waitForKafka(testBrokers(), 60_000);
}
