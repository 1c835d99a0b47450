import { WebhookEndpointView } from '@paygrid/contracts';
import { Endpoint } from './endpoint.types';

/** Domain → wire. The signing secret is never part of the view (create and rotate add it once). */
export function presentEndpoint(endpoint: Endpoint): WebhookEndpointView {
  return {
    endpoint_id: endpoint.endpointId,
    account_id: endpoint.accountId,
    url: endpoint.url,
    description: endpoint.description,
    event_names: [...endpoint.eventNames],
    include_sub_accounts: endpoint.includeSubAccounts,
    status: endpoint.status === 'DISABLED' ? 'DISABLED' : 'ENABLED',
    disabled_reason: endpoint.disabledReason,
    disabled_time: endpoint.disabledAt?.toISOString() ?? null,
    failing_since: endpoint.failingSince?.toISOString() ?? null,
    create_time: endpoint.createdAt.toISOString(),
    update_time: endpoint.updatedAt.toISOString(),
  };
}
