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
import { ArmSpec, armName, parseAbArguments } from './ab-options';
import { Arm, comparePairs, pairedTable, runOrder, RunFigures } from './ab-compare';
import {
  BASELINE,
  C16_INTEGER_SPEED,
  C16_RATE,
  comparedFigures,
  figuresOf,
  speedCaution,
} from './ab-figures';
import { emptyBenchRedis } from '../bench-redis';

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
    // Each run starts from an empty Redis database, whatever its arm's bench does (an older one did not).
    await emptyBenchRedis();
    const at = new Date().toISOString().slice(11, 16);
    const figures = runBench(arms[arm], sections, path.join(logs, `run-${index + 1}-${arm}.log`));
    runs.push(figures);
    const cpu = figures.cpu_ms_per_operation;
    const speed = figures[C16_INTEGER_SPEED];
    const line =
      `run ${index + 1}/${order.length} ${arm} at ${at} UTC: baseline ${figures[BASELINE] ?? '–'}/s, ` +
      `c16 ${figures[C16_RATE] ?? '–'}/s, CPU per create ${cpu ?? '–'} ms, integer chunk ${speed ?? '–'} ms`;
    runLines.push(`- ${line}`);
    say(line);
  }

  const table = pairedTable(comparePairs(comparedFigures(runs), order, runs));
  const caution = speedCaution(runs);
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
    ...(caution ? [`**${caution}**`, ''] : []),
    table,
    '',
  ].join('\n');
  const file = path.join(REPO_ROOT, 'bench/results', `ab-${stamp}.md`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, document);
  process.stdout.write(
    `\n${caution ? `${caution}\n\n` : ''}${table}\n\nwritten to ${path.relative(REPO_ROOT, file)}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`bench:ab failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
