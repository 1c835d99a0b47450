import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ALL_FAULTS, faultsNamed } from './chaos-faults';
import { chaosTable, runChaos, violationsOf } from './chaos-run';
import { CHAOS_LOG_DIRECTORY } from './chaos-stack';

/**
 * `npm run chaos`: every fault of chaos-faults.ts against the chaos stack (chaos-stack.ts), with its
 * table, written to tmp/chaos-logs/chaos-table.md as well. Exits 1 on any violated invariant.
 *
 *   npm run chaos                                   # every fault
 *   npm run chaos -- --fault "SIGKILL acquiring"    # some faults (repeat --fault)
 *   npm run chaos -- --operations 24                # more load per fault (default 16)
 */
const say = (line: string) => process.stdout.write(`chaos  ${line}\n`);

function argsOf(argv: string[]): { faults: string[]; operations: number } {
  const faults: string[] = [];
  let operations = 16;
  for (let index = 0; index < argv.length; index += 1) {
    if (argv[index] === '--fault') faults.push(argv[++index] ?? '');
    else if (argv[index] === '--operations') operations = Number(argv[++index]);
    else throw new Error(`unknown argument ${argv[index]}`);
  }
  if (!Number.isInteger(operations) || operations < 1)
    throw new Error('--operations must be a positive integer');
  return { faults, operations };
}

async function main(): Promise<void> {
  const args = argsOf(process.argv.slice(2));
  const faults = args.faults.length > 0 ? faultsNamed(args.faults) : ALL_FAULTS;
  const started = Date.now();
  const rows = await runChaos(faults, {
    operations: args.operations,
    concurrency: 4,
    stepDeadlineMs: 120_000,
    say,
  });
  const table = chaosTable(rows);
  const violations = violationsOf(rows);
  process.stdout.write(`\n${table}\n\n`);
  for (const violation of violations) process.stdout.write(`VIOLATION ${violation}\n`);
  process.stdout.write(
    `chaos: ${faults.length} faults in ${Math.round((Date.now() - started) / 1000)} s, ${violations.length} violations\n`,
  );
  mkdirSync(CHAOS_LOG_DIRECTORY, { recursive: true });
  writeFileSync(
    path.join(CHAOS_LOG_DIRECTORY, 'chaos-table.md'),
    `${table}\n${violations.map((line) => `\n- ${line}`).join('')}\n`,
  );
  process.exit(violations.length === 0 ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
