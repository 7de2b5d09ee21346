// Settings read from the environment once per container. serverless.yml sets them per stage;
// the local stack sets them for its own processes (local/stack.ts).

const read = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

/** A whole number within bounds; anything else (including NaN) falls back. */
const boundedInteger = (
  raw: string | undefined,
  { min, max, fallback }: { min: number; max: number; fallback: number },
) => {
  const value = Number(raw);
  return raw !== undefined && Number.isInteger(value) ? Math.min(max, Math.max(min, value)) : fallback;
};

/** `free=1000,starter=100000`: per-plan numbers; entries that are not `<plan>=<positive integer>` are ignored. */
const planNumbers = (raw: string | undefined): Partial<Record<string, number>> => {
  const numbers: Partial<Record<string, number>> = {};
  for (const entry of (raw ?? '').split(',')) {
    const match = /^\s*([a-z]+)\s*=\s*([1-9][0-9]{0,9})\s*$/.exec(entry);
    if (match?.[1] && match[2]) numbers[match[1]] = Number(match[2]);
  }
  return numbers;
};

export const config = {
  stage: read('STAGE') ?? 'local',
  tableName: read('TABLE_NAME') ?? 'tabletalk-local',
  /** Set only for DynamoDB Local; deployed stages use the regional endpoint. */
  dynamodbEndpoint: read('DYNAMODB_ENDPOINT'),
  /** Key file of locally encrypted connection secrets (local stack only). */
  localSecretKeyFile: read('LOCAL_SECRET_KEY_FILE') ?? '.local/credentials.key',
  region: read('AWS_REGION') ?? read('AWS_DEFAULT_REGION') ?? 'us-east-1',
  /** How long a resolved API key stays cached in a warm container (seconds, at most 60). */
  keyCacheTtlSeconds: boundedInteger(read('KEY_CACHE_TTL_SECONDS'), { min: 0, max: 60, fallback: 60 }),
  jwt: {
    secret: read('JWT_SECRET'),
    jwksUrl: read('JWT_JWKS_URL'),
    issuer: read('JWT_ISSUER'),
    audience: read('JWT_AUDIENCE'),
  },
  /** HMAC key of page cursors (lib/store/cursor.ts); list endpoints refuse to run without one. */
  cursorSecret: read('CURSOR_SECRET'),
  /** Base URL of the default logos served when an organization has set none. */
  assetsUrl: read('ASSETS_URL') ?? 'https://assets.tabletalk.dev',
  /**
   * Rate limits, the monthly quota and the concurrency lease on every request (README "Limits").
   * On unless LIMITS_ENABLED is `false`: the benchmark's limits-off baseline, and unit tests of
   * other concerns that count DynamoDB calls.
   */
  limitsEnabled: !/^(false|0|off|no)$/i.test(read('LIMITS_ENABLED') ?? 'true'),
  /** MONTHLY_QUOTAS=`free=1000,starter=100000`: replaces plans' monthly API quotas (lib/limits/plans.ts). */
  monthlyQuotas: planNumbers(read('MONTHLY_QUOTAS')),
} as const;
