import { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { buildOpenApiDocument } from './openapi-builder';

/**
 * Serves the API reference: the OpenAPI 3.1 document at /api/openapi.json and a reference UI at
 * /api/docs (Swagger UI, served from the npm package: no CDN, works offline). Both are public.
 */
export async function serveApiReference(
  app: NestFastifyApplication,
  controllers: Type<unknown>[],
): Promise<void> {
  const document = buildOpenApiDocument(controllers, process.env.npm_package_version ?? '0.1.0');
  await app.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
  app
    .getHttpAdapter()
    .getInstance()
    .get('/api/openapi.json', async () => document);
}
