import { Page } from '@paygrid/contracts';

/** The wire page (wire-compat §8) of one slice of a list. */
export function pageOf<T>(data: T[], totalItems: number, pageSize: number): Page<T> {
  return { total_pages: Math.ceil(totalItems / pageSize), total_items: totalItems, data };
}
