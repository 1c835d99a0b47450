import { Page, PagePayload } from '@paygrid/contracts';

/**
 * Every list the same way (wire-compat §8): the validated page_size/page_number become one LIMIT/OFFSET
 * window, and a page of rows becomes `{total_pages, total_items, data}`.
 */
export interface PageWindow {
  limit: number;
  offset: number;
}

export function pageWindow(query: PagePayload): PageWindow {
  return { limit: query.page_size, offset: (query.page_number - 1) * query.page_size };
}

export async function pageOf<T, V>(
  query: PagePayload,
  { total, items }: { total: number; items: T[] },
  present: (item: T) => V | Promise<V>,
): Promise<Page<V>> {
  return {
    total_pages: Math.ceil(total / query.page_size),
    total_items: total,
    data: await Promise.all(items.map(present)),
  };
}

/** An optional ISO 8601 filter (validated by the payload class) as a Date. */
export function timeFilter(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(value);
}
