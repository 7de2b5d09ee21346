// GET /api/v1/openapi.json: the OpenAPI 3.1 document of the API (lib/openapi), built once per
// container. It needs no key and is not rate limited: it describes the API and holds nothing of
// any organization. On the stage's default execute-api host the stage is part of the base URL.
import middy from '@middy/core';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';
import { observability } from '#lib/observability/middleware.ts';
import { buildOpenApiDocument } from '#lib/openapi/document.ts';
import { TtlCache } from '#lib/ttl-cache.ts';

// Per server URL (the execute-api host of the request); bounded, since the Host header is the caller's.
const documents = new TtlCache<string, string>(60 * 60_000, 8);

const serverUrlOf = (event: ApiEvent): string | undefined => {
  const host = event.headers?.Host ?? event.headers?.host;
  const stage = event.requestContext?.stage;
  return host && stage && /\.execute-api\.[a-z0-9-]+\.amazonaws\.com$/.test(host)
    ? `https://${host}/${stage}`
    : undefined;
};

export const handler = middy<ApiEvent, ApiResult, Error, ApiContext>()
  .use(requestId())
  .use(observability())
  .use(errorEnvelope())
  .handler(async (event) => {
    const serverUrl = serverUrlOf(event);
    const key = serverUrl ?? '';
    let body = documents.get(key);
    if (body === undefined) {
      body = JSON.stringify(buildOpenApiDocument(serverUrl === undefined ? {} : { serverUrl }));
      documents.set(key, body);
    }
    return {
      statusCode: 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
      body,
    };
  });
