// Connection secrets in a deployed stage (lib/connectors/secrets.ts): stored, read and deleted in
// Secrets Manager under the stage's prefix, through a client created on first use (the SDK module
// is imported then, not when the module loads).
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSettings } from '#lib/config.ts';
import { secretStore } from '#lib/connectors/secrets.ts';

const secretsManager = mockClient(SecretsManagerClient);
const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:tabletalk/prod/databases/db-1-AbCdEf';

beforeEach(() => {
  secretsManager.reset();
  vi.stubEnv('STAGE', 'prod');
  vi.stubEnv('DYNAMODB_ENDPOINT', '');
  resetSettings();
});

afterEach(() => {
  vi.unstubAllEnvs();
  resetSettings();
});

describe('the Secrets Manager store of connection secrets', () => {
  it('saves under the stage’s prefix, reads by ARN and deletes without recovery', async () => {
    // Arrange
    secretsManager.on(CreateSecretCommand).resolves({ ARN });
    secretsManager
      .on(GetSecretValueCommand, { SecretId: ARN })
      .resolves({ SecretString: 'postgres://u:p@h/db' });
    secretsManager.on(DeleteSecretCommand).resolves({});
    const store = secretStore();

    // Act
    const reference = await store.save('db-1', 'postgres://u:p@h/db');
    const value = await store.read(reference);
    await store.remove(reference);

    // Assert
    expect(reference).toBe(ARN);
    expect(value).toBe('postgres://u:p@h/db');
    expect(secretsManager.commandCalls(CreateSecretCommand)[0]!.args[0].input).toEqual({
      Name: 'tabletalk/prod/databases/db-1',
      SecretString: 'postgres://u:p@h/db',
    });
    expect(secretsManager.commandCalls(DeleteSecretCommand)[0]!.args[0].input).toEqual({
      SecretId: ARN,
      ForceDeleteWithoutRecovery: true,
    });
  });

  it('refuses a secret without a string value', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({});
    await expect(secretStore().read(ARN)).rejects.toThrow('secret has no string value');
  });
});
