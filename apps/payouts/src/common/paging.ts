import { Page, PagePayload } from '@paygrid/contracts';

/** LIMIT/OFFSET of a page request, and the page the API answers (wire-compat §8). */
export interface PageWindow {
  limit: number;
  offset: number;
}

export function windowOf(query: PagePayload): PageWindow {
  return { limit: query.page_size, offset: (query.page_number - 1) * query.page_size };
}

export function pageOf<T>(query: PagePayload, total: number, data: T[]): Page<T> {
  return { total_pages: Math.ceil(total / query.page_size), total_items: total, data };
}
