// Parses a JSON body with a size cap (1 MB, docs/design.md "Body size"), a nesting cap and a
// content-type check. A request without a body leaves `context.body` undefined for the validator
// to judge.
import type { MiddlewareObj, Request } from '@middy/core';
import { invalidField, ServiceError } from '#lib/errors.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Deeper bodies are refused: JSON.parse reads any depth, but JSON.stringify and every recursive
 * walk overflow the stack somewhere past a few thousand levels, and no field of the API nests
 * deeper than a few (metadata is stored as JSON text, so this is its limit too).
 */
export const MAX_BODY_DEPTH = 32;

/** The deepest nesting of arrays and objects in a parsed JSON value, walked without recursion. */
export const jsonDepth = (value: unknown): number => {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_BODY_DEPTH) return deepest;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return deepest;
};
const jsonContentType = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

export const parseJsonBody = (
  event: Pick<ApiEvent, 'body' | 'isBase64Encoded'>,
  contentType: string | undefined,
): unknown => {
  if (event.body === null || event.body === undefined || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (raw.byteLength > MAX_BODY_BYTES) {
    throw new ServiceError('PAYLOAD_TOO_LARGE', {
      issues: [
        {
          field: 'body',
          message: `The body is ${raw.byteLength} bytes; the limit is ${MAX_BODY_BYTES}`,
          code: 'TOO_LARGE',
        },
      ],
    });
  }
  if (!contentType || !jsonContentType.test(contentType)) {
    throw invalidField(
      'header.content-type',
      'Content-Type must be application/json',
      'UNSUPPORTED_MEDIA_TYPE',
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalidField('body', 'The body is not valid JSON', 'INVALID_JSON');
  }
  if (jsonDepth(body) > MAX_BODY_DEPTH) {
    throw invalidField('body', `The body nests deeper than ${MAX_BODY_DEPTH} levels`, 'TOO_DEEP');
  }
  return body;
};

export const jsonBody = (): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const jsonBodyBefore = (request: Request<ApiEvent, ApiResult, Error, ApiContext>): void => {
    request.context.body = parseJsonBody(request.event, request.context.headers['content-type']);
  };
  return { before: jsonBodyBefore };
};
