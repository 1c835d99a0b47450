/** The page query of every list route: one class with the services' list commands (libs/contracts). */
export { PaginationQuery } from '@paygrid/contracts';
