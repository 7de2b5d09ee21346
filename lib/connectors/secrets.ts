// Where connection secrets (database URLs with passwords) live (docs/design.md "Storage"):
// AWS Secrets Manager in deployed stages (the record keeps the secret's ARN), and an
// AES-256-GCM encrypted attribute on the local stack (key generated into .local/).
// No endpoint, log line or error message ever carries the plaintext. Reads from Secrets Manager go
// through Powertools Parameters' SecretsProvider, which keeps a value for SECRETS_MAX_AGE_SECONDS
// and then reads it again: a rotated connection secret is used within that time (the connector
// cache compares it, lib/connectors/index.ts), without a new container.
//
// The Secrets Manager client and the provider are imported on first use, like
// lib/secrets-provider.ts's: they stay out of what an answering function loads at a cold start
// (BENCHMARKS.md (c)).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { fromSettings, settings } from '#lib/config.ts';
import { traced } from '#lib/observability/tracer.ts';

export interface SecretStore {
  /** Stores a secret and returns the reference to keep on the database record. */
  save(name: string, value: string): Promise<string>;
  read(reference: string): Promise<string>;
  /** Deletes a stored secret whose database record was never written (nothing to do locally). */
  remove(reference: string): Promise<void>;
}

const LOCAL_PREFIX = 'enc:v1:';

export const localSecretStore = (keyFile: string): SecretStore => {
  let key: Buffer | undefined;
  const loadKey = (): Buffer => {
    if (key) return key;
    if (!existsSync(keyFile)) {
      mkdirSync(dirname(keyFile), { recursive: true });
      writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    }
    key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${keyFile} does not hold a 256-bit key`);
    return key;
  };
  return {
    async save(_name, value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', loadKey(), iv);
      const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return `${LOCAL_PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
    },
    async read(reference) {
      if (!reference.startsWith(LOCAL_PREFIX)) throw new Error('not a locally encrypted secret');
      const packed = Buffer.from(reference.slice(LOCAL_PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', loadKey(), packed.subarray(0, 12));
      decipher.setAuthTag(packed.subarray(12, 28));
      return Buffer.concat([decipher.update(packed.subarray(28)), decipher.final()]).toString('utf8');
    },
    // The sealed value lives only on the record: a reference that was never stored is gone.
    async remove() {},
  };
};

const sdk = () => import('@aws-sdk/client-secrets-manager');

/** The Secrets Manager client, created on first use and kept for the container. */
const secretsManager = fromSettings(
  async ({ region }): Promise<SecretsManagerClient> =>
    traced(new (await sdk()).SecretsManagerClient({ region })),
);

export const secretsManagerStore = (
  client: SecretsManagerClient | Promise<SecretsManagerClient> = secretsManager(),
): SecretStore => {
  // The provider (and its cache) of this store, created on the first read.
  let provider: Promise<SecretsProvider> | undefined;
  const cached = () => {
    provider ??= Promise.all([import('@aws-lambda-powertools/parameters/secrets'), client]).then(
      ([{ SecretsProvider }, resolved]) => new SecretsProvider({ awsSdkV3Client: resolved }),
    );
    return provider;
  };
  return {
    async save(name, value) {
      const { CreateSecretCommand } = await sdk();
      const created = await (await client).send(
        new CreateSecretCommand({
          Name: `tabletalk/${settings().stage}/databases/${name}`,
          SecretString: value,
        }),
      );
      if (!created.ARN) throw new Error('Secrets Manager returned no ARN');
      return created.ARN;
    },
    async read(reference) {
      const value = await (await cached()).get(reference, { maxAge: settings().secretsMaxAgeSeconds });
      if (typeof value !== 'string') throw new Error('secret has no string value');
      return value;
    },
    async remove(reference) {
      const { DeleteSecretCommand } = await sdk();
      await (await client).send(
        new DeleteSecretCommand({ SecretId: reference, ForceDeleteWithoutRecovery: true }),
      );
    },
  };
};

/** The Secrets Manager store of this container (one cache for every read). */
const deployedStore = fromSettings(() => secretsManagerStore());

/** The store of this stage: local encryption when running against DynamoDB Local. */
export const secretStore = (): SecretStore => {
  const { dynamodbEndpoint, localSecretKeyFile } = settings();
  return dynamodbEndpoint !== undefined ? localSecretStore(localSecretKeyFile) : deployedStore();
};
