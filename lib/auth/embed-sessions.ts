// Embed sessions (docs/design.md "Embed sessions", docs/widget.md): the widget on a database that
// filters rows by tenant. The integrator's server, having authenticated its own end user, asks
// `POST /api/v1/embed/sessions` (an sk_ key or a portal JWT) for a short-lived `et_…` token that
// names the database, the tenant and the scope; the page sends it as `Authorization: Bearer`.
// This module holds the creation (`createEmbedSession`; the request's schema is
// ./embed-session-input.ts), and the rules a token and a pk_ key meet on the answering endpoints
// (`applyEmbedSession`, `refuseDatabaseKey`).

import { effectivePolicy } from '#lib/core/row-policy.ts';
import { invalidField, ServiceError } from '#lib/errors.ts';
import { uuidPattern } from '#lib/ids.ts';
import { type DatabaseRecord, findDatabase } from '#lib/store/databases.ts';
import { findPersonality } from '#lib/store/personalities.ts';
import { readSchemaIndex } from '#lib/store/schema-index.ts';
import type { EmbedSessionRequest } from './embed-session-input.ts';
import { signEmbedToken } from './embed-token.ts';
import type { Principal } from './principal.ts';
import { resolveTenant, TENANT_HEADER } from './tenant.ts';

/** What the 201 carries (lib/routes/schemas.ts EmbedSession). */
export interface CreatedEmbedSession {
  token: string;
  expires_at: string;
  database_id: string;
  tenant_id: string | null;
  scope_id: string | null;
}

const databaseOf = async (organizationId: number, id: string): Promise<DatabaseRecord> => {
  const database = await findDatabase(organizationId, id);
  if (!database) throw new ServiceError('DATABASE_NOT_FOUND', { message: `Database ${id} not found` });
  if (database.status !== 'active')
    throw new ServiceError('FORBIDDEN', { message: 'This database connection is disabled' });
  return database;
};

/**
 * The tenant and scope of a new session, checked as X-Tenant-Id and X-Scope-Id would be on this
 * database (lib/auth/tenant.ts), but reported as the body fields they are: 400 on body.tenant_id
 * or body.scope_id. Returns the values as the token keeps them.
 */
const checkedValues = async (
  database: DatabaseRecord,
  body: EmbedSessionRequest,
): Promise<{ tenant?: string; scope?: string }> => {
  const policy = effectivePolicy(database);
  if (policy.requiresScoping && body.tenant_id === undefined)
    throw invalidField(
      'body.tenant_id',
      'tenant_id is required: this database filters rows by tenant',
      'REQUIRED',
    );
  if (!policy.requiresScoping && body.tenant_id !== undefined)
    throw invalidField(
      'body.tenant_id',
      'tenant_id cannot be given: organization scoping is not enabled for this database',
      'SCOPING_NOT_ENABLED',
    );
  if (policy.scopeRequired === true && body.scope_id === undefined)
    throw invalidField(
      'body.scope_id',
      'scope_id is required: the row policy of this database requires a scope (scope_required)',
      'REQUIRED',
    );
  // The schema index gives the columns' types (read directly: the answering flow's cached
  // catalog would bring the SQL guard's parsers into this function's bundle).
  const catalog = await readSchemaIndex(database);
  try {
    resolveTenant(database, catalog, body.tenant_id, body.scope_id);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const scopeIssue = error.issues.some((issue) => issue.field === 'X-Scope-Id');
    const field = scopeIssue ? 'scope_id' : 'tenant_id';
    const message = error.message.replace(scopeIssue ? 'X-Scope-Id' : TENANT_HEADER, field);
    throw invalidField(`body.${field}`, message, 'INVALID_FORMAT');
  }
  return {
    ...(body.tenant_id === undefined ? {} : { tenant: body.tenant_id }),
    ...(body.scope_id === undefined ? {} : { scope: body.scope_id }),
  };
};

/** POST /api/v1/embed/sessions: checks the request against the database and signs its token. */
export const createEmbedSession = async (
  principal: Pick<Principal, 'organizationId'>,
  body: EmbedSessionRequest,
  now = new Date(),
): Promise<CreatedEmbedSession> => {
  const { organizationId } = principal;
  const [database, personality] = await Promise.all([
    databaseOf(organizationId, body.database_id),
    body.personality_id === undefined ? undefined : findPersonality(organizationId, body.personality_id),
  ]);
  if (body.personality_id !== undefined && !personality)
    throw new ServiceError('PERSONALITY_NOT_FOUND', {
      message: `Personality ${body.personality_id} not found`,
    });
  const values = await checkedValues(database, body);
  const expiresAt = Math.floor(now.getTime() / 1000) + body.ttl_seconds;
  const { token } = await signEmbedToken(
    {
      organizationId,
      databaseId: database.id,
      ...values,
      ...(body.origins ? { origins: [...new Set(body.origins)] } : {}),
      ...(body.personality_id === undefined ? {} : { personalityId: body.personality_id }),
      expiresAt,
    },
    now,
  );
  return {
    token,
    expires_at: new Date(expiresAt * 1000).toISOString(),
    database_id: database.id,
    tenant_id: values.tenant ?? null,
    scope_id: values.scope ?? null,
  };
};

// ---- on the answering endpoints ---------------------------------------------------------------

/**
 * docs/design.md "Credentials": a page's pk_ key can be copied, and then any X-Tenant-Id sent
 * with it, so a database that filters rows by tenant refuses pk_ keys whatever headers they
 * come with; its widgets use embed sessions.
 */
export const refuseDatabaseKey = (
  principal: Pick<Principal, 'credential'>,
  database: Pick<DatabaseRecord, 'requiresOrganizationScoping'>,
): void => {
  if (principal.credential !== 'pk' || !database.requiresOrganizationScoping) return;
  const message =
    'This database filters rows by tenant, so a database (pk_) key cannot query it: use an embed ' +
    'session instead (your backend calls POST /api/v1/embed/sessions with its sk_ key for the ' +
    'signed-in user, and the page sends the token as Authorization: Bearer et_…)';
  throw new ServiceError('FORBIDDEN', {
    message,
    detail: 'EMBED_SESSION_REQUIRED',
    issues: [{ field: 'X-API-Key', message, code: 'EMBED_SESSION_REQUIRED' }],
  });
};

const sameTenant = (header: string, token: string | undefined): boolean =>
  token !== undefined &&
  (header === token || (uuidPattern.test(header) && header.toLowerCase() === token.toLowerCase()));

/**
 * The tenant and personality of a request made with an embed session are the token's: an
 * X-Tenant-Id that differs is 403 INVALID_TENANT_ID, a personality_id that differs 403 FORBIDDEN.
 * Returns what the request then stands for (the scope is settled by the scope middleware).
 */
export const applyEmbedSession = <
  R extends { tenantHeader: string | undefined; personalityId: string | undefined },
>(
  principal: Pick<Principal, 'session'>,
  request: R,
): R => {
  const { session } = principal;
  if (!session) return request;
  const header = request.tenantHeader?.trim();
  if (header && !sameTenant(header, session.tenant)) {
    const message = session.tenant
      ? `${TENANT_HEADER} differs from the embed session's tenant`
      : `This embed session has no tenant: ${TENANT_HEADER} cannot be sent with it`;
    throw new ServiceError('INVALID_TENANT', {
      message,
      detail: 'EMBED_SESSION_TENANT',
      issues: [{ field: TENANT_HEADER, message, code: 'EMBED_SESSION_TENANT' }],
    });
  }
  if (
    request.personalityId !== undefined &&
    session.personalityId !== undefined &&
    request.personalityId !== session.personalityId
  ) {
    throw new ServiceError('FORBIDDEN', {
      message: 'This embed session is bound to another personality',
      issues: [
        {
          field: 'personality_id',
          message: 'This embed session is bound to another personality',
          code: 'EMBED_SESSION_PERSONALITY',
        },
      ],
    });
  }
  return {
    ...request,
    tenantHeader: session.tenant,
    personalityId: request.personalityId ?? session.personalityId,
  };
};
