import { SetMetadata } from '@nestjs/common';

/**
 * Reference text of one route (summary, description, tag). Optional: without it the reference
 * derives a summary from the handler name. The request shapes come from the DTOs themselves.
 */
export const API_OPERATION = 'paygrid:api-operation';

export interface ApiOperationDoc {
  summary: string;
  description?: string;
  tag?: string;
}

export const ApiOperation = (doc: ApiOperationDoc) =>
  SetMetadata<string, ApiOperationDoc>(API_OPERATION, doc);
