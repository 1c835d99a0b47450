import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * Paging of every list (decisions §4): page size 10–100, default 10; page number from 1, default 1.
 * Out of range is refused, never clamped. The gateway validates its query string with this class
 * (hence the number conversion) and the services validate the command payload with it again, so the
 * rule lives here only.
 */
export const PAGE_SIZE_MIN = 10;
export const PAGE_SIZE_MAX = 100;
export const PAGE_NUMBER_MAX = 1_000_000;

export class PagePayload {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(PAGE_SIZE_MIN)
  @Max(PAGE_SIZE_MAX)
  page_size: number = PAGE_SIZE_MIN;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PAGE_NUMBER_MAX)
  page_number: number = 1;
}
