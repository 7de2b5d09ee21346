// The service's secrets in a deployed stage (lib/secrets-provider.ts): read from the stage's
// Secrets Manager secret (SECRETS_ARN) on first use, once per container within its maximum age
// (tests/unit/secrets-rotation.test.ts: after it), whatever asks for them
// (portal tokens, page cursors, embed sessions); never from the environment there. Without
// SECRETS_ARN (local stack, tests) the environment is the source and AWS is never called.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signEmbedToken } from '#lib/auth/embed-token.ts';
import { verifyPortalToken } from '#lib/auth/jwt.ts';
import { serviceSecret } from '#lib/secrets-provider.ts';
import { cursorCodec } from '#lib/store/cursor.ts';

const secretsManager = mockClient(SecretsManagerClient);

const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:tabletalk/prod/service-AbCdEf';
const stored = {
  JWT_SECRET: 'stored-portal-secret-0123456789abcdef',
  CURSOR_SECRET: 'stored-cursor-secret-0123456789abcdef',
  EMBED_SESSION_SECRET: 'stored-embed-secret-0123456789abcdef',
  OPENAI_API_KEY: 'sk-stored-model-key',
};

/** A deployed stage: its issuer, audience and secret ARN; the environment's secrets are other values. */
const deployedStage = () => {
  vi.stubEnv('STAGE', 'prod');
  vi.stubEnv('SECRETS_ARN', ARN);
  vi.stubEnv('JWT_ISSUER', 'https://portal.example.test');
  vi.stubEnv('JWT_AUDIENCE', 'tabletalk:prod');
  vi.stubEnv('JWT_SECRET', 'environment-portal-secret-0123456789');
  vi.stubEnv('CURSOR_SECRET', 'environment-cursor-secret-0123456789');
};

const portalToken = (secret: string) =>
  new SignJWT({ org_id: 3, role: 'member', token_use: 'portal' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('7')
    .setIssuer('https://portal.example.test')
    .setAudience('tabletalk:prod')
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(secret));

beforeEach(() => {
  secretsManager.reset();
});

afterEach(() => {
  secretsManager.reset();
});

describe('a deployed stage', () => {
  it('reads its secret from Secrets Manager once per container, for every consumer', async () => {
    // Arrange
    deployedStage();
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify(stored) });

    // Act: portal tokens, page cursors and embed sessions, each twice (warm invocations).
    for (let invocation = 0; invocation < 2; invocation += 1) {
      expect(await verifyPortalToken(await portalToken(stored.JWT_SECRET))).toMatchObject({ org_id: 3 });
      const codec = await cursorCodec();
      const query = { list: 'conversations', organizationId: 3, scopeId: 's', order: 'desc' } as const;
      expect(codec.decode(query, codec.encode(query, ['a']))).toEqual(['a']);
      await signEmbedToken({
        organizationId: 3,
        databaseId: 'db',
        expiresAt: Math.floor(Date.now() / 1000) + 60,
      });
      expect(await serviceSecret('OPENAI_API_KEY')).toBe(stored.OPENAI_API_KEY);
    }

    // Assert
    const calls = secretsManager.commandCalls(GetSecretValueCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ SecretId: ARN });
  });

  it('ignores secrets in the environment: a token signed with the environment’s JWT_SECRET is refused', async () => {
    // Arrange
    deployedStage();
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify(stored) });

    // Act / Assert
    await expect(
      verifyPortalToken(await portalToken('environment-portal-secret-0123456789')),
    ).rejects.toMatchObject({ kind: 'TOKEN_INVALID' });
  });

  it('retries a failed read on the next request instead of keeping the failure', async () => {
    // Arrange
    deployedStage();
    secretsManager
      .on(GetSecretValueCommand)
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }))
      .resolves({ SecretString: JSON.stringify(stored) });

    // Act
    await expect(serviceSecret('CURSOR_SECRET')).rejects.toThrow('Rate exceeded');
    const second = await serviceSecret('CURSOR_SECRET');

    // Assert
    expect(second).toBe(stored.CURSOR_SECRET);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('refuses a secret that is not a JSON object without quoting it', async () => {
    // Arrange
    deployedStage();
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'plain-text-secret-value' });

    // Act
    const failure = serviceSecret('JWT_SECRET');

    // Assert
    await expect(failure).rejects.toThrow(/must hold a JSON object/);
    await expect(failure).rejects.not.toThrow(/plain-text-secret-value/);
  });

  it('fails closed when a stored secret is missing: no cursor is signed', async () => {
    // Arrange
    deployedStage();
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ JWT_SECRET: 'x' }) });

    // Act / Assert
    await expect(cursorCodec()).rejects.toMatchObject({ kind: 'INTERNAL' });
  });
});

describe('without SECRETS_ARN (local stack, tests)', () => {
  it('reads the environment and never calls AWS', async () => {
    vi.stubEnv('CURSOR_SECRET', 'environment-cursor-secret-0123456789');
    vi.stubEnv('OPENAI_API_KEY', 'sk-environment');

    expect(await serviceSecret('CURSOR_SECRET')).toBe('environment-cursor-secret-0123456789');
    expect(await serviceSecret('OPENAI_API_KEY')).toBe('sk-environment');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});
