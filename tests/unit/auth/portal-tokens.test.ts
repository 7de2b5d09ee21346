// Portal tokens (lib/auth/jwt.ts): typed (`token_use: "portal"`; an embed-session token is never
// one, nor the reverse), bound to one stage (issuer and audience required outside the local stack,
// the audience naming the stage), HS256 keys of at least 32 bytes, and a role the routes enforce.
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { EMBED_TOKEN_PREFIX, signEmbedToken, verifyEmbedToken } from '#lib/auth/embed-token.ts';
import { audienceNamesStage, verifyPortalToken } from '#lib/auth/jwt.ts';
import { authorise, type Principal } from '#lib/auth/principal.ts';
import { deleteConversationAccess, scopeHistoryAccess } from '#lib/conversations/inputs.ts';

const SECRET = 'unit-portal-secret-0123456789abcdefgh';
const ISSUER = 'https://portal.example.test';

const sign = (
  claims: Record<string, unknown>,
  options: { secret?: string; issuer?: string; audience?: string } = {},
) => {
  const jwt = new SignJWT({ org_id: 3, token_use: 'portal', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('7')
    .setExpirationTime('5m');
  if (options.issuer) jwt.setIssuer(options.issuer);
  if (options.audience) jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET));
};

/** A deployed stage's portal-token settings. */
const stage = (name: string, audience = `tabletalk:${name}`) => {
  vi.stubEnv('STAGE', name);
  vi.stubEnv('JWT_SECRET', SECRET);
  vi.stubEnv('JWT_ISSUER', ISSUER);
  vi.stubEnv('JWT_AUDIENCE', audience);
};

describe('the token type', () => {
  it('refuses a token without token_use "portal"', async () => {
    vi.stubEnv('JWT_SECRET', SECRET);
    await expect(verifyPortalToken(await sign({ token_use: undefined }))).rejects.toMatchObject({
      kind: 'TOKEN_INVALID',
    });
    await expect(verifyPortalToken(await sign({ token_use: 'id' }))).rejects.toMatchObject({
      kind: 'TOKEN_INVALID',
    });
    expect(await verifyPortalToken(await sign({}))).toMatchObject({ org_id: 3, token_use: 'portal' });
  });

  it('never takes an embed-session token for a portal token, even under the same key', async () => {
    // Arrange: one key for both, the worst case.
    vi.stubEnv('JWT_SECRET', SECRET);
    vi.stubEnv('EMBED_SESSION_SECRET', SECRET);
    const { token } = await signEmbedToken({
      organizationId: 3,
      databaseId: 'db-1',
      scope: 'visitor',
      expiresAt: Math.floor(Date.now() / 1000) + 60,
    });

    // Act / Assert: with its prefix, and stripped of it.
    await expect(verifyPortalToken(token)).rejects.toMatchObject({ kind: 'TOKEN_INVALID' });
    await expect(verifyPortalToken(token.slice(EMBED_TOKEN_PREFIX.length))).rejects.toMatchObject({
      kind: 'TOKEN_INVALID',
    });
  });

  it('never takes a portal token for an embed session, even under the same key', async () => {
    vi.stubEnv('JWT_SECRET', SECRET);
    vi.stubEnv('EMBED_SESSION_SECRET', SECRET);
    const portal = await sign({ role: 'owner', jti: 'x' }, { audience: 'tabletalk:embed-session' });
    await expect(verifyEmbedToken(`${EMBED_TOKEN_PREFIX}${portal}`)).rejects.toMatchObject({
      kind: 'TOKEN_INVALID',
    });
  });
});

describe('the stage', () => {
  it('refuses a token minted for another stage: organization ids repeat across stages', async () => {
    // Arrange: the same key and organization id, dev's audience.
    stage('prod');
    const devToken = await sign({}, { issuer: ISSUER, audience: 'tabletalk:dev' });

    // Act / Assert
    await expect(verifyPortalToken(devToken)).rejects.toMatchObject({ kind: 'TOKEN_INVALID' });
    expect(
      await verifyPortalToken(await sign({}, { issuer: ISSUER, audience: 'tabletalk:prod' })),
    ).toMatchObject({
      org_id: 3,
    });
  });

  it('refuses a token of another issuer, or without issuer or audience, in a deployed stage', async () => {
    stage('prod');
    for (const options of [
      { issuer: 'https://elsewhere.example', audience: 'tabletalk:prod' },
      { audience: 'tabletalk:prod' },
      { issuer: ISSUER },
    ]) {
      await expect(verifyPortalToken(await sign({}, options)), JSON.stringify(options)).rejects.toMatchObject(
        {
          kind: 'TOKEN_INVALID',
        },
      );
    }
  });

  it('fails closed (500) in a deployed stage without issuer and audience, or with an audience of no stage', async () => {
    const token = await sign({}, { issuer: ISSUER, audience: 'tabletalk:prod' });

    vi.stubEnv('STAGE', 'prod');
    vi.stubEnv('JWT_SECRET', SECRET);
    await expect(verifyPortalToken(token)).rejects.toMatchObject({ kind: 'INTERNAL' });

    stage('prod', 'tabletalk');
    await expect(verifyPortalToken(token)).rejects.toMatchObject({ kind: 'INTERNAL' });
  });

  it('tells whether an audience names a stage as a whole word', () => {
    expect(audienceNamesStage('tabletalk:prod', 'prod')).toBe(true);
    expect(audienceNamesStage('https://api.example.com/prod', 'prod')).toBe(true);
    expect(audienceNamesStage('prod.tabletalk.example', 'prod')).toBe(true);
    expect(audienceNamesStage('tabletalk:alice-dev', 'alice-dev')).toBe(true);
    expect(audienceNamesStage('tabletalk:production', 'prod')).toBe(false);
    expect(audienceNamesStage('tabletalk:alice-dev', 'dev')).toBe(true);
    expect(audienceNamesStage('tabletalk', 'prod')).toBe(false);
  });
});

describe('the key', () => {
  it('refuses an HS256 secret shorter than 32 bytes as a misconfiguration (500), never verifying with it', async () => {
    const short = 'short-secret-31-bytes-long-xxxx';
    expect(new TextEncoder().encode(short)).toHaveLength(31);
    vi.stubEnv('JWT_SECRET', short);
    await expect(verifyPortalToken(await sign({}, { secret: short }))).rejects.toMatchObject({
      kind: 'INTERNAL',
    });
  });
});

describe('the role', () => {
  it('is owner, admin or member (member when absent); anything else is refused', async () => {
    vi.stubEnv('JWT_SECRET', SECRET);
    expect((await verifyPortalToken(await sign({}))).role).toBe('member');
    expect((await verifyPortalToken(await sign({ role: 'admin' }))).role).toBe('admin');
    await expect(verifyPortalToken(await sign({ role: 'superuser' }))).rejects.toMatchObject({
      kind: 'TOKEN_INVALID',
    });
  });

  it('lets a member read history but not delete; owner and admin may do both', () => {
    const portalUser = (role: 'owner' | 'admin' | 'member'): Principal => ({
      credential: 'jwt',
      organizationId: 3,
      plan: 'professional',
      userId: '7',
      role,
    });
    expect(() => authorise(portalUser('member'), scopeHistoryAccess)).not.toThrow();
    expect(() => authorise(portalUser('member'), deleteConversationAccess)).toThrow(
      expect.objectContaining({ kind: 'FORBIDDEN', message: expect.stringMatching(/member role/) }),
    );
    expect(() => authorise(portalUser('admin'), deleteConversationAccess)).not.toThrow();
    expect(() => authorise(portalUser('owner'), deleteConversationAccess)).not.toThrow();
    // Roles are the portal's: an sk_ key with the plan's feature deletes as before.
    expect(() =>
      authorise({ credential: 'sk', organizationId: 3, plan: 'professional' }, deleteConversationAccess),
    ).not.toThrow();
  });
});
