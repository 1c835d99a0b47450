import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { JOB_HANDLER, JOB_RECORD } from './handle-job.decorator';
import { JobHandler, JobRecord } from './job.types';

/**
 * Who handles which job kind, found once at boot among the app's providers (`@HandleJob` methods,
 * `@DurableJobRecord` classes). Two handlers or two records for one kind, or an own record without a
 * handler, fail the boot: a kind is handled in exactly one place.
 */
@Injectable()
export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly records = new Map<string, JobRecord>();
  private found = false;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  discover(): void {
    if (this.found) return;
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const recordKind = this.reflector.get<string | undefined>(JOB_RECORD, instance.constructor);
      if (recordKind !== undefined) this.addRecord(recordKind, instance as unknown as JobRecord);
      for (const methodName of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const method = instance[methodName];
        if (typeof method !== 'function') continue;
        const kind = this.reflector.get<string | undefined>(JOB_HANDLER, method);
        if (kind !== undefined) this.addHandler(kind, (method as JobHandler).bind(instance));
      }
    }
    const orphans = [...this.records.keys()].filter((kind) => !this.handlers.has(kind));
    if (orphans.length > 0) throw new Error(`no @HandleJob handler for job kind(s) ${orphans.join(', ')}`);
    this.found = true;
  }

  /** False until the app has booted (handlers are found once every provider exists). */
  get discovered(): boolean {
    return this.found;
  }

  handlerOf(kind: string): JobHandler | undefined {
    return this.handlers.get(kind);
  }

  /** The kind's own record, or undefined when its record is a `durable_jobs` row. */
  recordOf(kind: string): JobRecord | undefined {
    return this.records.get(kind);
  }

  ownRecords(): [string, JobRecord][] {
    return [...this.records.entries()];
  }

  kinds(): string[] {
    return [...this.handlers.keys()].sort();
  }

  private addHandler(kind: string, handler: JobHandler): void {
    if (this.handlers.has(kind)) throw new Error(`two handlers claim job kind ${kind}`);
    this.handlers.set(kind, handler);
  }

  private addRecord(kind: string, record: JobRecord): void {
    if (this.records.has(kind)) throw new Error(`two records claim job kind ${kind}`);
    if (typeof record.dueRuns !== 'function')
      throw new Error(`the record of job kind ${kind} has no dueRuns`);
    this.records.set(kind, record);
  }
}
