// The functions as deployed: `serverless package --stage prod` into a temporary folder, zips
// unpacked inside the project (so a bundle's one external, @aws-sdk/*, resolves from node_modules
// as it would from the Lambda runtime), and a packaged handler run in a fresh Node process that
// has nothing but the bundle and the environment it is given.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { secretStore } from '#lib/connectors/secrets.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { ordersCatalog } from '../fixtures/catalogs/orders.ts';

const run = promisify(execFile);
export const projectRoot = process.cwd();
const binDir = resolve(projectRoot, 'node_modules/.bin');

export interface PackagedStage {
  /** Where `serverless package` wrote the zips and the CloudFormation templates. */
  dir: string;
  /** Inside the project's node_modules/.cache: where the zips are unpacked. */
  extractDir: string;
  /** Unpacks `zip` into `extractDir` (or its subfolder `into`); returns the folder. */
  unzip(zip: string, into?: string): Promise<string>;
  /** The paths of the files in `zip`. */
  entries(zip: string): Promise<string[]>;
  remove(): void;
}

/** The secrets a deployed stage refuses to take from the environment (infra/stage-settings.cjs). */
export const PLAIN_SECRET_VARIABLES = [
  'TABLETALK_JWT_SECRET',
  'TABLETALK_CURSOR_SECRET',
  'TABLETALK_EMBED_SESSION_SECRET',
  'TABLETALK_OPENAI_API_KEY',
] as const;

/**
 * What packaging a deployed stage needs (infra/stage-settings.cjs), as test values: the portal
 * tokens' issuer and audience, the ARN of the stage's secret (never read at package time), and the
 * address its alarms notify.
 */
export const deployedStageSettings = (stage: string): Record<string, string> => ({
  TABLETALK_JWT_ISSUER: 'https://portal.test.example',
  TABLETALK_JWT_AUDIENCE: `tabletalk:${stage}`,
  TABLETALK_SECRETS_ARN: `arn:aws:secretsmanager:us-east-1:000000000000:secret:tabletalk/${stage}/service-Test00`,
  TABLETALK_ALARM_EMAIL: 'alarms@test.example',
});

/** The environment `serverless package --stage <stage>` runs with: this process's, made fit for a deployed stage. */
export const packagingEnvironment = (stage: string, unset: readonly string[] = []): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}`,
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    AWS_REGION: 'us-east-1',
    ...deployedStageSettings(stage),
    // A build folder of this packaging's own: packaging tests run side by side, and a shared
    // .esbuild lets one stage's files (the demo stage's embedded database) into another's zips.
    TABLETALK_ESBUILD_WORK_FOLDER: join('.esbuild-runs', randomBytes(6).toString('hex')),
  };
  // Secrets of the machine running the tests must not reach a deployed stage's package.
  for (const variable of [...PLAIN_SECRET_VARIABLES, 'TABLETALK_JWT_JWKS_URL', ...unset])
    delete env[variable];
  return env;
};

/**
 * Packages a deployed stage, prod unless named (`name` tells the temporary folders apart). `unset`
 * names variables of this process that `serverless package` must not see.
 */
export const packageStage = async (
  name: string,
  unset: string[] = [],
  stage = 'prod',
): Promise<PackagedStage> => {
  const dir = mkdtempSync(join(tmpdir(), `tabletalk-package-${name}-`));
  const extractDir = join(
    projectRoot,
    'node_modules',
    '.cache',
    `tabletalk-package-${name}-${randomBytes(4).toString('hex')}`,
  );
  const remove = () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(extractDir, { recursive: true, force: true });
  };
  const env = packagingEnvironment(stage, unset);
  try {
    await run(join(binDir, 'serverless'), ['package', '--stage', stage, '--package', dir], {
      cwd: projectRoot,
      env,
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    remove();
    throw error;
  }
  return {
    dir,
    extractDir,
    unzip: async (zip, into) => {
      const target = into === undefined ? extractDir : join(extractDir, into);
      mkdirSync(target, { recursive: true });
      await run('unzip', ['-q', join(dir, zip), '-d', target]);
      return target;
    },
    entries: async (zip) => (await run('unzip', ['-Z1', join(dir, zip)])).stdout.split('\n').filter(Boolean),
    remove,
  };
};

/** The environment of a packaged function against the test's DynamoDB Local: prod (or `stage`), limits off, logs silent. */
export const packagedEnvironment = (stage = 'prod'): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  STAGE: stage,
  AWS_REGION: 'us-east-1',
  TABLE_NAME: process.env.TABLE_NAME ?? '',
  DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT ?? '',
  LOCAL_SECRET_KEY_FILE: process.env.LOCAL_SECRET_KEY_FILE ?? '',
  LIMITS_ENABLED: 'false',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  DB_CONNECT_TIMEOUT_MS: '2000',
});

/** Source text of a Lambda context object for `functionName`, for the scripts given to runPackaged. */
export const lambdaContextSource = (functionName: string): string => `{
  functionName: '${functionName}', awsRequestId: 'smoke', invokedFunctionArn: 'arn:aws:lambda:us-east-1:0:function:x',
  memoryLimitInMB: '1024', getRemainingTimeInMillis: () => 29_000,
}`;

/**
 * Runs `script` (an ES module whose argv is the bundle's file URL, then the event as JSON) in a
 * fresh Node process in `cwd` with only `env`; its output.
 */
export const runPackaged = (
  script: string,
  bundle: string,
  event: unknown,
  options: { cwd: string; env: NodeJS.ProcessEnv; sourceMaps?: boolean },
): Promise<{ stdout: string; stderr: string }> =>
  run(
    join(binDir, 'node'),
    [
      ...(options.sourceMaps === false ? [] : ['--enable-source-maps']),
      '--input-type=module',
      '-e',
      script,
      pathToFileURL(bundle).href,
      JSON.stringify(event),
    ],
    { cwd: options.cwd, timeout: 60_000, env: options.env },
  );

/** An organization (professional) with an sk_ key, and a postgres database at `url` indexed with ordersCatalog. */
export const seedOrdersDatabase = async (organizationName: string, url: string) => {
  const organization = await createOrganization({ name: organizationName, plan: 'professional' });
  const databaseId = newDatabaseId();
  await addDatabase({
    id: databaseId,
    organizationId: organization.id,
    name: 'Packaged shop',
    engine: 'postgres',
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'org_id',
    policy: { tenant_column: 'org_id', tables: {} },
    connectionRef: await secretStore().save(databaseId, url),
    schemaIndex: await writeSchemaIndex(databaseId, ordersCatalog),
  });
  const key = await createApiKey({ organizationId: organization.id, kind: 'sk' });
  return { organizationId: organization.id, databaseId, key: key.key };
};
