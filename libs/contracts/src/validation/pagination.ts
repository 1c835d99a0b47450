import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * Page size 10–100 (default 10) and page number from 1 (default 1); out of range is a 400 (decisions
 * §4). The query of every list route and the page of every list command: numbers from a query string
 * are converted, so the gateway and the service read one class.
 */
export class PaginationQuery {
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
