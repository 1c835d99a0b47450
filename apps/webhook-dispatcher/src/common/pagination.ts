import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { WebhookPage } from '@paygrid/contracts';

/** Page size 10–100 and page number from 1 (decisions §4); the gateway applies the defaults. */
export class PageDto {
  @Type(() => Number) @IsInt() @Min(10) @Max(100) page_size!: number;
  @Type(() => Number) @IsInt() @Min(1) @Max(1_000_000) page_number!: number;
}

export function offsetOf(page: PageDto): number {
  return (page.page_number - 1) * page.page_size;
}

export function pageOf<T>(data: T[], totalItems: number, page: PageDto): WebhookPage<T> {
  return { total_pages: Math.ceil(totalItems / page.page_size), total_items: totalItems, data };
}
