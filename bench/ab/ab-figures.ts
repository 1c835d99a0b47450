import { TARGETS } from '../targets';
import { ChunkKind, CHUNK_KINDS, speedFigureName } from '../cpu-probe';
import { Figure, RunFigures } from './ab-compare';

/**
 * What `npm run bench:ab` compares two arms by, read from each run's result document (bench/results/only-*.json):
 * issue 12's targets, the two sides of the ratios, and where a create's CPU went.
 */

/** The two figures a run is compared by besides the targets' own: the ratio's two sides. */
export const BASELINE = 'postgres create-like tx/s (the baseline)';
export const C16_RATE = 'create-intent c16 /s';
/**
 * The echo ratio's two sides, when the http section ran. A change to the gateway's request path should move
 * the echo and leave the no-op where it was: a no-op that moved too says the machine did (§34).
 */
const HTTP_RATES: { label: string; result: string; better: Figure['better'] }[] = [
  { label: 'gateway no-op c64 /s', result: 'http_noop_c64', better: 'none' },
  {
    label: 'authenticated idempotent echo c64 /s',
    result: 'gateway_authenticated_idempotent_c64',
    better: 'higher',
  },
];

/**
 * The machine's speed during the baseline and the c16 run (bench/cpu-probe.ts): not a result of either arm,
 * but it says whether a pair's two runs met the same machine.
 */
const SPEED_WINDOWS = [
  { window: 'baseline', section: 'postgres_commit' },
  { window: 'c16', section: 'acquiring_create_intent' },
] as const;

/** The compared figure's name for a chunk kind's median in one of the probe's windows. */
function speedLabel(kind: ChunkKind, window: (typeof SPEED_WINDOWS)[number]['window']): string {
  return `CPU speed, ${kind} chunk ms (${window})`;
}

const CPU_SPEED = CHUNK_KINDS.flatMap((kind) =>
  SPEED_WINDOWS.map(({ window, section }) => ({
    label: speedLabel(kind, window),
    section,
    figure: speedFigureName(kind),
  })),
);

/** The c16 run's integer chunk: the run line's reading of the machine's speed. */
export const C16_INTEGER_SPEED = speedLabel('integer', 'c16');

/**
 * How far the probe's chunk times may spread over an A/B's runs before its time figures stop being readable:
 * on a steady machine they stay within ~10 % (1.97–2.06 ms over one record of 3 December), while a phase
 * change moves them by a factor of two or three (1.9–5.5 ms within one A/B that afternoon, §39), as much as
 * the same code's CPU per create moved.
 */
const READABLE_SPEED_SPREAD = 1.25;

/**
 * A warning when the machine's speed moved between the runs by more than READABLE_SPEED_SPREAD: the largest
 * spread of any probe figure, with its range. null when the runs met one machine (or carry no probe figures).
 */
export function speedCaution(runs: RunFigures[]): string | null {
  let widest: { label: string; low: number; high: number } | null = null;
  for (const { label } of CPU_SPEED) {
    const values = runs.map((run) => run[label]).filter((value): value is number => value > 0);
    if (values.length < 2) continue;
    const [low, high] = [Math.min(...values), Math.max(...values)];
    if (!widest || high / low > widest.high / widest.low) widest = { label, low, high };
  }
  if (!widest || widest.high / widest.low <= READABLE_SPEED_SPREAD) return null;
  const factor = (widest.high / widest.low).toFixed(1);
  return (
    `The machine's speed moved between these runs: ${widest.label} read ${widest.low}–${widest.high} (×${factor}). ` +
    'A time figure that differs between the arms by less than that is not readable from them; the counts ' +
    '(commits, row writes, WAL, wake-ups) are (docs/performance.md §31, §36).'
  );
}

/**
 * The create run's figures per create: where the CPU went (milliseconds, which move with the machine), each
 * app's garbage-collection pauses (what a runtime flag such as §36's nursery size acts on), and what the
 * create cost in counts (commits, row writes, WAL, wake-ups), which do not move with the machine: a change
 * that shows in a count shows in every pair. The WAL's full-page images and the run's checkpoints are there to
 * tell a checkpoint inside a run from a change of the code (§37). The relay's batches per create and each
 * database's backend wake-ups say where a count moved: three rounds (§40, §42, §43) turned on the relay's batch
 * size, which every consumer of the events pays for per batch. Not the apps' own wake-ups: a saturated event loop
 * rarely blocks, so they fall as the load rises (§1).
 */
const PER_CREATE =
  /^(cpu_ms_|gc_pause_ms_per_op_|commits_per_op_|row_writes_per_op_|relay_batches_per_op_|wakeups_per_op_postgres_|wal_kb_per_op$|wal_full_page_images_per_op$|wal_checkpoints_during_run$|server_wakeups_per_operation$)/;

/** What a run is compared by: issue 12's targets (the ratio where there is a baseline) and where the CPU went. */
export function figuresOf(document: {
  targets?: Record<string, { value: number | null }>;
  results?: Record<string, Record<string, number | string>>;
}): RunFigures {
  const figures: RunFigures = {};
  for (const [name, { value }] of Object.entries(document.targets ?? {}))
    if (typeof value === 'number') figures[name] = value;
  const results = document.results ?? {};
  const baseline = results.postgres_commit?.transactions_per_second;
  if (typeof baseline === 'number') figures[BASELINE] = baseline;
  for (const { label, result } of HTTP_RATES) {
    const rate = results[result]?.requests_per_second;
    if (typeof rate === 'number') figures[label] = rate;
  }
  for (const { label, section, figure } of CPU_SPEED) {
    const milliseconds = results[section]?.[figure];
    if (typeof milliseconds === 'number') figures[label] = milliseconds;
  }
  for (const [figure, value] of Object.entries(results.acquiring_create_intent ?? {})) {
    if (typeof value !== 'number') continue;
    if (figure === 'acquiring_create_intent_per_second') figures[C16_RATE] = value;
    if (PER_CREATE.test(figure)) figures[figure] = value;
  }
  return figures;
}

/** The figures the runs are compared by, in the table's order: those at least one run produced. */
export function comparedFigures(runs: RunFigures[]): Figure[] {
  const present = new Set(runs.flatMap((run) => Object.keys(run)));
  const targets: Figure[] = TARGETS.map((target) => ({
    label: target.name,
    better: target.direction === 'at_least' ? 'higher' : 'lower',
  }));
  const others: Figure[] = [
    { label: BASELINE, better: 'none' },
    { label: C16_RATE, better: 'higher' },
    ...HTTP_RATES.map(({ label, better }) => ({ label, better })),
    ...CPU_SPEED.map(({ label }) => ({ label, better: 'none' as const })),
    ...[...present]
      .filter((label) => PER_CREATE.test(label))
      .sort()
      .map((label) => ({ label, better: 'lower' as const })),
  ];
  return [...targets, ...others].filter((figure) => present.has(figure.label));
}
