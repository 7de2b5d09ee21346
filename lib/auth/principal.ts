// Who is calling: resolves X-API-Key / Authorization into a principal, and applies a route's
// access rule (docs/design.md "Credentials"). Key and organization lookups are cached in the warm
// container for at most KEY_CACHE_TTL_SECONDS (≤ 60 s): a revoked key or a plan change takes
// effect within that time.
import { createHash } from 'node:crypto';
import { fromSettings } from '#lib/config.ts';
import { ServiceError } from '#lib/errors.ts';
import { type Feature, hasFeature } from '#lib/limits/plans.ts';
import { findApiKeyByHash, touchApiKey } from '#lib/store/api-keys.ts';
import {
  findOrganization,
  type LimitOverrides,
  type Organization,
  type PlanName,
} from '#lib/store/organizations.ts';
import { TtlCache } from '#lib/ttl-cache.ts';
import { hashApiKey, keyKindOf } from './api-keys.ts';
import { type EmbedSession, isEmbedToken, verifyEmbedToken } from './embed-token.ts';
import { type PortalRole, verifyPortalToken } from './jwt.ts';

/** `et`: an embed-session token (`Authorization: Bearer et_…`, docs/design.md "Embed sessions"). */
export type Credential = 'sk' | 'pk' | 'jwt' | 'et';

export interface Principal {
  credential: Credential;
  organizationId: number;
  plan: PlanName;
  /** The organization's own limits (enterprise), cached with the principal like its plan. */
  limits?: LimitOverrides;
  /** API key id (sk/pk). */
  keyId?: string;
  /** pk keys and embed sessions: the one database they may use. */
  databaseId?: string;
  /** pk keys and embed sessions: origins allowed in the browser. */
  allowedOrigins?: string[];
  /** sk keys created with `manage` (docs/design.md "The control plane"): may change the organization. */
  manage?: boolean;
  /** Portal JWTs: the user and role. */
  userId?: string;
  role?: PortalRole;
  /**
   * Embed sessions: the token's tenant, scope and personality, which the request cannot change
   * (lib/http/middleware/scope.ts, lib/answer/chat.ts), and the key of its own message limit.
   */
  session?: EmbedSession & { limitKey: string };
}

export interface AccessRule {
  credentials: readonly Credential[];
  /** A feature the organization's plan must include when the caller uses an sk_ key. */
  feature?: Extract<Feature, 'custom_api_access'>;
  /**
   * Portal JWTs: the roles that may use the route (docs/design.md "The control plane": `owner`
   * and `admin` write, `member` reads); any role when absent. Other credentials are not affected.
   */
  roles?: readonly PortalRole[];
  /**
   * A control-plane write (docs/design.md "The control plane"): a portal token needs the owner or
   * admin role, an sk_ key must have been created with `manage`.
   */
  write?: boolean;
}

/** The roles a control-plane write needs (`member` reads only). */
export const WRITER_ROLES: readonly PortalRole[] = ['owner', 'admin'];

// Resolved keys and organizations, kept KEY_CACHE_TTL_SECONDS in a warm container.
const caches = fromSettings(({ keyCacheTtlSeconds }) => ({
  keys: new TtlCache<string, Principal | null>(keyCacheTtlSeconds * 1000),
  organizations: new TtlCache<number, Organization | null>(keyCacheTtlSeconds * 1000),
}));

export const clearPrincipalCaches = (): void => {
  caches().keys.clear();
  caches().organizations.clear();
};

/**
 * Forgets a key this container resolved (by its SHA-256 hash): a deleted key is then refused on
 * its next request here at once. Other warm containers keep their entry up to
 * KEY_CACHE_TTL_SECONDS (docs/control-plane.md "Deleting a key").
 */
export const forgetApiKey = (hash: string): void => {
  caches().keys.delete(hash);
};

const invalid = (message = 'Missing or invalid credentials: send an API key in X-API-Key') =>
  new ServiceError('INVALID_CREDENTIALS', { message });

const activeOrganization = async (id: number): Promise<Organization | undefined> => {
  let organization = caches().organizations.get(id);
  if (organization === undefined) {
    organization = (await findOrganization(id)) ?? null;
    caches().organizations.set(id, organization);
  }
  return organization?.status === 'active' ? organization : undefined;
};

const principalOfKey = async (key: string): Promise<Principal> => {
  const kind = keyKindOf(key);
  if (!kind) throw invalid('Invalid API key format: keys start with sk_ or pk_');
  const hash = hashApiKey(key);
  let principal = caches().keys.get(hash);
  if (principal === undefined) {
    const record = await findApiKeyByHash(hash);
    const organization =
      record && !record.revokedAt ? await activeOrganization(record.organizationId) : undefined;
    principal =
      record && organization
        ? {
            credential: record.kind,
            organizationId: organization.id,
            plan: organization.plan,
            ...(organization.limits ? { limits: organization.limits } : {}),
            keyId: record.id,
            ...(record.databaseId ? { databaseId: record.databaseId } : {}),
            ...(record.allowedOrigins ? { allowedOrigins: record.allowedOrigins } : {}),
            ...(record.manage ? { manage: true } : {}),
          }
        : null;
    caches().keys.set(hash, principal);
    // The key's last use, for the control plane's list (at most every 10 minutes; not awaited).
    if (principal && record) void touchApiKey(record, hash).catch(() => undefined);
  }
  if (!principal) throw invalid('Invalid or revoked API key');
  return principal;
};

const principalOfToken = async (token: string): Promise<Principal> => {
  const claims = await verifyPortalToken(token);
  const organization = await activeOrganization(claims.org_id);
  if (!organization)
    throw new ServiceError('TOKEN_INVALID', { message: 'The token names an unknown organization' });
  return {
    credential: 'jwt',
    organizationId: organization.id,
    plan: organization.plan,
    ...(organization.limits ? { limits: organization.limits } : {}),
    userId: claims.sub,
    role: claims.role,
  };
};

/**
 * The per-visitor message limit counts per token scope (lib/limits/limiter.ts): the tenant and
 * the scope; a token that names no scope, per its database and tenant — never per token, or each
 * fresh token a session route hands out would bring fresh windows. Hashed: a scope may be long
 * or personal. The database goes in as an object, so it can never be read as a scope.
 */
const limitKeyOf = (session: Pick<EmbedSession, 'tenant' | 'scope' | 'databaseId'>): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        session.tenant ?? null,
        session.scope ?? null,
        session.scope ? null : { database: session.databaseId },
      ]),
    )
    .digest('base64url')
    .slice(0, 32);

const principalOfEmbedToken = async (token: string): Promise<Principal> => {
  const session = await verifyEmbedToken(token);
  const organization = await activeOrganization(session.organizationId);
  if (!organization)
    throw new ServiceError('TOKEN_INVALID', { message: 'The token names an unknown organization' });
  return {
    credential: 'et',
    organizationId: organization.id,
    plan: organization.plan,
    ...(organization.limits ? { limits: organization.limits } : {}),
    databaseId: session.databaseId,
    ...(session.origins ? { allowedOrigins: session.origins } : {}),
    session: { ...session, limitKey: limitKeyOf(session) },
  };
};

export const resolvePrincipal = async (credentials: {
  apiKey?: string | undefined;
  authorization?: string | undefined;
}): Promise<Principal> => {
  const apiKey = credentials.apiKey?.trim();
  if (apiKey && isEmbedToken(apiKey))
    throw invalid('An embed session token goes in Authorization: Bearer et_…, not in X-API-Key');
  if (apiKey) return principalOfKey(apiKey);
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(credentials.authorization ?? '')?.[1];
  if (bearer && isEmbedToken(bearer)) return principalOfEmbedToken(bearer);
  if (bearer) return keyKindOf(bearer) ? principalOfKey(bearer) : principalOfToken(bearer);
  if (credentials.authorization)
    throw invalid('Unsupported Authorization header: use Bearer <token> or X-API-Key');
  throw invalid();
};

const credentialNames: Record<Credential, string> = {
  sk: 'Organization (sk_) keys',
  pk: 'Database (pk_) keys',
  jwt: 'Portal tokens',
  et: 'Embed session tokens',
};

const normalisedOrigin = (origin: string): string => origin.trim().replace(/\/$/, '').toLowerCase();

/**
 * Whether a page at `origin` may use this credential: any page when the key lists no origins,
 * else a listed one (scheme and host compare case-insensitively, a trailing slash is ignored).
 */
export const originListed = (principal: Pick<Principal, 'allowedOrigins'>, origin: string): boolean => {
  const listed = principal.allowedOrigins;
  if (!listed?.length) return true;
  const wanted = normalisedOrigin(origin);
  return listed.some((allowed) => normalisedOrigin(allowed) === wanted);
};

/** An Origin the key does not list is refused; requests without Origin (servers) pass. */
const originAllowed = (principal: Principal, origin: string | undefined): boolean =>
  !origin || originListed(principal, origin);

export const authorise = (principal: Principal, rule: AccessRule, origin?: string): void => {
  if (!originAllowed(principal, origin)) {
    const holder = principal.credential === 'et' ? 'embed session' : 'key';
    throw new ServiceError('FORBIDDEN', { message: `Origin ${origin} is not allowed for this ${holder}` });
  }
  if (!rule.credentials.includes(principal.credential)) {
    throw new ServiceError('FORBIDDEN', {
      message: `${credentialNames[principal.credential]} cannot use this endpoint`,
    });
  }
  const roles = rule.roles ?? (rule.write ? WRITER_ROLES : undefined);
  if (principal.credential === 'jwt' && roles && !roles.includes(principal.role ?? 'member')) {
    throw new ServiceError('FORBIDDEN', {
      message: `The ${principal.role ?? 'member'} role cannot use this endpoint: it needs ${roles.join(' or ')}`,
    });
  }
  if (principal.credential !== 'sk') return;
  if (!hasFeature(principal.plan, 'api_access')) throw new ServiceError('PLAN_FEATURE_REQUIRED');
  if (rule.feature && !hasFeature(principal.plan, rule.feature))
    throw new ServiceError('FEATURE_NOT_AVAILABLE');
  if (rule.write && !principal.manage) {
    throw new ServiceError('FORBIDDEN', {
      message:
        'This organization key can read but not change the organization: use a key created with manage (or a portal token of an owner or admin)',
    });
  }
};
