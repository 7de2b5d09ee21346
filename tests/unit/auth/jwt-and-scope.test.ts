// Regression tests: portal tokens must expire, and X-Scope-Id bounds count characters.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifyPortalToken } from '#lib/auth/jwt.ts';
import { parseScopeId } from '#lib/http/middleware/scope.ts';

const secret = 'unit-portal-secret-abcdefghijklmnop';
process.env.JWT_SECRET = secret;

const sign = (claims: Record<string, unknown>, expires?: number) => {
  const jwt = new SignJWT({ token_use: 'portal', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('7');
  if (expires !== undefined) jwt.setExpirationTime(expires);
  return jwt.sign(new TextEncoder().encode(secret));
};

describe('portal tokens', () => {
  it('accepts a token with an expiry in the future', async () => {
    const claims = await verifyPortalToken(await sign({ org_id: 3 }, Math.floor(Date.now() / 1000) + 60));
    expect(claims).toMatchObject({ org_id: 3, sub: '7' });
  });

  it('refuses a token without exp as invalid', async () => {
    await expect(verifyPortalToken(await sign({ org_id: 3 }))).rejects.toMatchObject({
      kind: 'TOKEN_INVALID',
    });
  });
});

describe('X-Scope-Id bounds', () => {
  it('counts characters, not UTF-16 units', () => {
    const emoji = '😀'.repeat(255);
    expect(parseScopeId(emoji)).toBe(emoji);
    expect(() => parseScopeId(`${emoji}😀`)).toThrow(/at most 255/);
  });
});
