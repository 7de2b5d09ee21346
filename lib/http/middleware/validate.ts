// Validates path, query, headers and body together against one valibot schema; its output
// becomes `context.input`, typed from the schema. Each issue is reported with its place
// (`body.database_id`, `query.limit`, `path.conversation_id`, `header.x-tenant-id`).
import type { MiddlewareObj, Request } from '@middy/core';
import * as v from 'valibot';
import { type FieldIssue, ServiceError } from '#lib/errors.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

export type InputSchema = v.GenericSchema<
  { path?: unknown; query?: unknown; header?: unknown; body?: unknown },
  Record<string, unknown>
>;

const issueCode = (issue: v.BaseIssue<unknown>): string => {
  switch (issue.type) {
    case 'object':
    case 'string':
    case 'number':
    case 'boolean':
    case 'array':
    case 'integer':
      return issue.input === undefined ? 'REQUIRED' : 'INVALID_TYPE';
    default:
      return issue.type.toUpperCase();
  }
};

export const toFieldIssues = (issues: readonly v.BaseIssue<unknown>[]): FieldIssue[] =>
  issues.map((issue) => ({
    field: v.getDotPath(issue) ?? 'request',
    message: issue.message,
    code: issueCode(issue),
  }));

export const validateInput = <S extends InputSchema>(schema: S, raw: unknown): v.InferOutput<S> => {
  const result = v.safeParse(schema, raw);
  if (!result.success) {
    const issues = toFieldIssues(result.issues);
    throw new ServiceError('VALIDATION', {
      message: `Invalid request: ${issues.map((i) => i.field).join(', ')}`,
      issues,
    });
  }
  return result.output;
};

export const validator = <S extends InputSchema>(
  schema: S,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext & { input: v.InferOutput<S> }> => {
  const validatorBefore = (
    request: Request<ApiEvent, ApiResult, Error, ApiContext & { input: v.InferOutput<S> }>,
  ): void => {
    const { event, context } = request;
    request.context.input = validateInput(schema, {
      path: event.pathParameters ?? {},
      query: event.queryStringParameters ?? {},
      header: context.headers,
      body: context.body,
    });
  };
  return { before: validatorBefore };
};
