// Rotation without a new container (docs/operator-guide.md "Rotation"): secrets read from Secrets
// Manager go through Powertools Parameters' SecretsProvider, kept for SECRETS_MAX_AGE_SECONDS and
// then read again. The stage's secret (lib/secrets-provider.ts): a rotated portal key is in use
// after the maximum age, a failed re-read keeps the value the container has. Connection secrets
// (lib/connectors/secrets.ts): read once per maximum age, and a rotated one reopens the connector
// (lib/connectors/index.ts).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { verifyPortalToken } from '#lib/auth/jwt.ts';
import { resetSettings } from '#lib/config.ts';
import { closeConnectors, connectorFor } from '#lib/connectors/index.ts';
import { secretStore, secretsManagerStore } from '#lib/connectors/secrets.ts';
import { serviceSecret } from '#lib/secrets-provider.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';

const secretsManager = mockClient(SecretsManagerClient);

const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:tabletalk/prod/service-AbCdEf';
const MAX_AGE_SECONDS = 300;
const before = {
  JWT_SECRET: 'portal-secret-before-rotation-0123456789',
  CURSOR_SECRET: 'cursor-secret-before-rotation-0123456789',
};
const after = {
  JWT_SECRET: 'portal-secret-after-rotation-9876543210',
  CURSOR_SECRET: 'cursor-secret-after-rotation-9876543210',
};

const deployedStage = () => {
  vi.stubEnv('STAGE', 'prod');
  vi.stubEnv('SECRETS_ARN', ARN);
  vi.stubEnv('SECRETS_MAX_AGE_SECONDS', String(MAX_AGE_SECONDS));
  vi.stubEnv('JWT_ISSUER', 'https://portal.example.test');
  vi.stubEnv('JWT_AUDIENCE', 'tabletalk:prod');
  // No DynamoDB endpoint: the connection secrets are in Secrets Manager too.
  vi.stubEnv('DYNAMODB_ENDPOINT', undefined);
  resetSettings();
};

const portalToken = (secret: string) =>
  new SignJWT({ org_id: 3, role: 'member', token_use: 'portal' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('7')
    .setIssuer('https://portal.example.test')
    .setAudience('tabletalk:prod')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));

/** Moves the clock on (Date only: the SDK's and the provider's promises run as usual). */
const later = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

beforeEach(() => {
  secretsManager.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  deployedStage();
});

afterEach(async () => {
  await closeConnectors();
  vi.useRealTimers();
  vi.unstubAllEnvs();
  resetSettings();
  secretsManager.reset();
});

describe("the stage's secret", () => {
  it('is read once per maximum age, and a rotated portal key is in use after it, in the same container', async () => {
    // Arrange
    secretsManager
      .on(GetSecretValueCommand, { SecretId: ARN })
      .resolvesOnce({ SecretString: JSON.stringify(before) })
      .resolves({ SecretString: JSON.stringify(after) });
    const oldToken = await portalToken(before.JWT_SECRET);
    const newToken = await portalToken(after.JWT_SECRET);

    // Act / Assert: within the maximum age the value read first is used; no second read.
    expect(await verifyPortalToken(oldToken)).toMatchObject({ org_id: 3 });
    later(MAX_AGE_SECONDS - 10);
    expect(await verifyPortalToken(oldToken)).toMatchObject({ org_id: 3 });
    await expect(verifyPortalToken(newToken)).rejects.toMatchObject({ status: 401 });
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);

    // After it the secret is read again: the rotated key signs, the old one no longer does.
    later(20);
    expect(await verifyPortalToken(newToken)).toMatchObject({ org_id: 3 });
    await expect(verifyPortalToken(oldToken)).rejects.toMatchObject({ status: 401 });
    expect(await serviceSecret('CURSOR_SECRET')).toBe(after.CURSOR_SECRET);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('goes on with the value it has when reading it again fails, and fails when it never had one', async () => {
    // Arrange
    secretsManager
      .on(GetSecretValueCommand, { SecretId: ARN })
      .resolvesOnce({ SecretString: JSON.stringify(before) })
      .rejects(new Error('Secrets Manager is unavailable'));

    // Act / Assert
    expect(await serviceSecret('JWT_SECRET')).toBe(before.JWT_SECRET);
    later(MAX_AGE_SECONDS + 1);
    expect(await serviceSecret('JWT_SECRET')).toBe(before.JWT_SECRET);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);

    resetSettings(); // a new container
    await expect(serviceSecret('JWT_SECRET')).rejects.toThrow('Secrets Manager is unavailable');
  });

  it('is read on every use with SECRETS_MAX_AGE_SECONDS=0', async () => {
    vi.stubEnv('SECRETS_MAX_AGE_SECONDS', '0');
    resetSettings();
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify(before) });
    for (let use = 0; use < 3; use += 1) {
      expect(await serviceSecret('JWT_SECRET')).toBe(before.JWT_SECRET);
      later(0.001);
    }
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(3);
  });
});

describe('connection secrets', () => {
  const CONNECTION_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:tabletalk/prod/databases/db-1';

  it('are read once per maximum age through the store', async () => {
    // Arrange
    secretsManager
      .on(GetSecretValueCommand, { SecretId: CONNECTION_ARN })
      .resolvesOnce({ SecretString: 'postgres://reader:old@127.0.0.1:1/shop' })
      .resolves({ SecretString: 'postgres://reader:new@127.0.0.1:1/shop' });
    const store = secretsManagerStore(new SecretsManagerClient({ region: 'us-east-1' }));

    // Act / Assert
    expect(await store.read(CONNECTION_ARN)).toBe('postgres://reader:old@127.0.0.1:1/shop');
    later(MAX_AGE_SECONDS - 1);
    expect(await store.read(CONNECTION_ARN)).toBe('postgres://reader:old@127.0.0.1:1/shop');
    later(2);
    expect(await store.read(CONNECTION_ARN)).toBe('postgres://reader:new@127.0.0.1:1/shop');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('reopen the connector of a database once the secret was rotated, and close the old one', async () => {
    // Arrange: nothing listens on port 1; the pools are created, never connected.
    secretsManager
      .on(GetSecretValueCommand, { SecretId: CONNECTION_ARN })
      .resolvesOnce({ SecretString: 'postgres://reader:old@127.0.0.1:1/shop' })
      .resolves({ SecretString: 'postgres://reader:new@127.0.0.1:1/shop' });
    const database = {
      id: 'db-1',
      engine: 'postgres',
      connectionRef: CONNECTION_ARN,
    } as unknown as DatabaseRecord;
    expect(secretStore()).toBe(secretStore());

    // Act
    const first = await connectorFor(database);
    const closed = vi.spyOn(first, 'close');
    later(MAX_AGE_SECONDS - 1);
    const sameAge = await connectorFor(database);
    later(2);
    const rotated = await connectorFor(database);
    later(MAX_AGE_SECONDS + 1);
    const unchanged = await connectorFor(database);
    await Promise.resolve();

    // Assert
    expect(sameAge).toBe(first);
    expect(rotated).not.toBe(first);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(unchanged).toBe(rotated);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(3);
  });
});
