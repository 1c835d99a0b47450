/**
 * Page size 10–100 (default 10) and page number from 1 (default 1); out of range is a 400 (decisions §4).
 * The rule is the contract's (PagePayload in libs/contracts), which the services apply to the command
 * payload too; query DTOs of lists extend it under this name.
 */
export { PagePayload as PaginationQuery } from '@paygrid/contracts';
