// Portal JWTs (docs/design.md "Credentials"; docs/operator-guide.md "Per-stage settings and
// secrets"): HS256 with the stage's secret (JWT_SECRET, at least 32 bytes, read through
// lib/secrets-provider.ts), or RS256/ES256/EdDSA keys from the stage's JWKS URL, verified by jose.
//
// A portal token is typed, and bound to one stage:
// - the claim `token_use: "portal"` says what it is. An embed-session token (`et_…`) carries no
//   such claim and is never accepted here; a portal token lacks the claims an embed session needs
//   (lib/auth/embed-token.ts), so neither passes for the other even under one signing key.
// - `iss` must be JWT_ISSUER and `aud` JWT_AUDIENCE. A deployed stage cannot run without both
//   (packaging refuses it, infra/stage-settings.cjs, and this module fails closed), and its
//   audience names the stage: organization ids repeat across stages, so a token minted for dev
//   must never open prod. The local stack checks them only when they are set.
// - `exp` is required; `org_id` (integer organization id), `sub` (user id) and `role`: `owner`,
//   `admin` or `member` (member when absent; any other value is refused). What each role may do is
//   the route's access rule (lib/auth/principal.ts).
//
// jose is imported on the first portal token: requests with an API key never load it, and it
// stays out of what a function loads at a cold start (BENCHMARKS.md (c)).
import type { createRemoteJWKSet, JWTPayload } from 'jose';
import * as v from 'valibot';
import { fromSettings, settings } from '#lib/config.ts';
import { ServiceError } from '#lib/errors.ts';
import { serviceSecret } from '#lib/secrets-provider.ts';

/** The `token_use` claim of every portal token. */
export const PORTAL_TOKEN_USE = 'portal';
/** HS256 keys shorter than this are refused (RFC 7518 3.2: a key at least as long as the hash). */
export const MIN_PORTAL_SECRET_BYTES = 32;

export const PORTAL_ROLES = ['owner', 'admin', 'member'] as const;
export type PortalRole = (typeof PORTAL_ROLES)[number];

const PortalClaims = v.object({
  org_id: v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.digits(), v.transform(Number))]),
    v.integer(),
    v.minValue(1),
  ),
  sub: v.pipe(v.string(), v.minLength(1)),
  role: v.optional(v.picklist(PORTAL_ROLES), 'member'),
  token_use: v.literal(PORTAL_TOKEN_USE),
});
export type PortalClaims = v.InferOutput<typeof PortalClaims>;

const jose = () => import('jose');

// The key set of JWT_JWKS_URL, fetched on first use and cached by jose.
const remoteKeys = fromSettings(async ({ jwt }) =>
  jwt.jwksUrl ? (await jose()).createRemoteJWKSet(new URL(jwt.jwksUrl)) : undefined,
);

/**
 * Whether an audience names the stage as a whole word (`tabletalk:prod`, `https://api.example.com/prod`,
 * `prod.tabletalk`), so that no two stages can share one. infra/stage-settings.cjs applies the same rule.
 */
export const audienceNamesStage = (audience: string, stage: string): boolean => {
  const escaped = stage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`, 'i').test(audience);
};

/** A misconfigured stage: a 500 whose log line says why, never a token accepted unchecked. */
const misconfigured = (reason: string) =>
  new ServiceError('INTERNAL', {
    cause: new Error(`${reason} in stage ${settings().stage}: refusing to verify portal tokens`),
  });

const verificationKey = async (): Promise<Uint8Array | ReturnType<typeof createRemoteJWKSet> | undefined> => {
  const { jwt } = settings();
  if (jwt.jwksUrl) return remoteKeys();
  const secret = await serviceSecret('JWT_SECRET');
  if (secret === undefined) return undefined;
  const key = new TextEncoder().encode(secret);
  if (key.length < MIN_PORTAL_SECRET_BYTES)
    throw misconfigured(`JWT_SECRET is shorter than ${MIN_PORTAL_SECRET_BYTES} bytes`);
  return key;
};

export const verifyPortalToken = async (token: string): Promise<PortalClaims> => {
  const { jwt, stage } = settings();
  // Outside the local stack, issuer and audience are what bind a token to this stage.
  if (stage !== 'local') {
    if (!jwt.issuer || !jwt.audience) throw misconfigured('JWT_ISSUER and JWT_AUDIENCE must both be set');
    if (!audienceNamesStage(jwt.audience, stage))
      throw misconfigured(`JWT_AUDIENCE ${JSON.stringify(jwt.audience)} does not name the stage`);
  }
  const key = await verificationKey();
  if (!key)
    throw new ServiceError('TOKEN_INVALID', { message: 'Portal tokens are not accepted by this stage' });
  const { errors, jwtVerify } = await jose();
  let payload: JWTPayload;
  try {
    const options = {
      algorithms: jwt.jwksUrl ? ['RS256', 'ES256', 'EdDSA'] : ['HS256'],
      // A portal token without an expiry would be valid forever.
      requiredClaims: ['exp'],
      ...(jwt.issuer ? { issuer: jwt.issuer } : {}),
      ...(jwt.audience ? { audience: jwt.audience } : {}),
    };
    ({ payload } =
      key instanceof Uint8Array
        ? await jwtVerify(token, key, options)
        : await jwtVerify(token, key, options));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new ServiceError('TOKEN_EXPIRED');
    throw new ServiceError('TOKEN_INVALID');
  }
  const claims = v.safeParse(PortalClaims, payload);
  if (!claims.success)
    throw new ServiceError('TOKEN_INVALID', {
      message:
        'The access token is not a portal token: it needs token_use "portal", org_id, sub and a role of owner, admin or member',
    });
  return claims.output;
};
