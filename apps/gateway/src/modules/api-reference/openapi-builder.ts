import { RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { ROUTE_POLICY, RoutePolicy } from '../auth/route-policy.decorator';
import { API_OPERATION, ApiOperationDoc } from './api-operation.decorator';
import { REFERENCE_DESCRIPTION } from './reference-text';

/**
 * Builds the OpenAPI 3.1 document from what the gateway really serves: every route of every
 * controller under /v1 or /v2 (read from Nest's routing metadata), its request DTOs as JSON Schema
 * (derived from the class-validator rules the ValidationPipe enforces, via class-validator-jsonschema),
 * and its authentication policy. Nothing is listed by hand, so the reference cannot drift from the code.
 */
type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

interface Operation {
  method: string;
  path: string;
  operation: Record<string, unknown>;
}

const METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};

export function buildOpenApiDocument(controllers: Type<unknown>[], version: string): Record<string, unknown> {
  const schemas = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' }) as Record<
    string,
    JsonSchema
  >;
  const operations = controllers.flatMap((controller) => operationsOf(controller, schemas));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, path, operation } of operations) paths[path] = { ...paths[path], [method]: operation };
  return {
    openapi: '3.1.0',
    info: { title: 'Paygrid API', version, description: REFERENCE_DESCRIPTION },
    servers: [{ url: '/api', description: 'this gateway' }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: { ...schemas, ...ERROR_SCHEMAS },
      securitySchemes: {
        authToken: {
          type: 'apiKey',
          in: 'header',
          name: 'x-auth-token',
          description: 'Bearer <auth_token from /v1/connect/token>',
        },
        clientId: { type: 'apiKey', in: 'header', name: 'x-client-id' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
    },
  };
}

function operationsOf(controller: Type<unknown>, schemas: Record<string, JsonSchema>): Operation[] {
  const base = firstPath(Reflect.getMetadata(PATH_METADATA, controller));
  const prototype = controller.prototype as Record<string, unknown>;
  const operations: Operation[] = [];
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const handler = prototype[name];
    if (name === 'constructor' || typeof handler !== 'function') continue;
    const methodEnum = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    const method = methodEnum === undefined ? undefined : METHODS[methodEnum];
    if (!method) continue;
    for (const routePath of pathsOf(Reflect.getMetadata(PATH_METADATA, handler))) {
      const full = `/${[base, routePath].filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/\/$/, '');
      if (!/^\/v\d+\//.test(full) || full.includes('*')) continue;
      const openApiPath = full.replace(/:([A-Za-z_]+)/g, '{$1}');
      operations.push({
        method,
        path: openApiPath,
        operation: describe(controller, name, handler, method, schemas),
      });
    }
  }
  return operations;
}

function describe(
  controller: Type<unknown>,
  name: string,
  handler: object,
  method: string,
  schemas: Record<string, JsonSchema>,
): Record<string, unknown> {
  const doc = Reflect.getMetadata(API_OPERATION, handler) as ApiOperationDoc | undefined;
  const policy = (Reflect.getMetadata(ROUTE_POLICY, handler) ??
    Reflect.getMetadata(ROUTE_POLICY, controller) ??
    {}) as RoutePolicy;
  const { body, query, params } = dtoTypes(controller, name);
  const parameters = [
    ...fromSchema(params, 'path', schemas),
    ...fromSchema(query, 'query', schemas),
    ...headerParameters(method, policy),
  ];
  const operation: Record<string, unknown> = {
    operationId: `${controller.name.replace(/Controller$/, '')}_${name}`,
    summary: doc?.summary ?? sentence(name),
    tags: [doc?.tag ?? controller.name.replace(/Controller$/, '')],
    parameters,
    responses: {
      '200': { description: 'the resource, at the top level (no data wrapper)' },
      '400': errorResponse(
        'validation, domain or idempotency error (envelope A) or unparseable body (envelope B)',
      ),
      '401': errorResponse('missing, invalid or expired token; IP not allowed'),
      '429': errorResponse('rate limited; see Retry-After'),
      '500': errorResponse('api_error: safe to retry with the same idempotency key'),
    },
  };
  if (doc?.description) operation.description = doc.description;
  if (policy.public) operation.security = [{ clientId: [], apiKey: [] }];
  else operation.security = [policy.requiresClientId ? { authToken: [], clientId: [] } : { authToken: [] }];
  if (body && schemas[body.name]) {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${body.name}` } } },
    };
  }
  return operation;
}

function dtoTypes(
  controller: Type<unknown>,
  name: string,
): { body?: Type<unknown>; query?: Type<unknown>; params?: Type<unknown> } {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
    string,
    { index: number }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ??
    []) as Type<unknown>[];
  const found: { body?: Type<unknown>; query?: Type<unknown>; params?: Type<unknown> } = {};
  for (const [key, { index }] of Object.entries(args)) {
    const kind = Number(key.split(':')[0]);
    const type = types[index];
    if (!type || type === Object) continue;
    if (kind === RouteParamtypes.BODY) found.body = type;
    if (kind === RouteParamtypes.QUERY) found.query = type;
    if (kind === RouteParamtypes.PARAM) found.params = type;
  }
  return found;
}

function fromSchema(
  type: Type<unknown> | undefined,
  where: 'path' | 'query',
  schemas: Record<string, JsonSchema>,
) {
  const schema = type ? resolveSchema(type, schemas) : undefined;
  if (!schema?.properties) return [];
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (schema.required ?? []).includes(name),
    schema: property,
  }));
}

/** A DTO's own schema merged with its base classes' (class-validator-jsonschema lists each class once). */
function resolveSchema(type: Type<unknown>, schemas: Record<string, JsonSchema>): JsonSchema | undefined {
  const own = schemas[type.name];
  const parent = Object.getPrototypeOf(type) as Type<unknown> | null;
  const inherited = parent && parent.name ? resolveSchema(parent, schemas) : undefined;
  if (!own && !inherited) return undefined;
  return {
    properties: { ...inherited?.properties, ...own?.properties },
    required: [...(inherited?.required ?? []), ...(own?.required ?? [])],
  };
}

function headerParameters(method: string, policy: RoutePolicy) {
  const headers: Record<string, unknown>[] = [];
  if (method === 'post' && !policy.public) {
    headers.push({
      name: 'x-idempotency-key',
      in: 'header',
      required: true,
      schema: { type: 'string', format: 'uuid' },
    });
  }
  if (!policy.public) {
    headers.push({
      name: 'x-on-behalf-of',
      in: 'header',
      required: false,
      description: 'uuid of a sub-account of the caller master account',
      schema: { type: 'string', format: 'uuid' },
    });
  }
  return headers;
}

function errorResponse(description: string) {
  return {
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeA' } } },
  };
}

const ERROR_SCHEMAS = {
  ErrorEnvelopeA: {
    type: 'object',
    required: ['type', 'code', 'message'],
    properties: { type: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
  },
  ErrorEnvelopeB: {
    type: 'object',
    required: ['code', 'message'],
    properties: { code: { type: 'integer' }, message: { type: 'string' } },
  },
};

function firstPath(value: unknown): string {
  return pathsOf(value)[0] ?? '';
}

function pathsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined ? [''] : [String(value)];
}

function sentence(name: string): string {
  const words = name
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
