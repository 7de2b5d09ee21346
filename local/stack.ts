// Settings shared by everything that runs against the local stack: npm start, npm run offline,
// npm run invoke and the admin command. `.local/stack.json` records where DynamoDB Local runs.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resetSettings } from '#lib/config.ts';

export const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
export const localDir = join(root, '.local');
export const LOCAL_STAGE = 'local';
export const LOCAL_TABLE = 'tabletalk-local';
export const DEFAULT_DYNAMODB_PORT = 8000;

export interface StackInfo {
  dynamodbEndpoint: string;
  tableName: string;
  baseUrl?: string;
  pid?: number;
}

const stackFile = join(localDir, 'stack.json');

export const readStackInfo = (): StackInfo | undefined =>
  existsSync(stackFile) ? (JSON.parse(readFileSync(stackFile, 'utf8')) as StackInfo) : undefined;

export const writeStackInfo = (info: StackInfo): void => {
  mkdirSync(localDir, { recursive: true });
  writeFileSync(stackFile, `${JSON.stringify(info, null, 2)}\n`);
};

/** A secret kept under .local/ and created on first use (the local JWT, cursor and embed-session secrets). */
const localSecret = (name: string): string => {
  const file = join(localDir, name);
  if (!existsSync(file)) {
    mkdirSync(localDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
};

/**
 * The functions' environment on the local stack: the stage's settings (`functionEnvironment`,
 * from the resolved serverless config) unless `env` sets them, then the local overrides: this
 * stack's table and DynamoDB Local, the key file and the secrets kept under .local/ (created on
 * first use). npm start applies it to its own process (applyLocalEnvironment); npm run offline
 * hands it to serverless-offline (local/offline.ts), so both run the functions alike.
 */
export const localEnvironment = (
  functionEnvironment: Readonly<Record<string, string>>,
  stack: StackInfo,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> => {
  const stage: Record<string, string> = {};
  for (const [name, value] of Object.entries(functionEnvironment)) stage[name] = env[name] ?? value;
  const kept = (name: string, fallback: string): string => env[name] ?? stage[name] ?? fallback;
  return {
    ...stage,
    STAGE: LOCAL_STAGE,
    TABLE_NAME: stack.tableName,
    DYNAMODB_ENDPOINT: stack.dynamodbEndpoint,
    AWS_REGION: kept('AWS_REGION', 'us-east-1'),
    LOCAL_SECRET_KEY_FILE: kept('LOCAL_SECRET_KEY_FILE', join(localDir, 'credentials.key')),
    POWERTOOLS_LOG_LEVEL: env.LOG_LEVEL ?? 'WARN',
    JWT_SECRET: env.TABLETALK_JWT_SECRET || localSecret('jwt.secret'),
    JWT_JWKS_URL: '',
    CURSOR_SECRET: env.TABLETALK_CURSOR_SECRET || localSecret('cursor.secret'),
    EMBED_SESSION_SECRET: env.TABLETALK_EMBED_SESSION_SECRET || localSecret('embed.secret'),
    // The secrets above are the local stack's; never a deployed stage's secret (lib/secrets-provider.ts).
    SECRETS_ARN: '',
  };
};

/**
 * Puts the functions' environment (localEnvironment) into this process and makes the settings
 * (lib/config.ts) read it afresh.
 */
export const applyLocalEnvironment = (
  functionEnvironment: Record<string, string>,
  stack: StackInfo,
): void => {
  Object.assign(process.env, localEnvironment(functionEnvironment, stack));
  resetSettings();
};
