// Embed-session tokens (docs/design.md "Embed sessions"): `et_` + an HS256 JWT signed with the
// stage's EMBED_SESSION_SECRET (jose). The token names one organization, one database and, when
// the database filters rows, the tenant; optionally the end-user scope, the page origins that
// may use it and a personality. It carries an id (jti) and an expiry, and nothing else: it is
// stateless, so it lives at most an hour (lib/auth/embed-sessions.ts bounds `ttl_seconds`).
// A page holds it instead of a key, so it never decides its own tenant or scope.
// jose is imported on first use (BENCHMARKS.md (c): nothing of it at a cold start).
import { randomUUID } from 'node:crypto';
import type { JWTPayload } from 'jose';
import * as v from 'valibot';
import { settings } from '#lib/config.ts';
import { ServiceError } from '#lib/errors.ts';
import { serviceSecret } from '#lib/secrets-provider.ts';

export const EMBED_TOKEN_PREFIX = 'et_';
/** Keeps these tokens apart from portal JWTs even if a stage reused one secret for both. */
const AUDIENCE = 'tabletalk:embed-session';
const MIN_SECRET_LENGTH = 32;

const jose = () => import('jose');

export const isEmbedToken = (value: string): boolean => value.startsWith(EMBED_TOKEN_PREFIX);

/** What a token says; the claim names are short because the token travels on every request. */
const Claims = v.object({
  org: v.pipe(v.number(), v.integer(), v.minValue(1)),
  db: v.pipe(v.string(), v.minLength(1)),
  tnt: v.optional(v.pipe(v.string(), v.minLength(1))),
  scp: v.optional(v.pipe(v.string(), v.minLength(1))),
  ori: v.optional(v.array(v.string())),
  per: v.optional(v.pipe(v.string(), v.minLength(1))),
  jti: v.pipe(v.string(), v.minLength(1)),
  exp: v.number(),
});

export interface EmbedSession {
  /** The token's id (jti). */
  id: string;
  organizationId: number;
  databaseId: string;
  /** The tenant value, as validated when the session was created; absent on unscoped databases. */
  tenant?: string;
  /** The end-user scope; absent: the token answers but cannot read history. */
  scope?: string;
  /** Page origins that may use the token; absent: any. */
  origins?: string[];
  personalityId?: string;
  /** Unix seconds. */
  expiresAt: number;
}

// The stage's EMBED_SESSION_SECRET: Secrets Manager when deployed (lib/secrets-provider.ts).
const signingKey = async (): Promise<Uint8Array | undefined> => {
  const secret = (await serviceSecret('EMBED_SESSION_SECRET')) ?? '';
  return secret.length >= MIN_SECRET_LENGTH ? new TextEncoder().encode(secret) : undefined;
};

/** Signs a session; without a usable secret the stage is misconfigured (500, with the reason logged). */
export const signEmbedToken = async (
  session: Omit<EmbedSession, 'id'> & { id?: string },
  now = new Date(),
): Promise<{ token: string; id: string }> => {
  const key = await signingKey();
  if (!key) {
    throw new ServiceError('INTERNAL', {
      cause: new Error(
        `EMBED_SESSION_SECRET is missing or shorter than ${MIN_SECRET_LENGTH} characters in stage ` +
          `${settings().stage}: refusing to sign embed-session tokens (deployed: put EMBED_SESSION_SECRET into the secret SECRETS_ARN names)`,
      ),
    });
  }
  const id = session.id ?? randomUUID();
  const claims = {
    org: session.organizationId,
    db: session.databaseId,
    ...(session.tenant === undefined ? {} : { tnt: session.tenant }),
    ...(session.scope === undefined ? {} : { scp: session.scope }),
    ...(session.origins?.length ? { ori: session.origins } : {}),
    ...(session.personalityId === undefined ? {} : { per: session.personalityId }),
  };
  const { SignJWT } = await jose();
  const jwt = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(session.expiresAt)
    .setAudience(AUDIENCE)
    .setJti(id)
    .sign(key);
  return { token: `${EMBED_TOKEN_PREFIX}${jwt}`, id };
};

/** Verifies an `et_…` token: 401 AUTH_TOKEN_EXPIRED when expired, 401 AUTH_TOKEN_INVALID otherwise. */
export const verifyEmbedToken = async (token: string): Promise<EmbedSession> => {
  const key = await signingKey();
  if (!key || !isEmbedToken(token))
    throw new ServiceError('TOKEN_INVALID', { message: 'The embed session token is invalid' });
  const { errors, jwtVerify } = await jose();
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token.slice(EMBED_TOKEN_PREFIX.length), key, {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      requiredClaims: ['exp', 'jti'],
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired)
      throw new ServiceError('TOKEN_EXPIRED', {
        message: 'The embed session has expired: get a new token from your backend',
      });
    throw new ServiceError('TOKEN_INVALID', { message: 'The embed session token is invalid' });
  }
  const claims = v.safeParse(Claims, payload);
  if (!claims.success)
    throw new ServiceError('TOKEN_INVALID', { message: 'The embed session token is invalid' });
  const { org, db, tnt, scp, ori, per, jti, exp } = claims.output;
  return {
    id: jti,
    organizationId: org,
    databaseId: db,
    ...(tnt === undefined ? {} : { tenant: tnt }),
    ...(scp === undefined ? {} : { scope: scp }),
    ...(ori?.length ? { origins: ori } : {}),
    ...(per === undefined ? {} : { personalityId: per }),
    expiresAt: exp,
  };
};
