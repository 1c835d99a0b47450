import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * Page size 10–100 (default 10) and page number from 1 (default 1); out of range is a 400, never a silent
 * clamp (decisions §4). One class for the query string (the gateway converts the text with @Type) and the
 * command payload (numbers), so a list's paging rule lives once.
 */
export class PageQueryPayload {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(100)
  page_size: number = 10;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page_number: number = 1;
}
