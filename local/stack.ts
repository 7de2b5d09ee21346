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

/** A secret kept under .local/ and created on first use (the local JWT and cursor secrets). */
const localSecret = (name: string): string => {
  const file = join(localDir, name);
  if (!existsSync(file)) {
    mkdirSync(localDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
};

/**
 * Puts the functions' environment into this process (the stage's settings, then the local
 * overrides) and makes the settings (lib/config.ts) read it afresh.
 */
export const applyLocalEnvironment = (
  functionEnvironment: Record<string, string>,
  stack: StackInfo,
): void => {
  for (const [name, value] of Object.entries(functionEnvironment)) process.env[name] ??= value;
  process.env.STAGE = LOCAL_STAGE;
  process.env.TABLE_NAME = stack.tableName;
  process.env.DYNAMODB_ENDPOINT = stack.dynamodbEndpoint;
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.LOCAL_SECRET_KEY_FILE ??= join(localDir, 'credentials.key');
  process.env.POWERTOOLS_LOG_LEVEL = process.env.LOG_LEVEL ?? 'WARN';
  process.env.JWT_SECRET = process.env.TABLETALK_JWT_SECRET || localSecret('jwt.secret');
  process.env.JWT_JWKS_URL = '';
  process.env.CURSOR_SECRET = process.env.TABLETALK_CURSOR_SECRET || localSecret('cursor.secret');
  resetSettings();
};
