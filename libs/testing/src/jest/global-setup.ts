import './register-source-paths';
import { ensureTopics } from '@paygrid/platform';
import { testBrokers } from '../env';

/**
 * Runs once before the integration and e2e tiers: the real broker must answer and every topic of
 * libs/contracts must exist (kafkajs cannot subscribe to a topic KRaft is still auto-creating).
 * Starting the broker is the caller's job (`npm test` or `npm run stack:up`), so a missing broker
 * fails fast here with its address instead of timing out test by test.
 */
export default async function globalSetup(): Promise<void> {
  await ensureTopics(testBrokers(), 60_000);
}
