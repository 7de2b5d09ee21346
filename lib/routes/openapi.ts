// The API's own description: the OpenAPI document and its reference page (functions/openapi.ts).
// No key, not counted.
import type { Route } from '#lib/http/route.ts';
import { OpenApiDocument } from './schemas.ts';

export const getOpenApiDocument = {
  method: 'GET',
  path: '/api/v1/openapi.json',
  functionName: 'openapi',
  operationId: 'getOpenApiDocument',
  tag: 'Service',
  summary: 'This OpenAPI document',
  description:
    'The OpenAPI 3.1 document of the API. It needs no key and is the same for every caller: it ' +
    'describes the API, nothing of any organization. Not counted by the organization limits; ' +
    "API Gateway's throttling of the whole stage applies to it as to every route (429).",
  access: { credentials: [] },
  responses: [{ status: 200, schema: OpenApiDocument, description: 'The document' }],
  errors: ['RATE_LIMITED', 'INTERNAL', 'SERVICE_UNAVAILABLE'],
  limits: 'none',
} satisfies Route;

export const getReferencePage = {
  method: 'GET',
  path: '/docs',
  functionName: 'openapi',
  operationId: 'getReferencePage',
  tag: 'Service',
  summary: 'The API reference page',
  description:
    'This document rendered for people (Redoc: search, every operation and schema, examples). The ' +
    'page carries its renderer and loads nothing but the document from the same base address. No ' +
    "key; not counted by the organization limits, only by API Gateway's throttling of the stage.",
  access: { credentials: [] },
  responses: [{ status: 200, page: true, description: 'The reference page (HTML)' }],
  errors: ['RATE_LIMITED', 'INTERNAL', 'SERVICE_UNAVAILABLE'],
  limits: 'none',
} satisfies Route;
