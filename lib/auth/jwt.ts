// Portal JWTs: HS256 with a per-stage secret, or RS/ES keys from a JWKS URL, verified by jose.
// Claims: `org_id` (integer organization id), `sub` (user id), `role`.
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import * as v from 'valibot';
import { fromSettings, settings } from '#lib/config.ts';
import { ServiceError } from '#lib/errors.ts';

const PortalClaims = v.object({
  org_id: v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.digits(), v.transform(Number))]),
    v.integer(),
    v.minValue(1),
  ),
  sub: v.pipe(v.string(), v.minLength(1)),
  role: v.optional(v.string(), 'member'),
});
export type PortalClaims = v.InferOutput<typeof PortalClaims>;

// The key set of JWT_JWKS_URL, fetched on first use and cached by jose.
const remoteKeys = fromSettings(({ jwt }) =>
  jwt.jwksUrl ? createRemoteJWKSet(new URL(jwt.jwksUrl)) : undefined,
);

const verificationKey = (): Uint8Array | ReturnType<typeof createRemoteJWKSet> | undefined => {
  const { jwt } = settings();
  if (jwt.jwksUrl) return remoteKeys();
  return jwt.secret ? new TextEncoder().encode(jwt.secret) : undefined;
};

export const verifyPortalToken = async (token: string): Promise<PortalClaims> => {
  const key = verificationKey();
  if (!key)
    throw new ServiceError('TOKEN_INVALID', { message: 'Portal tokens are not accepted by this stage' });
  const { jwt } = settings();
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
    throw new ServiceError('TOKEN_INVALID', { message: 'The access token lacks the org_id or sub claim' });
  return claims.output;
};
