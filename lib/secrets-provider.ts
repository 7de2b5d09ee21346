// The service's own secrets (docs/operator-guide.md "Per-stage settings and secrets"): the portal
// JWT key, the cursor and embed-session signing keys and the model provider's API key.
//
// A deployed stage keeps them in one Secrets Manager secret of its own, a JSON object whose keys
// are the names below, and gives the functions only its ARN (SECRETS_ARN): no secret value is ever
// a Lambda environment variable, which anyone allowed lambda:GetFunctionConfiguration can read.
// The secret is read on first use, once per container, and kept for the container's life (warm
// invocations reuse it; a failed read is retried by the next request). A rotated value reaches
// new containers; redeploying the stage replaces the warm ones.
//
// Without SECRETS_ARN (the local stack, tests, tools) the environment variables of the same names
// are the source: local/stack.ts fills them from files under .local/.
//
// The Secrets Manager client is imported on first use: every authenticated function verifies
// portal tokens, and the client stays out of the bundle that a Lambda loads at cold start.
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { fromSettings, type Settings, settings } from '#lib/config.ts';
import { traced } from '#lib/observability/tracer.ts';

export const SERVICE_SECRET_NAMES = [
  'JWT_SECRET',
  'CURSOR_SECRET',
  'EMBED_SESSION_SECRET',
  'OPENAI_API_KEY',
] as const;
export type ServiceSecretName = (typeof SERVICE_SECRET_NAMES)[number];
type ServiceSecrets = { [name in ServiceSecretName]?: string | undefined };

const sdk = () => import('@aws-sdk/client-secrets-manager');

/** The Secrets Manager client, created on first use and kept for the container. */
const secretsManagerClient = fromSettings(
  async ({ region }): Promise<SecretsManagerClient> =>
    traced(new (await sdk()).SecretsManagerClient({ region })),
);

const fromEnvironment = (current: Settings): ServiceSecrets => ({
  JWT_SECRET: current.jwt.secret,
  CURSOR_SECRET: current.cursorSecret,
  EMBED_SESSION_SECRET: current.embedSessionSecret,
  OPENAI_API_KEY: current.answering.openai.apiKey,
});

/**
 * The stored JSON, keeping only the names above with non-empty string values. The errors name the
 * secret, never its text: JSON.parse's own message quotes the input.
 */
const parseStored = (text: string | undefined, arn: string): ServiceSecrets => {
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`The secret ${arn} (SECRETS_ARN) must hold a JSON object of the service's secrets`);
  const values: ServiceSecrets = {};
  for (const name of SERVICE_SECRET_NAMES) {
    const value = (parsed as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.trim() !== '') values[name] = value.trim();
  }
  return values;
};

// The read in progress or done, per settings (tests reset them); forgotten when it fails.
const stored = fromSettings(() => ({ values: undefined as Promise<ServiceSecrets> | undefined }));

const storedSecrets = (arn: string): Promise<ServiceSecrets> => {
  const holder = stored();
  if (!holder.values) {
    const values = (async () => {
      const [client, { GetSecretValueCommand }] = await Promise.all([secretsManagerClient(), sdk()]);
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
      return parseStored(SecretString, arn);
    })();
    holder.values = values;
    values.catch(() => {
      if (holder.values === values) holder.values = undefined;
    });
  }
  return holder.values;
};

/**
 * One of the service's secrets, or undefined when the stage has none of that name. Rejects when
 * the stage's secret cannot be read (an outage maps to 503 through lib/errors.ts).
 */
export const serviceSecret = async (name: ServiceSecretName): Promise<string | undefined> => {
  const current = settings();
  if (!current.secretsArn) return fromEnvironment(current)[name];
  return (await storedSecrets(current.secretsArn))[name];
};
