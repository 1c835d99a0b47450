import { EndpointStatus } from './endpoint.states';

/**
 * A merchant's webhook endpoint (table webhook_endpoints; all SQL in EndpointRepository). It belongs to
 * the account that created it; `master_account_id` is kept for the operational event when it is disabled.
 * Its signing secrets live in webhook_endpoint_secrets: several are active during a rotation.
 */
export interface EndpointEntity {
  endpointId: string;
  accountId: string;
  masterAccountId: string;
  url: string;
  description: string | null;
  eventNames: string[];
  includeSubAccounts: boolean;
  status: EndpointStatus;
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type DisableReason = 'gone' | 'failing';
