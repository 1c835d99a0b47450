import { round } from './stats';

/**
 * The stack's /metrics pages, read once before and once after a measured run (every figure a run takes from
 * them comes from those two reads), and what the bench takes from them: counters, and the garbage collector's
 * pauses.
 */
export interface AppMetricsPage {
  app: string;
  url: string;
}

/** Each app's /metrics text now (a page that cannot be read fails the read, as the run's figures need it). */
export async function readMetricsPages(pages: readonly AppMetricsPage[]): Promise<Map<string, string>> {
  const texts = await Promise.all(pages.map(async ({ url }) => (await fetch(url)).text()));
  return new Map(pages.map(({ app }, index) => [app, texts[index]]));
}

/**
 * A counter's value on a /metrics page, whatever its default labels (0 when absent); with `label`, the
 * series whose labels start with it.
 */
export function counterIn(text: string, name: string, label?: string): number {
  const labels = label === undefined ? '(?:\\{[^}]*\\})?' : `\\{${label}[^}]*\\}`;
  return Number(new RegExp(`^${name}${labels} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

/**
 * The apps' garbage-collection pauses over a measured run, from each app's /metrics (prom-client's
 * `nodejs_gc_duration_seconds`, a histogram by `kind`: minor = scavenge, major = mark-compact, incremental,
 * weakcb). Its durations are wall time on the app's main thread, so on a saturated box they include the
 * collector waiting for a core (docs/performance.md §27: scavenges of 5–25 ms where one or two are usual).
 * Reported, not summed into the CPU per create: the collector's CPU is already in each process's
 * utime + stime; these say how long each app's event loop stood still, which every hop of a create and of
 * its webhooks waits behind.
 */
export interface GcTotals {
  /** Seconds paused and pauses, by kind. */
  [kind: string]: { seconds: number; count: number };
}

const GC_SERIES = /^nodejs_gc_duration_seconds_(sum|count)\{([^}]*)\} ([0-9.eE+-]+)$/gm;

/** The GC totals on one /metrics page (none when the app exports no GC histogram). */
export function gcTotalsIn(text: string): GcTotals {
  const totals: GcTotals = {};
  for (const [, part, labels, value] of text.matchAll(GC_SERIES)) {
    const kind = /(?:^|,)kind="([^"]*)"/.exec(labels)?.[1];
    if (kind === undefined) continue;
    const entry = (totals[kind] ??= { seconds: 0, count: 0 });
    if (part === 'sum') entry.seconds = Number(value);
    else entry.count = Number(value);
  }
  return totals;
}

/**
 * Per app, between two reads of its page (readMetricsPages): `gc_pause_ms_per_op_<app>` (every kind's pauses, ms per operation) and
 * `gc_scavenge_avg_ms_<app>` (the mean scavenge pause, the kind that runs every second or two under load).
 * An app missing from either read, or without the histogram, reports nothing.
 */
export function gcPerOperation(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  operations: number,
): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const [app, page] of after) {
    const earlier = before.get(app);
    if (earlier === undefined) continue;
    const end = gcTotalsIn(page);
    if (Object.keys(end).length === 0) continue;
    const start = gcTotalsIn(earlier);
    const name = app.replace(/-/g, '_');
    let pausedSeconds = 0;
    for (const [kind, total] of Object.entries(end))
      pausedSeconds += total.seconds - (start[kind]?.seconds ?? 0);
    const scavenges = (end.minor?.count ?? 0) - (start.minor?.count ?? 0);
    const scavengeSeconds = (end.minor?.seconds ?? 0) - (start.minor?.seconds ?? 0);
    figures[`gc_pause_ms_per_op_${name}`] = operations > 0 ? round((pausedSeconds * 1000) / operations) : 0;
    figures[`gc_scavenge_avg_ms_${name}`] = scavenges > 0 ? round((scavengeSeconds * 1000) / scavenges) : 0;
  }
  return figures;
}
