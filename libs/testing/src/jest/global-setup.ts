import './register-source-paths';
import { waitForKafka } from '@paygrid/platform';
import { testBrokers } from '../env';

/**
 * Runs once before the integration tier: the real broker must answer. Starting it is the caller's job
 * (`npm test` or `npm run kafka:up`), so a missing broker fails fast here with its address instead of
 * timing out test by test. Topics are not made here: every test file makes its own stack (TestStack).
 */
export default async function globalSetup(): Promise<void> {
  await waitForKafka(testBrokers(), 60_000);
}
