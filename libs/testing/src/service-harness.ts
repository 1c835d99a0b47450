import { DynamicModule, Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Actor, CommandFamily, CommandReply } from '@paygrid/contracts';
import {
  appDescriptor,
  AppName,
  CommonConfig,
  ConfigOf,
  createHttpApp,
  loadConfig,
  StartOptions,
} from '@paygrid/platform';
import { TestCommandClient, TestSendOptions } from './command-client';
import { EventReader } from './event-stream';
import { deleteRedisKeys } from './redis-keys';
import { createTestDatabase, TestDatabase } from './test-database';
import { TestStack } from './test-stack';

/**
 * Boots one service app in-process for an integration test, against the real Kafka, Postgres and Redis:
 * the app's own root module and config schema (given by the test: this library never imports an app),
 * a throwaway database, a Kafka stack of its own (TestStack: topics and groups no other test file or
 * running stack sees), a command client that sends on the app's command topic and returns raw replies,
 * a reader of the app's event topic, and a shutdown that removes what it made. Several apps of one test
 * share a stack by passing it in.
 */
export interface ServiceHarnessOptions<S extends CommonConfig> {
  app: AppName;
  /** The app's config schema (every app's extends the common one). */
  configSchema: S;
  /** The app's root module for a config, e.g. `(config) => AccountsModule.register(config)`. */
  module: (config: ConfigOf<S>) => DynamicModule | Type<unknown>;
  /** The app's own settings for tests (test-speed timings, queue prefixes), over the harness's. */
  env?: Record<string, string>;
  /** Join this stack (kept on close); by default the harness makes one and deletes it on close. */
  stack?: TestStack;
  /** Use this database (kept on close); by default a throwaway one named after the app's, dropped on close. */
  database?: TestDatabase;
  /** Answer commands on the app's command topic (default: when it owns a command family). */
  consumesCommands?: boolean;
  /** Redis key prefixes the app writes under (its BullMQ queue): deleted whenever the app stops. */
  redisPrefixes?: (config: ConfigOf<S>) => string[];
  /** Extra HTTP setup, as the app's main does it (global prefix, pipes). */
  configure?: StartOptions['configure'];
}

export class ServiceHarness<S extends CommonConfig> {
  private running?: { app: NestFastifyApplication; config: ConfigOf<S> };
  private reader?: Promise<EventReader>;

  private constructor(
    private readonly options: ServiceHarnessOptions<S>,
    readonly stack: TestStack,
    readonly database: TestDatabase,
    private readonly owns: { stack: boolean; database: boolean },
  ) {}

  /** Stack and database, without the app (for tests that begin with it down). */
  static async create<S extends CommonConfig>(options: ServiceHarnessOptions<S>): Promise<ServiceHarness<S>> {
    const stack = options.stack ?? (await TestStack.create(options.app));
    const database = options.database ?? (await createTestDatabase(appDescriptor(options.app).database));
    return new ServiceHarness(options, stack, database, {
      stack: !options.stack,
      database: !options.database,
    });
  }

  /** Creates everything and starts the app; resolves once it answers a ping if it consumes commands. */
  static async start<S extends CommonConfig>(options: ServiceHarnessOptions<S>): Promise<ServiceHarness<S>> {
    const harness = await ServiceHarness.create(options);
    try {
      await harness.startApp();
    } catch (error) {
      await harness.close();
      throw error;
    }
    return harness;
  }

  get app(): NestFastifyApplication {
    return this.current().app;
  }

  get config(): ConfigOf<S> {
    return this.current().config;
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  get family(): CommandFamily {
    const family = appDescriptor(this.options.app).family;
    if (!family) throw new Error(`${this.options.app} owns no command family`);
    return family;
  }

  /** Starts the app (again) on the same database and stack; `env` adds to the options' env. */
  async startApp(env: Record<string, string> = {}): Promise<void> {
    if (this.running) throw new Error(`${this.options.app} is already running`);
    const config = loadConfig(this.options.configSchema, {
      ...this.stack.appEnv(this.database.url),
      ...this.options.env,
      ...env,
    });
    const consumesCommands = this.consumesCommands();
    const app = await createHttpApp({
      app: this.options.app,
      module: this.options.module(config),
      config: config as ConfigOf<CommonConfig>,
      consumesCommands,
      configure: this.options.configure,
    });
    this.running = { app, config };
    await app.init();
    if (consumesCommands) {
      await app.startAllMicroservices();
      await (await this.commands()).ready(this.family);
    }
  }

  /** Stops the app as a shutdown would (its Redis keys go too); the database and stack stay. */
  async stopApp(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    await running.app.close();
    for (const prefix of this.options.redisPrefixes?.(running.config) ?? []) await deleteRedisKeys(prefix);
  }

  async restartApp(env: Record<string, string> = {}): Promise<void> {
    await this.stopApp();
    await this.startApp(env);
  }

  /** The stack's command client, for commands to other families too. */
  commands(): Promise<TestCommandClient> {
    return this.stack.commands();
  }

  /** A command to the app's family; the raw reply. */
  async send<R = unknown>(
    type: string,
    payload: unknown,
    options: TestSendOptions,
  ): Promise<CommandReply<R>> {
    return (await this.commands()).send<R>(this.family, type, payload, options);
  }

  /** A mutating command with a fresh command id. */
  async mutate<R = unknown>(
    type: string,
    payload: unknown,
    options: { actor: Actor | null },
  ): Promise<CommandReply<R>> {
    return (await this.commands()).mutate<R>(this.family, type, payload, options);
  }

  /** The reader of the app's event topic (opened on first use, from the topic's beginning). */
  events(): Promise<EventReader> {
    this.reader ??= this.stack.eventReader(this.family);
    return this.reader;
  }

  async close(): Promise<void> {
    await this.stopApp();
    if (this.owns.database) await this.database.drop();
    if (this.owns.stack) await this.stack.close();
  }

  private consumesCommands(): boolean {
    return this.options.consumesCommands ?? appDescriptor(this.options.app).family !== undefined;
  }

  private current(): { app: NestFastifyApplication; config: ConfigOf<S> } {
    if (!this.running) throw new Error(`${this.options.app} is not running`);
    return this.running;
  }
}
