import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, REPO_ROOT } from './app-process';

/**
 * A Kafka broker of one's own, for tests that stop and start the broker (a broker outage) without
 * touching the shared one everybody else's tests and stacks run on. It is the same single-node KRaft
 * broker as `npm start`'s (deploy/local/kafka/kafka-up.sh), on free ports, in `.kafka/brokers/<name>/`,
 * with the jars of the repository's `.kafka/lib-<version>` (downloaded there on first use). Its data
 * survives `stop`/`start`, as a real broker's does; `destroy` stops it and deletes the data.
 */
const run = promisify(execFile);
const SCRIPTS = path.join(REPO_ROOT, 'deploy/local/kafka');
const KAFKA_VERSION = process.env.KAFKA_VERSION ?? '3.9.2';

export class LocalBroker {
  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly controllerPort: number,
  ) {}

  /** Starts a new broker named `name` (its folder under .kafka/brokers) on free ports. */
  static async start(name: string): Promise<LocalBroker> {
    const broker = new LocalBroker(name, await freePort(), await freePort());
    await broker.start();
    return broker;
  }

  /** For KAFKA_BROKERS. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get brokers(): string[] {
    return [this.address];
  }

  /** The broker's folder (data, logs, pid). */
  get baseDir(): string {
    return path.join(REPO_ROOT, '.kafka/brokers', this.name);
  }

  /** Starts it (again, keeping its data); resolves once it serves requests. */
  async start(): Promise<void> {
    await this.script('kafka-up.sh');
  }

  /** Stops it cleanly (SIGTERM, as kafka-down.sh does), keeping its data. */
  async stop(): Promise<void> {
    await this.script('kafka-down.sh');
  }

  /** Stops it and deletes its data. */
  async destroy(): Promise<void> {
    await this.script('kafka-reset.sh');
  }

  private async script(name: string): Promise<void> {
    await run('bash', [path.join(SCRIPTS, name)], {
      env: {
        ...process.env,
        KAFKA_PORT: String(this.port),
        KAFKA_CONTROLLER_PORT: String(this.controllerPort),
        KAFKA_BASE_DIR: this.baseDir,
        KAFKA_LIB_DIR: path.join(REPO_ROOT, '.kafka', `lib-${KAFKA_VERSION}`),
        // A second broker beside the shared one: less heap, it serves one test's traffic.
        KAFKA_HEAP_OPTS: process.env.KAFKA_HEAP_OPTS ?? '-Xms128m -Xmx384m',
      },
      timeout: 180_000,
    });
  }
}
