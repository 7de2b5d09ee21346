// The JSON body middleware (1 MB cap, content type, parse errors) and the validator (one schema
// for path, query, header and body; issues named by their place, e.g. `body.database_id`).
import middy from '@middy/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type ErrorEnvelope, isServiceError, type ServiceError } from '#lib/errors.ts';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { headerNormaliser } from '#lib/http/middleware/headers.ts';
import { jsonBody, MAX_BODY_BYTES, parseJsonBody } from '#lib/http/middleware/json-body.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import { validateInput, validator } from '#lib/http/middleware/validate.ts';
import { ok } from '#lib/http/response.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';
import { type ApiEventInit, invoke } from '../../helpers/events.ts';

// A small input schema in the style of the chat endpoints.
const MessageInput = v.object({
  path: v.object({ conversation_id: v.pipe(v.string(), v.uuid('conversation_id must be a UUID')) }),
  query: v.object({ verbose: v.optional(v.picklist(['true', 'false'])) }),
  body: v.object({
    message: v.pipe(v.string(), v.minLength(1, 'message must not be empty')),
    database_id: v.pipe(v.string(), v.uuid('database_id must be a UUID')),
  }),
});

const CONVERSATION_ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const DATABASE_ID = '0190a1b2-c3d4-7e5f-8a9b-00000000abcd';

// requestId → errorEnvelope → headers → JSON body → validator: lib/http/api.ts's chain without
// authentication and scope, which have their own tests.
const echo = middy<ApiEvent, ApiResult, Error, ApiContext & { input: v.InferOutput<typeof MessageInput> }>()
  .use(requestId())
  .use(errorEnvelope())
  .use(headerNormaliser())
  .use(jsonBody())
  .use(validator(MessageInput))
  .handler(async (_event, context) => ok(context.input));

const post = (init: ApiEventInit) =>
  invoke<ErrorEnvelope & { data: v.InferOutput<typeof MessageInput> }>(echo, {
    method: 'POST',
    path: `/api/v1/chat/${CONVERSATION_ID}/message`,
    resource: '/api/v1/chat/{conversation_id}/message',
    pathParameters: { conversation_id: CONVERSATION_ID },
    ...init,
  });

const thrownBy = (fn: () => unknown): ServiceError => {
  try {
    fn();
  } catch (error) {
    if (isServiceError(error)) return error;
    throw error;
  }
  throw new Error('expected a ServiceError, nothing was thrown');
};

describe('JSON body', () => {
  it('parses a valid body and hands the validated input to the handler', async () => {
    const response = await post({ body: { message: 'How many orders?', database_id: DATABASE_ID } });
    expect(response.statusCode).toBe(200);
    expect(response.body.data).toEqual({
      path: { conversation_id: CONVERSATION_ID },
      query: {},
      body: { message: 'How many orders?', database_id: DATABASE_ID },
    });
  });

  it('rejects malformed JSON with 400 on field body, code INVALID_JSON', async () => {
    const response = await post({
      body: '{"message": "hi", ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error_code).toBe('VALIDATION_ERROR');
    expect(response.body.details).toEqual([
      { field: 'body', message: expect.any(String), code: 'INVALID_JSON' },
    ]);
    expect(response.body.trace_id).toBe(response.headers['x-request-id']);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form encoding', 'application/x-www-form-urlencoded'],
    ['a look-alike', 'application/jsonp'],
  ])('rejects a body sent as %s with 400 VALIDATION_ERROR', async (_name, contentType) => {
    const response = await post({
      body: JSON.stringify({ message: 'hi', database_id: DATABASE_ID }),
      headers: { 'Content-Type': contentType },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body.error_code).toBe('VALIDATION_ERROR');
    expect(response.body.details[0]?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('rejects a body without a Content-Type', () => {
    const error = thrownBy(() => parseJsonBody({ body: '{}', isBase64Encoded: false }, undefined));
    expect(error.status).toBe(400);
    expect(error.issues[0]?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/vnd.api+json',
  ])('accepts Content-Type %s, whatever the header name’s case', async (contentType) => {
    const response = await post({
      body: JSON.stringify({ message: 'hi', database_id: DATABASE_ID }),
      headers: { 'content-TYPE': contentType },
    });
    expect(response.statusCode).toBe(200);
  });

  it('rejects a body over 1 MB with 413 and VALIDATION_ERROR in both code fields', async () => {
    // Arrange: valid JSON, one byte over the limit.
    const padding = 'x'.repeat(
      MAX_BODY_BYTES - JSON.stringify({ message: '', database_id: DATABASE_ID }).length + 1,
    );
    const body = JSON.stringify({ message: padding, database_id: DATABASE_ID });
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES + 1);

    // Act
    const response = await post({ body, headers: { 'Content-Type': 'application/json' } });

    // Assert
    expect(response.statusCode).toBe(413);
    expect(response.body.status_code).toBe(413);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error_code).toBe('VALIDATION_ERROR');
    expect(response.body.details[0]?.field).toBe('body');
  });

  it('accepts a body of exactly 1 MB', async () => {
    const padding = 'x'.repeat(
      MAX_BODY_BYTES - JSON.stringify({ message: '', database_id: DATABASE_ID }).length,
    );
    const body = JSON.stringify({ message: padding, database_id: DATABASE_ID });
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const response = await post({ body, headers: { 'Content-Type': 'application/json' } });
    expect(response.statusCode).toBe(200);
  });

  it('measures the size in bytes, not characters', () => {
    // 600,000 three-byte characters: under a million characters, over a million bytes.
    const body = JSON.stringify({ message: '€'.repeat(600_000) });
    expect(body.length).toBeLessThan(MAX_BODY_BYTES);
    const error = thrownBy(() => parseJsonBody({ body, isBase64Encoded: false }, 'application/json'));
    expect(error.status).toBe(413);
  });

  it('refuses a body nested deeper than 32 levels with 400 TOO_DEEP, however deep, and accepts 32', () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    expect(parseJsonBody({ body: nested(32), isBase64Encoded: false }, 'application/json')).toBeDefined();
    // 20,000 levels parse, but would overflow the stack of anything that walks them recursively.
    for (const body of [nested(33), nested(20_000), `${'['.repeat(20_000)}${']'.repeat(20_000)}`]) {
      const error = thrownBy(() => parseJsonBody({ body, isBase64Encoded: false }, 'application/json'));
      expect(error.status).toBe(400);
      expect(error.issues).toEqual([{ field: 'body', message: expect.any(String), code: 'TOO_DEEP' }]);
    }
  });

  it('decodes a base64-encoded body before parsing and measuring it', () => {
    const json = JSON.stringify({ message: 'hé', database_id: DATABASE_ID });
    const parsed = parseJsonBody(
      { body: Buffer.from(json).toString('base64'), isBase64Encoded: true },
      'application/json',
    );
    expect(parsed).toEqual({ message: 'hé', database_id: DATABASE_ID });
  });

  it('leaves an absent or empty body undefined for the validator to judge', async () => {
    expect(parseJsonBody({ body: null, isBase64Encoded: false }, undefined)).toBeUndefined();
    expect(parseJsonBody({ body: '', isBase64Encoded: false }, 'text/plain')).toBeUndefined();
    const response = await post({});
    expect(response.statusCode).toBe(400);
    expect(response.body.details).toEqual([{ field: 'body', message: expect.any(String), code: 'REQUIRED' }]);
  });
});

describe('validation issues name their place', () => {
  it('reports a missing database_id as body.database_id, REQUIRED', async () => {
    const response = await post({ body: { message: 'hi' } });
    expect(response.statusCode).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.details).toEqual([
      { field: 'body.database_id', message: expect.any(String), code: 'REQUIRED' },
    ]);
    expect(response.body.error.details).toContain('body.database_id');
  });

  it('reports every issue of body, path and query at once, each with its place', async () => {
    // Arrange
    const event: ApiEventInit = {
      pathParameters: { conversation_id: 'not-a-uuid' },
      query: { verbose: 'maybe' },
      body: { message: '', database_id: 42 },
    };

    // Act
    const response = await post(event);

    // Assert
    expect(response.statusCode).toBe(400);
    const byField = Object.fromEntries(response.body.details.map((issue) => [issue.field, issue.code]));
    expect(byField).toEqual({
      'path.conversation_id': 'UUID',
      'query.verbose': 'PICKLIST',
      'body.message': 'MIN_LENGTH',
      'body.database_id': 'INVALID_TYPE',
    });
  });

  it('validateInput returns the typed output, or throws a VALIDATION ServiceError with places', () => {
    const input = {
      path: { conversation_id: CONVERSATION_ID },
      query: {},
      body: { message: 'hi', database_id: DATABASE_ID },
    };
    expect(validateInput(MessageInput, input)).toEqual(input);

    const error = thrownBy(() =>
      validateInput(MessageInput, { ...input, body: { message: 'hi', database_id: 'nope' } }),
    );
    expect(error.kind).toBe('VALIDATION');
    expect(error.issues).toEqual([
      { field: 'body.database_id', message: 'database_id must be a UUID', code: 'UUID' },
    ]);
    expect(error.message).toContain('body.database_id');
  });

  it('names a nested field by its full path', () => {
    const Nested = v.object({ body: v.object({ metadata: v.object({ tags: v.array(v.string()) }) }) });
    const error = thrownBy(() => validateInput(Nested, { body: { metadata: { tags: ['a', 7] } } }));
    expect(error.issues.map((issue) => issue.field)).toEqual(['body.metadata.tags.1']);
  });
});
