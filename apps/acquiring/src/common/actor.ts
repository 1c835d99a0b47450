import { Actor, CommandEnvelope, Page } from '@paygrid/contracts';
import { PayloadReader } from './payload-reader';
import { Errors } from '@paygrid/platform';

/** Merchant commands carry the gateway's actor; the service scopes every read and write to its account. */
export function requireActor(command: CommandEnvelope): Actor {
  const actor = command.actor;
  if (actor === null || typeof actor !== 'object' || typeof actor.account_id !== 'string' || actor.account_id === '') {
    throw Errors.invalidRequest(`${command.type} needs an acting account (actor)`);
  }
  return actor;
}

/** Page size 10–100 and page number ≥ 1 were checked by the gateway; these are the defaults (decisions §4). */
export function pageWindow(pageSize: number, pageNumber: number): { limit: number; offset: number } {
  return { limit: pageSize, offset: (pageNumber - 1) * pageSize };
}

export function pageOf<T>(items: T[], total: number, pageSize: number): { total_pages: number; total_items: number; data: T[] } {
  return { total_pages: Math.ceil(total / pageSize), total_items: total, data: items };
}

export interface PageWindow {
  limit: number;
  offset: number;
}

/**
 * Every list command the same way: the acting account, page_size/page_number with their defaults, the
 * filters `readFilter` takes from the payload (all problems answered together), one page fetched and
 * presented as `{total_pages, total_items, data}` (wire-compat §8).
 */
export async function pagedList<F, T, V>(
  command: CommandEnvelope,
  readFilter: (reader: PayloadReader, actor: Actor) => F,
  fetch: (filter: F, window: PageWindow) => Promise<{ total: number; items: T[] }>,
  present: (item: T) => V | Promise<V>,
): Promise<Page<V>> {
  const actor = requireActor(command);
  const reader = PayloadReader.of(command);
  const pageSize = reader.int('page_size', 10, 100, 10);
  const pageNumber = reader.int('page_number', 1, 1_000_000, 1);
  const filter = readFilter(reader, actor);
  reader.done();
  const { total, items } = await fetch(filter, pageWindow(pageSize, pageNumber));
  return pageOf(await Promise.all(items.map(present)), total, pageSize);
}
