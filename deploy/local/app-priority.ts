import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { APP_CATALOG, AppName } from '@paygrid/platform';
import { MachineProbe } from './machine-probe';

/**
 * The CPU weight (nice value) the launcher gives each app: the webhook dispatcher -10, the gateway 5, the others
 * 0, unless PAYGRID_APP_NICE says otherwise (`webhook-dispatcher=-10,payouts=5`; `none` for every app at 0).
 *
 * Why: on a box whose cores every process shares (`npm start`, the bench, a small VM), a webhook waits for
 * the dispatcher's turn at the CPU twice: to take its event in and to send it. Under the create bench's
 * saturating load, with every app at the same weight, those turns were most of a webhook's time (broker and
 * intake stages p99 ~55–95 ms each; commit → receiver p99 140–186 ms against issue 12's 100). At nice -10
 * (about nine times the weight of a nice-0 process) the dispatcher runs soon after it wakes: in four alternated
 * pairs the two stages fell to p99 21–30 ms and the webhook p99 to 95–116 ms (docs/performance.md §28).
 * The price: the dispatcher wakes for smaller batches (intake commits per create ~0.72 → ~0.94); the create
 * rate and CPU per create did not move beyond the noise. While it drains a backlog it takes more of the cores
 * from the request path than at equal weight (at most about one: it is one event loop with bounded sends).
 *
 * The gateway at 5 (a little over half the weight of a nice-0 process) is the other half of the same rule: when
 * the cores are saturated, work already in flight (a create's events on their way to the receivers) goes before
 * new requests are admitted. In six of six alternated pairs (two A/Bs) the webhook p99 fell with it (147 -> 133 ms
 * in the A/B of the gateway alone), and neither the create rate, the CPU per create, nor a lone create's latency
 * got worse beyond the noise (docs/performance.md §41). A lone request on an idle box does not notice: nice only
 * orders processes that wait for a core.
 *
 * In Kubernetes each app has its own CPU request, the real form of this weight; the image leaves nice alone.
 *
 * Raising a process's weight (a negative value) needs CAP_SYS_NICE. Where the launcher may not (a non-root
 * developer), negative values are left out and the app runs at 0, the behaviour before this existed; a
 * positive value (less weight) needs no privilege. Set through coreutils' `nice` in front of the command,
 * so every thread of the app inherits it from its first instruction (Linux keeps a nice value per thread).
 */
export const DEFAULT_APP_NICE: Readonly<Partial<Record<AppName, number>>> = { 'webhook-dispatcher': -10, gateway: 5 };

const NICE_PATHS = ['/usr/bin/nice', '/bin/nice'];

/** Whether `nice` is a value Linux takes for a nice level: an integer from -20 (most weight) to 19. */
export function isNiceValue(nice: number): boolean {
  return Number.isInteger(nice) && nice >= -20 && nice <= 19;
}
const APP_NAMES = new Set<string>(APP_CATALOG.map((app) => app.name));

/** PAYGRID_APP_NICE: the defaults when unset or empty, none with `none`, else `app=value` pairs; anything else is refused. */
export function appNiceValues(raw = process.env.PAYGRID_APP_NICE): Map<AppName, number> {
  const value = (raw ?? '').trim();
  if (value === '') return new Map(Object.entries(DEFAULT_APP_NICE) as [AppName, number][]);
  if (value === 'none') return new Map();
  const values = new Map<AppName, number>();
  for (const pair of value.split(',')) {
    const match = /^\s*([a-z-]+)\s*=\s*(-?\d+)\s*$/.exec(pair);
    const nice = match ? Number(match[2]) : NaN;
    if (!match || !APP_NAMES.has(match[1]) || !isNiceValue(nice))
      throw new Error(
        `PAYGRID_APP_NICE must be "none" or app=value pairs (apps: ${[...APP_NAMES].join(', ')}; values -20..19), got "${value}"`,
      );
    values.set(match[1] as AppName, nice);
  }
  return values;
}

/** Whether `nice -n -1 nice` runs here at -1: the launcher may raise a process's weight. */
function mayRaise(nice: string): boolean {
  const run = spawnSync(nice, ['-n', '-1', nice], { encoding: 'utf8', timeout: 5_000 });
  // coreutils' nice warns and runs the command anyway when refused: the value the child reports tells.
  return run.status === 0 && run.stdout.trim() === '-1';
}

/** Where the launcher may set a nice value: the `nice` binary, and whether negative values are allowed. */
export interface NiceTool {
  path: string;
  mayRaise: boolean;
}

/** coreutils' `nice` where it exists, and whether it may raise a weight here; null without one. */
export function workingNice(
  find: () => string | null = () => NICE_PATHS.find((candidate) => existsSync(candidate)) ?? null,
  tryRaise: (nice: string) => boolean = mayRaise,
): NiceTool | null {
  const path = find();
  return path === null ? null : { path, mayRaise: tryRaise(path) };
}

const niceProbe = new MachineProbe<NiceTool | null>();

/** workingNice, found and tried once per process. */
export function usableNice(): NiceTool | null {
  return niceProbe.get(() => workingNice());
}

/** The nice value `app` gets here: its configured value, or null where it is 0 or may not be set. */
export function effectiveNice(
  app: AppName,
  values: Map<AppName, number> = appNiceValues(),
  tool: NiceTool | null = usableNice(),
): number | null {
  const nice = values.get(app) ?? 0;
  if (nice === 0 || tool === null || (nice < 0 && !tool.mayRaise)) return null;
  return nice;
}

/** The command and arguments that run `command args` at nice `nice` (unchanged for null). */
export function underNice(
  command: string,
  args: string[],
  nice: number | null,
  tool: NiceTool | null,
): { command: string; args: string[] } {
  if (nice === null || tool === null) return { command, args };
  // `nice -n N cmd …` sets the value, then execs cmd: the child keeps its pid, signals and exit code.
  return { command: tool.path, args: ['-n', String(nice), command, ...args] };
}

/** The apps' nice values as they apply here, for the bench's record of the machine ('' when all are 0). */
export function appsNiceName(apps: readonly AppName[] = APP_CATALOG.map((app) => app.name)): string {
  return apps
    .flatMap((app) => {
      const nice = effectiveNice(app);
      return nice === null ? [] : [`${app} nice ${nice}`];
    })
    .join(', ');
}
