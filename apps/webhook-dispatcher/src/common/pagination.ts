import { PagePayload, WebhookPage } from '@paygrid/contracts';

/** Paging arithmetic of the dispatcher's lists; the rules of a page are PagePayload's (libs/contracts). */
export function offsetOf(page: PagePayload): number {
  return (page.page_number - 1) * page.page_size;
}

export function pageOf<T>(data: T[], totalItems: number, page: PagePayload): WebhookPage<T> {
  return { total_pages: Math.ceil(totalItems / page.page_size), total_items: totalItems, data };
}
