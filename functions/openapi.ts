// The API's own description (lib/routes/openapi.ts): the OpenAPI 3.1 document (lib/openapi), built
// once per container, and the API reference page that renders it (lib/openapi/page.ts). Neither
// needs a key nor is counted: they describe the API and hold nothing of any organization. On the
// stage's default execute-api host the stage is part of the base URL.
import middy from '@middy/core';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { observability } from '#lib/http/middleware/observability.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import { routeTable } from '#lib/http/route-table.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';
import { buildOpenApiDocument } from '#lib/openapi/document.ts';
import { referencePage } from '#lib/openapi/page.ts';
import * as routes from '#lib/routes/openapi.ts';
import { TtlCache } from '#lib/ttl-cache.ts';

// Per server URL (the execute-api host of the request); bounded, since the Host header is the caller's.
const documents = new TtlCache<string, string>(60 * 60_000, 8);

/** The reference page, built on first use (the renderer is about 1 MB). */
let page: string | undefined;

const serverUrlOf = (event: ApiEvent): string | undefined => {
  const host = event.headers?.Host ?? event.headers?.host;
  const stage = event.requestContext?.stage;
  return host && stage && /\.execute-api\.[a-z0-9-]+\.amazonaws\.com$/.test(host)
    ? `https://${host}/${stage}`
    : undefined;
};

/** The chain of both routes: request id, observability, the error envelope; no key, not counted. */
const chain = () =>
  middy<ApiEvent, ApiResult, Error, ApiContext>().use(requestId()).use(observability()).use(errorEnvelope());

const openApiDocument = chain().handler(async (event) => {
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

const reference = chain().handler(async () => {
  page ??= referencePage();
  return {
    statusCode: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
    body: page,
  };
});

export const handler = routeTable([
  [routes.getOpenApiDocument, (event, context) => openApiDocument(event, context as ApiContext)],
  [routes.getReferencePage, (event, context) => reference(event, context as ApiContext)],
]);
