import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { allFaults, faultsNamed } from './chaos-faults';
import { ChaosRow, chaosTable, runChaos, violationsOf } from './chaos-run';
import { CHAOS_LOG_DIRECTORY } from './chaos-stack';

/**
 * `npm run chaos`: every fault of chaos-faults.ts against the chaos stack (chaos-stack.ts), first with one
 * process per app, then with two replicas of every app (a killed replica is kept down while the other
 * serves), with a table for each, written to tmp/chaos-logs/chaos-table.md as well. Exits 1 on any
 * violated invariant.
 *
 *   npm run chaos                                   # every fault, one replica then two
 *   npm run chaos -- --replicas 2                   # only the two-replica run (or 1: only the single one)
 *   npm run chaos -- --fault "SIGKILL acquiring"    # some faults (repeat --fault; names per mode)
 *   npm run chaos -- --operations 24                # more load per fault (default 16)
 */
const say = (line: string) => process.stdout.write(`chaos  ${line}\n`);

interface ChaosArgs {
  faults: string[];
  operations: number;
  replicas: number[];
}

function argsOf(argv: string[]): ChaosArgs {
  const faults: string[] = [];
  let operations = 16;
  let replicas = [1, 2];
  for (let index = 0; index < argv.length; index += 1) {
    if (argv[index] === '--fault') faults.push(argv[++index] ?? '');
    else if (argv[index] === '--operations') operations = Number(argv[++index]);
    else if (argv[index] === '--replicas') replicas = [Number(argv[++index])];
    else throw new Error(`unknown argument ${argv[index]}`);
  }
  if (!Number.isInteger(operations) || operations < 1)
    throw new Error('--operations must be a positive integer');
  if (!replicas.every((count) => count === 1 || count === 2)) throw new Error('--replicas must be 1 or 2');
  return { faults, operations, replicas };
}

async function main(): Promise<void> {
  const args = argsOf(process.argv.slice(2));
  const started = Date.now();
  const runs: { replicas: number; rows: ChaosRow[] }[] = [];
  for (const replicas of args.replicas) {
    const faults = args.faults.length > 0 ? faultsNamed(args.faults, replicas) : allFaults(replicas);
    say(`${faults.length} faults with ${replicas} replica(s) of every app`);
    const rows = await runChaos(faults, {
      operations: args.operations,
      concurrency: 4,
      stepDeadlineMs: 120_000,
      replicas,
      say,
    });
    runs.push({ replicas, rows });
  }
  const report = runs
    .map(
      ({ replicas, rows }) =>
        `${replicas === 1 ? 'One process per app' : `${replicas} replicas of every app`}:\n\n${chaosTable(rows)}\n`,
    )
    .join('\n');
  const violations = runs.flatMap(({ replicas, rows }) =>
    violationsOf(rows).map((violation) => `[${replicas} replica(s)] ${violation}`),
  );
  const faults = runs.reduce((count, run) => count + run.rows.length, 0);
  process.stdout.write(`\n${report}\n`);
  for (const violation of violations) process.stdout.write(`VIOLATION ${violation}\n`);
  process.stdout.write(
    `chaos: ${faults} faults in ${Math.round((Date.now() - started) / 1000)} s, ${violations.length} violations\n`,
  );
  mkdirSync(CHAOS_LOG_DIRECTORY, { recursive: true });
  writeFileSync(
    path.join(CHAOS_LOG_DIRECTORY, 'chaos-table.md'),
    `${report}${violations.map((line) => `\n- ${line}`).join('')}\n`,
  );
  process.exit(violations.length === 0 ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
