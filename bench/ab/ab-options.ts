import { selectedSections } from '../sections';

/**
 * `npm run bench:ab`'s arguments. An arm is a build (a git ref, or `.` for this checkout as built) and the
 * environment its bench runs with: most of the experiments of docs/performance.md were a setting, not a
 * commit (a nice value, a Node flag, a database URL), so either may differ between the arms.
 */
export interface ArmSpec {
  ref: string;
  env: Record<string, string>;
}

export interface AbOptions {
  A: ArmSpec;
  B: ArmSpec;
  pairs: number;
  /** Bench sections, comma-separated, as `--only` takes them. */
  sections: string;
}

export const AB_USAGE =
  'npm run bench:ab -- [--base <ref>] [--head <ref>] [--env-a KEY=VALUE]… [--env-b KEY=VALUE]… [--pairs 3] [--only acquiring]';

/** Every value of `--name v` and `--name=v`, in order. */
function values(argv: string[], name: string): string[] {
  const found: string[] = [];
  argv.forEach((value, index) => {
    if (value === `--${name}`) found.push(argv[index + 1] ?? '');
    else if (value.startsWith(`--${name}=`)) found.push(value.slice(name.length + 3));
  });
  return found;
}

function single(argv: string[], name: string): string | undefined {
  const found = values(argv, name);
  if (found.length > 1) throw new Error(`--${name} given ${found.length} times`);
  return found[0];
}

function environment(assignments: string[], flag: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    if (equals <= 0) throw new Error(`${flag} takes KEY=VALUE, got "${assignment}"`);
    env[assignment.slice(0, equals)] = assignment.slice(equals + 1);
  }
  return env;
}

export function parseAbArguments(argv: string[]): AbOptions {
  const known = new Set(['--base', '--head', '--env-a', '--env-b', '--pairs', '--only']);
  const unknown = argv.filter((value) => value.startsWith('--') && !known.has(value.split('=')[0]));
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(', ')}; usage: ${AB_USAGE}`);
  const A = { ref: single(argv, 'base') ?? '.', env: environment(values(argv, 'env-a'), '--env-a') };
  const B = { ref: single(argv, 'head') ?? '.', env: environment(values(argv, 'env-b'), '--env-b') };
  if (A.ref === B.ref && JSON.stringify(A.env) === JSON.stringify(B.env)) {
    throw new Error(
      `the arms are the same build with the same settings; give --base, --head or an --env-a/--env-b. Usage: ${AB_USAGE}`,
    );
  }
  const pairs = Number(single(argv, 'pairs') ?? 3);
  const sections = selectedSections(['--only', single(argv, 'only') ?? 'acquiring']) ?? [];
  return { A, B, pairs, sections: sections.join(',') };
}

/** An arm as the report names it. */
export function armName(arm: ArmSpec, build: string): string {
  const settings = Object.entries(arm.env).map(([key, value]) => `${key}=${value}`);
  return settings.length === 0 ? build : `${build} with ${settings.join(' ')}`;
}
