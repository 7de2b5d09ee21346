// X-Scope-Id names the end-user scope (DESIGN.md "Scope"): a string or number, normalised to a
// string of 1..255 printable characters. Required on history endpoints (403 when absent).
import type { MiddlewareObj, Request } from '@middy/core';
import { invalidField, ServiceError } from '#lib/errors.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

const MAX_SCOPE_LENGTH = 255;
// Printable: no C0/C1 control characters (covers CR/LF header injection and NUL).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

export const parseScopeId = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (value.length === 0) return undefined;
  // Characters, not UTF-16 units: an emoji counts once.
  if ([...value].length > MAX_SCOPE_LENGTH) {
    throw invalidField('X-Scope-Id', `X-Scope-Id must be at most ${MAX_SCOPE_LENGTH} characters`, 'TOO_LONG');
  }
  if (controlCharacter.test(value)) {
    throw invalidField('X-Scope-Id', 'X-Scope-Id must contain printable characters only', 'INVALID_FORMAT');
  }
  return value;
};

/** X-Scope-Id, or the 403 of a route that requires it (also for routes that decide per body). */
export const requireScopeId = (scopeId: string | undefined): string => {
  if (scopeId !== undefined) return scopeId;
  throw new ServiceError('SCOPE_REQUIRED', {
    issues: [
      { field: 'X-Scope-Id', message: 'The X-Scope-Id header is required', code: 'MISSING_REQUIRED_HEADER' },
    ],
  });
};

export const scope = (options: {
  required: boolean;
}): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const scopeBefore = (request: Request<ApiEvent, ApiResult, Error, ApiContext>): void => {
    const scopeId = parseScopeId(request.context.headers['x-scope-id']);
    if (options.required) requireScopeId(scopeId);
    request.context.scopeId = scopeId;
  };
  return { before: scopeBefore };
};
