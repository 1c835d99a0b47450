import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { buildAsyncApiDocument } from './asyncapi-document';
import { buildOpenApiDocument } from './openapi-document';

/**
 * Serves the references, all public: the OpenAPI 3.1 document of the HTTP API at /api/openapi.json
 * with Swagger UI at /api/docs (served from the npm package: no CDN, works offline), and the AsyncAPI
 * 3.0 document of the bus at /api/asyncapi.json. Both are built once, at boot, from the code.
 */
export const OPENAPI_PATH = '/api/openapi.json';
export const ASYNCAPI_PATH = '/api/asyncapi.json';

export function serveApiReference(app: NestFastifyApplication): void {
  const version = process.env.npm_package_version ?? '0.1.0';
  const openApi = buildOpenApiDocument(app, version);
  const asyncApi = buildAsyncApiDocument(version);
  SwaggerModule.setup('api/docs', app, openApi, {
    jsonDocumentUrl: OPENAPI_PATH.slice(1),
    raw: ['json'],
    swaggerOptions: { docExpansion: 'list', deepLinking: true },
  });
  app
    .getHttpAdapter()
    .getInstance()
    .get(ASYNCAPI_PATH, async () => asyncApi);
}
