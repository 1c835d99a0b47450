import { ResourceId } from '@paygrid/contracts';

/**
 * The path parameter of the acquiring routes. Bodies and queries are the command payload classes of
 * libs/contracts (acquiring.payloads.ts), so the gateway and the service apply the same rules.
 */
export class ResourceIdParam {
  @ResourceId() id!: string;
}
