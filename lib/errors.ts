// The one error catalogue: every error the API can return, with its HTTP status and the
// codes of both documented envelope shapes (docs/design.md "Errors"). Nothing else builds an
// error body; domain code throws `ServiceError` with a kind from this table.

export const errorCatalogue = {
  VALIDATION: {
    status: 400,
    code: 'VALIDATION_ERROR',
    errorCode: 'VALIDATION_ERROR',
    message: 'Request validation failed',
  },
  /** A connected database's connection test failed (spec: 422, details code CONNECTION_FAILED). */
  CONNECTION_TEST_FAILED: {
    status: 422,
    code: 'VALIDATION_ERROR',
    errorCode: 'VALIDATION_ERROR',
    message: 'The connection test failed',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    code: 'VALIDATION_ERROR',
    errorCode: 'VALIDATION_ERROR',
    message: 'Request body is larger than 1 MB',
  },
  INVALID_CREDENTIALS: {
    status: 401,
    code: 'UNAUTHORIZED',
    errorCode: 'AUTH_INVALID_CREDENTIALS',
    message: 'Missing or invalid credentials',
  },
  TOKEN_EXPIRED: {
    status: 401,
    code: 'UNAUTHORIZED',
    errorCode: 'AUTH_TOKEN_EXPIRED',
    message: 'The access token has expired',
  },
  TOKEN_INVALID: {
    status: 401,
    code: 'UNAUTHORIZED',
    errorCode: 'AUTH_TOKEN_INVALID',
    message: 'The access token is invalid',
  },
  SCOPE_REQUIRED: {
    status: 403,
    code: 'FORBIDDEN',
    errorCode: 'AUTH_INSUFFICIENT_PERMISSIONS',
    message: 'The X-Scope-Id header is required on this endpoint',
  },
  FORBIDDEN: {
    status: 403,
    code: 'FORBIDDEN',
    errorCode: 'AUTH_INSUFFICIENT_PERMISSIONS',
    message: 'This credential is not allowed to use this endpoint',
  },
  PLAN_FEATURE_REQUIRED: {
    status: 403,
    code: 'PLAN_FEATURE_REQUIRED',
    errorCode: 'BUSINESS_SUBSCRIPTION_REQUIRED',
    message: 'API access with an organization key needs the Starter plan or higher',
  },
  FEATURE_NOT_AVAILABLE: {
    status: 403,
    code: 'FORBIDDEN',
    errorCode: 'BUSINESS_FEATURE_NOT_AVAILABLE',
    message: 'Custom API access needs the Professional plan or higher',
  },
  INVALID_TENANT: {
    status: 403,
    code: 'INVALID_TENANT_ID',
    errorCode: 'AUTH_INSUFFICIENT_PERMISSIONS',
    message: 'Tenant validation failed',
  },
  NOT_FOUND: {
    status: 404,
    code: 'NOT_FOUND',
    errorCode: 'NOT_FOUND_RESOURCE',
    message: 'Resource not found',
  },
  CONVERSATION_NOT_FOUND: {
    status: 404,
    code: 'NOT_FOUND',
    errorCode: 'NOT_FOUND_RESOURCE',
    message: 'Conversation not found',
  },
  DATABASE_NOT_FOUND: {
    status: 404,
    code: 'DATABASE_NOT_FOUND',
    errorCode: 'NOT_FOUND_DATABASE',
    message: 'Database not found',
  },
  PERSONALITY_NOT_FOUND: {
    status: 404,
    code: 'NOT_FOUND',
    errorCode: 'NOT_FOUND_PERSONALITY',
    message: 'Personality not found',
  },
  API_KEY_NOT_FOUND: {
    status: 404,
    code: 'NOT_FOUND',
    errorCode: 'NOT_FOUND_API_KEY',
    message: 'API key not found',
  },
  JOB_NOT_FOUND: {
    status: 404,
    code: 'NOT_FOUND',
    errorCode: 'NOT_FOUND_JOB',
    message: 'Job not found',
  },
  PATTERN_NOT_FOUND: {
    status: 404,
    code: 'NOT_FOUND',
    errorCode: 'NOT_FOUND_PATTERN',
    message: 'Query pattern not found',
  },
  /** The control plane: a second database of the same name, a second pattern for one question. */
  DUPLICATE_ENTRY: {
    status: 400,
    code: 'DUPLICATE_ENTRY',
    errorCode: 'BUSINESS_DUPLICATE_ENTRY',
    message: 'An entry with the same name already exists',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    errorCode: 'VALIDATION_ERROR',
    message: 'Method not allowed on this route',
  },
  RATE_LIMITED: {
    status: 429,
    code: 'RATE_LIMIT_EXCEEDED',
    errorCode: 'QUOTA_RATE_LIMIT_EXCEEDED',
    message: 'Too many requests',
  },
  MONTHLY_QUOTA_EXCEEDED: {
    status: 429,
    code: 'RATE_LIMIT_EXCEEDED',
    errorCode: 'QUOTA_MONTHLY_LIMIT_EXCEEDED',
    message: 'The monthly API quota is used up',
  },
  INDEXING_QUOTA_EXCEEDED: {
    status: 429,
    code: 'INDEXING_QUOTA_EXCEEDED',
    errorCode: 'INDEXING_QUOTA_EXCEEDED',
    message: 'The indexing quota of this billing period is used up',
  },
  DB_CONNECTION_FAILED: {
    status: 500,
    code: 'DB_CONNECTION_FAILED',
    errorCode: 'DB_CONNECTION_FAILED',
    message: 'Could not connect to the database',
  },
  DB_QUERY_FAILED: {
    status: 500,
    code: 'DB_QUERY_FAILED',
    errorCode: 'DB_QUERY_FAILED',
    message: 'The database query failed',
  },
  LLM_FAILED: {
    status: 500,
    code: 'EXTERNAL_LLM_ERROR',
    errorCode: 'EXTERNAL_LLM_ERROR',
    message: 'The language model provider failed',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    errorCode: 'SYSTEM_SERVICE_UNAVAILABLE',
    message: 'The service is temporarily unavailable; retry later',
  },
  INTERNAL: {
    status: 500,
    code: 'INTERNAL_SERVER_ERROR',
    errorCode: 'SYSTEM_INTERNAL_ERROR',
    message: 'An unexpected error occurred',
  },
} as const satisfies Record<string, { status: number; code: string; errorCode: string; message: string }>;

export type ErrorKind = keyof typeof errorCatalogue;

/** One problem with one input field, as listed in the envelope's `details` array. */
export interface FieldIssue {
  field: string;
  message: string;
  code: string;
}

export interface ServiceErrorOptions {
  /** Overrides the catalogue's message for this occurrence. */
  message?: string;
  /** Shape B `details` entries. */
  issues?: FieldIssue[];
  /** Shape A `error.details`: a short detail code or sentence (defaults to the first issue). */
  detail?: string;
  /** Extra response headers, e.g. `Retry-After` or `Allow`. */
  headers?: Record<string, string>;
  /** The underlying failure, kept for logs only. */
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly status: number;
  readonly issues: FieldIssue[];
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;

  constructor(kind: ErrorKind, options: ServiceErrorOptions = {}) {
    const entry = errorCatalogue[kind];
    super(
      options.message ?? entry.message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ServiceError';
    this.kind = kind;
    this.status = entry.status;
    this.issues = options.issues ?? [];
    this.detail = options.detail;
    this.headers = options.headers ?? {};
  }
}

export const isServiceError = (error: unknown): error is ServiceError => error instanceof ServiceError;

/** Shorthand for a 400 naming one field. */
export const invalidField = (field: string, message: string, code = 'INVALID_VALUE'): ServiceError =>
  new ServiceError('VALIDATION', { message, issues: [{ field, message, code }] });

const RETRY_AFTER_SECONDS = '2';

// AWS and network failures that mean "a dependency is down or throttling", not "we have a bug".
const unavailableNames = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'TimeoutError',
  'TransactionConflictException',
]);
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/** Maps any thrown value onto the catalogue: typed errors pass through, dependency outages become 503. */
export const toServiceError = (error: unknown): ServiceError => {
  if (isServiceError(error)) return error;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (unavailableNames.has(error.name) || (typeof code === 'string' && unavailableCodes.has(code))) {
      return new ServiceError('SERVICE_UNAVAILABLE', {
        headers: { 'Retry-After': RETRY_AFTER_SECONDS },
        cause: error,
      });
    }
  }
  return new ServiceError('INTERNAL', { cause: error });
};

/** The envelope that serves both documented error shapes (docs/design.md "Errors"). */
export interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; details: string };
  error_code: string;
  message: string;
  status_code: number;
  details: FieldIssue[];
  trace_id: string;
  timestamp: string;
}

export const errorEnvelope = (error: ServiceError, traceId: string, now = new Date()): ErrorEnvelope => {
  const entry = errorCatalogue[error.kind];
  // A 500 never shows internals: the catalogue's message only.
  const message = entry.status === 500 && error.kind === 'INTERNAL' ? entry.message : error.message;
  const details = error.detail ?? error.issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ');
  return {
    success: false,
    error: { code: entry.code, message, details: details || message },
    error_code: entry.errorCode,
    message,
    status_code: entry.status,
    details: error.issues,
    trace_id: traceId,
    timestamp: now.toISOString(),
  };
};
