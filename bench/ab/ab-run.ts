import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@paygrid/local-stack';
import { TARGETS } from '../targets';
import { ArmSpec, armName, parseAbArguments } from './ab-options';
import { Arm, comparePairs, Figure, pairedTable, runOrder, RunFigures } from './ab-compare';

/**
 * `npm run bench:ab -- [--base <ref>] [--head <ref>] [--env-a K=V]… [--env-b K=V]… [--pairs 3] [--only acquiring]`:
 * the same bench sections of two arms, alternated on this machine (ab-compare.ts says why and in which
 * order), then one table: every target, the CPU per create by process and the create's counts, each arm's
 * runs, the medians, and in how many pairs B did better. Written to bench/results/ab-<time>.md.
 *
 * An arm is a build and the environment its bench runs with (ab-options.ts). A ref other than `.` is built
 * once into a git worktree under the system's temp directory, so that arm is exactly that commit's apps and
 * bench. Its node_modules is this checkout's, linked: a ref whose dependencies differ needs an install
 * there. `.` is this checkout as `npm run bench:ab` just built it, uncommitted changes included. Every run
 * recreates its databases and topics, as `npm run bench` does. One broker serves all runs: KAFKA_BROKERS
 * must name it (a worktree would otherwise start its own).
 */
const say = (line: string) => process.stdout.write(`bench:ab  ${line}\n`);
const WORKTREES = path.join(os.tmpdir(), 'paygrid-ab');

interface ArmBuild {
  /** The arm as the report names it: its build and its settings. */
  name: string;
  directory: string;
  env: Record<string, string>;
}

function git(args: string[], cwd = REPO_ROOT): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** The working tree as built, or `ref` checked out and built in a worktree of its own (reused if built). */
function prepareArm(arm: ArmSpec): ArmBuild {
  const { ref, env } = arm;
  if (ref === '.') {
    const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
    const build = `working tree (${git(['rev-parse', '--short', 'HEAD'])}${dirty ? ' + uncommitted changes' : ''})`;
    return { name: armName(arm, build), directory: REPO_ROOT, env };
  }
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const directory = path.join(WORKTREES, commit);
  if (!existsSync(path.join(directory, 'dist/bench/run.js'))) {
    if (!existsSync(directory)) {
      mkdirSync(WORKTREES, { recursive: true });
      git(['worktree', 'add', '--detach', directory, commit]);
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(directory, 'node_modules'));
    }
    say(`building ${ref} (${commit.slice(0, 7)}) in ${directory}`);
    execFileSync('npm', ['run', '-s', 'build'], { cwd: directory, stdio: 'inherit' });
  }
  return { name: armName(arm, `${ref} (${commit.slice(0, 7)})`), directory, env };
}

/** The two figures a run is compared by besides the targets' own: the ratio's two sides. */
const BASELINE = 'postgres create-like tx/s (the baseline)';
const C16_RATE = 'create-intent c16 /s';

/**
 * The create run's figures per create: where the CPU went (milliseconds, which move with the machine) and
 * what the create cost in counts (commits, row writes, WAL, wake-ups), which do not: a change that shows in
 * a count shows in every pair.
 */
const PER_CREATE =
  /^(cpu_ms_|commits_per_op_|row_writes_per_op_|wal_kb_per_op$|server_wakeups_per_operation$)/;

/** What a run is compared by: issue 12's targets (the ratio where there is a baseline) and where the CPU went. */
function figuresOf(document: {
  targets?: Record<string, { value: number | null }>;
  results?: Record<string, Record<string, number | string>>;
}): RunFigures {
  const figures: RunFigures = {};
  for (const [name, { value }] of Object.entries(document.targets ?? {}))
    if (typeof value === 'number') figures[name] = value;
  const results = document.results ?? {};
  const baseline = results.postgres_commit?.transactions_per_second;
  if (typeof baseline === 'number') figures[BASELINE] = baseline;
  for (const [figure, value] of Object.entries(results.acquiring_create_intent ?? {})) {
    if (typeof value !== 'number') continue;
    if (figure === 'acquiring_create_intent_per_second') figures[C16_RATE] = value;
    if (PER_CREATE.test(figure)) figures[figure] = value;
  }
  return figures;
}

function comparedFigures(runs: RunFigures[]): Figure[] {
  const present = new Set(runs.flatMap((run) => Object.keys(run)));
  const targets: Figure[] = TARGETS.map((target) => ({
    label: target.name,
    better: target.direction === 'at_least' ? 'higher' : 'lower',
  }));
  const others: Figure[] = [
    { label: BASELINE, better: 'none' },
    { label: C16_RATE, better: 'higher' },
    ...[...present]
      .filter((label) => PER_CREATE.test(label))
      .sort()
      .map((label) => ({ label, better: 'lower' as const })),
  ];
  return [...targets, ...others].filter((figure) => present.has(figure.label));
}

function runBench(arm: ArmBuild, sections: string, logFile: string): RunFigures {
  const resultFile = path.join(arm.directory, 'bench/results', `only-${sections.split(',').join('-')}.json`);
  rmSync(resultFile, { force: true });
  const log = openSync(logFile, 'w');
  try {
    const run = spawnSync(
      process.execPath,
      ['-r', './deploy/local/register-paths.js', 'dist/bench/run.js', '--only', sections],
      {
        cwd: arm.directory,
        stdio: ['ignore', log, log],
        env: { ...process.env, ...arm.env },
      },
    );
    if (run.status !== 0 || !existsSync(resultFile))
      throw new Error(`the bench of ${arm.name} failed (exit ${run.status}); see ${logFile}`);
  } finally {
    closeSync(log);
  }
  return figuresOf(JSON.parse(readFileSync(resultFile, 'utf8')));
}

async function main(): Promise<void> {
  const options = parseAbArguments(process.argv.slice(2));
  if (!process.env.KAFKA_BROKERS) {
    throw new Error(
      'start one broker for every run first (bash deploy/local/kafka/kafka-up.sh) and set KAFKA_BROKERS=127.0.0.1:9092',
    );
  }
  const { sections } = options;
  const order = runOrder(options.pairs);
  const arms: Record<Arm, ArmBuild> = { A: prepareArm(options.A), B: prepareArm(options.B) };
  const logs = path.join(WORKTREES, 'logs');
  mkdirSync(logs, { recursive: true });

  const started = new Date();
  const runs: RunFigures[] = [];
  const runLines: string[] = [];
  for (const [index, arm] of order.entries()) {
    const at = new Date().toISOString().slice(11, 16);
    const figures = runBench(arms[arm], sections, path.join(logs, `run-${index + 1}-${arm}.log`));
    runs.push(figures);
    const cpu = figures.cpu_ms_per_operation;
    const line = `run ${index + 1}/${order.length} ${arm} at ${at} UTC: baseline ${figures[BASELINE] ?? '–'}/s, c16 ${figures[C16_RATE] ?? '–'}/s, CPU per create ${cpu ?? '–'} ms`;
    runLines.push(`- ${line}`);
    say(line);
  }

  const table = pairedTable(comparePairs(comparedFigures(runs), order, runs));
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const document = [
    `# A/B bench (${started.toISOString()} to ${new Date().toISOString()}, ${os.cpus().length} cores, node ${process.version})`,
    '',
    `- A: ${arms.A.name}`,
    `- B: ${arms.B.name}`,
    `- sections: ${sections}; ${order.length / 2} pairs in the order ${order.join(' ')}`,
    '',
    runLines.join('\n'),
    '',
    table,
    '',
  ].join('\n');
  const file = path.join(REPO_ROOT, 'bench/results', `ab-${stamp}.md`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, document);
  process.stdout.write(`\n${table}\n\nwritten to ${path.relative(REPO_ROOT, file)}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench:ab failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
