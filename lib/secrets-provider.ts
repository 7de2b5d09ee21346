// The service's own secrets (docs/operator-guide.md "Per-stage settings and secrets"): the portal
// JWT key, the cursor and embed-session signing keys and the model provider's API key.
//
// A deployed stage keeps them in one Secrets Manager secret of its own, a JSON object whose keys
// are the names below, and gives the functions only its ARN (SECRETS_ARN): no secret value is ever
// a Lambda environment variable, which anyone allowed lambda:GetFunctionConfiguration can read.
// The secret is read on first use through Powertools Parameters' SecretsProvider, whose cache
// keeps it for SECRETS_MAX_AGE_SECONDS (default 300): warm invocations reuse it, and the first use
// after that reads it again, so a rotated value is in use within that time in every container,
// without a new one. When that read fails (a Secrets Manager outage) the container goes on with
// the value it has and tries again on the next use; a container that never read it fails (503).
//
// Without SECRETS_ARN (the local stack, tests, tools) the environment variables of the same names
// are the source: local/stack.ts fills them from files under .local/.
//
// The Secrets Manager client and the provider are imported on first use: every authenticated
// function verifies portal tokens, and they stay out of the bundle that a Lambda loads at cold start.
import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { fromSettings, type Settings, settings } from '#lib/config.ts';
import { logger } from '#lib/log.ts';
import { traced } from '#lib/observability/tracer.ts';

export const SERVICE_SECRET_NAMES = [
  'JWT_SECRET',
  'CURSOR_SECRET',
  'EMBED_SESSION_SECRET',
  'OPENAI_API_KEY',
] as const;
export type ServiceSecretName = (typeof SERVICE_SECRET_NAMES)[number];
type ServiceSecrets = { [name in ServiceSecretName]?: string | undefined };

/**
 * A SecretsProvider (Powertools Parameters) on a traced Secrets Manager client, created on first
 * use and kept for the container: its cache holds each secret read for the `maxAge` given to `get`.
 */
export const cachedSecretsProvider = fromSettings(async ({ region }): Promise<SecretsProvider> => {
  const [{ SecretsManagerClient }, { SecretsProvider }] = await Promise.all([
    import('@aws-sdk/client-secrets-manager'),
    import('@aws-lambda-powertools/parameters/secrets'),
  ]);
  return new SecretsProvider({ awsSdkV3Client: traced(new SecretsManagerClient({ region })) });
});

/**
 * The string value of a Secrets Manager secret, read again once it is older than
 * SECRETS_MAX_AGE_SECONDS. Rejects when it cannot be read.
 */
export const cachedSecretString = async (secretId: string): Promise<string | undefined> => {
  const value = await (await cachedSecretsProvider()).get(secretId, {
    maxAge: settings().secretsMaxAgeSeconds,
  });
  return typeof value === 'string' ? value : undefined;
};

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

// The last values read, per settings (tests reset them): what the container goes on with when a
// read after the maximum age fails.
const lastRead = fromSettings(() => ({ values: undefined as ServiceSecrets | undefined }));

const storedSecrets = async (arn: string): Promise<ServiceSecrets> => {
  const holder = lastRead();
  let text: string | undefined;
  try {
    text = await cachedSecretString(arn);
  } catch (error) {
    if (!holder.values) throw error;
    logger.warn('The stage secret could not be read again; going on with the value read before', {
      error: error instanceof Error ? error.name : 'unknown',
    });
    return holder.values;
  }
  holder.values = parseStored(text, arn);
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
