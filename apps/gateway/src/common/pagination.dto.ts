import { PageQueryPayload } from '@paygrid/contracts';

/**
 * Page size 10–100 (default 10) and page number from 1 (default 1); out of range is a 400, not a silent
 * clamp (decisions §4). The rule is the contract's (PageQueryPayload), shared with the services' payloads.
 */
export class PaginationQuery extends PageQueryPayload {}
