import { EndpointStatus } from './endpoint.states';

/**
 * A merchant's webhook endpoint (table webhook_endpoints; all SQL in EndpointRepository). It belongs to
 * the account that created it; `masterAccountId` is kept for the operational event when it is disabled.
 * Its signing secrets live in webhook_endpoint_secrets: several are active during a rotation.
 */
export interface Endpoint {
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

/**
 * A webhook_endpoints row as Postgres returns it; timestamps are strings when the row went through
 * to_jsonb (a delivery's claim reads its endpoint that way).
 */
export type EndpointRow = {
  endpoint_id: string;
  account_id: string;
  master_account_id: string;
  url: string;
  description: string | null;
  event_names: string[];
  include_sub_accounts: boolean;
  status: EndpointStatus;
  disabled_reason: string | null;
  disabled_at: Date | string | null;
  failing_since: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
};
