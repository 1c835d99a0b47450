import { faultsNamed } from './chaos-faults';
import { chaosTable, runChaos, violationsOf } from './chaos-run';

/**
 * The short chaos run inside `npm test`: two of `npm run chaos`'s faults, on the chaos stack (its own
 * prefix, ports 3300–3305, databases and Redis database, beside the e2e stack), with a small load (6
 * operations: 6 card authorizations, 2 of them reversed, and 6 payments with their refunds and payouts). A
 * killed service comes back by itself and a flushed Redis is rebuilt from Postgres; every retried
 * request succeeds once, nothing is stuck (every authorization clears or is reversed), the cards' balances
 * agree to the cent, every event reaches the merchant's endpoint, and the platform is healthy again within
 * 30 s. The broker outage and the other faults run in `npm run chaos`.
 */
describe('chaos, short', () => {
  it('heals from a killed service and a Redis flush by itself, every invariant holding', async () => {
    const lines: string[] = [];
    const rows = await runChaos(faultsNamed(['SIGKILL acquiring', 'redis FLUSHDB']), {
      operations: 6,
      concurrency: 3,
      stepDeadlineMs: 60_000,
      say: (line) => lines.push(line),
    });
    process.stdout.write(`${chaosTable(rows)}\n`);
    expect({ violations: violationsOf(rows), log: violationsOf(rows).length > 0 ? lines : [] }).toEqual({
      violations: [],
      log: [],
    });
  }, 170_000);
});
