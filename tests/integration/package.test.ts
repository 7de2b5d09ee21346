// Packages the service offline (`serverless package`) for prod and dev and checks the
// CloudFormation it would deploy against docs/design.md: the table's keys, indexes, TTL and
// per-stage protection, Node 24 on arm64, log retention, least-privilege IAM, one REST route
// per function under /api/v1 (taken from serverless.yml, so new functions are covered), the
// gateway responses in the error envelope, and bundle sizes.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_AGE_SECONDS } from '#lib/manage/job-states.ts';
import { sourceBytes } from '../../bench/bundle-bytes.ts';
import { readServerlessYml, routesOf } from '../../local/serverless-config.ts';
import { apiEvent } from '../helpers/events.ts';
import {
  lambdaContextSource,
  packagedEnvironment,
  packagingEnvironment,
  runPackaged,
} from '../helpers/packaged.ts';

const run = promisify(execFile);
const projectRoot = process.cwd();
const binDir = resolve(projectRoot, 'node_modules/.bin');
const PACKAGE_TIMEOUT_MS = 120_000;
const MAX_BUNDLE_BYTES = 150 * 1024;
const REFERENCE_RENDERER = 'node_modules/redoc/bundles/redoc.standalone.js';

type Resource = {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  DependsOn?: unknown;
};
type Template = { Resources: Record<string, Resource> };

interface Packaged {
  dir: string;
  template: Template;
}

/** `serverless package --stage <stage>` into a fresh folder, with the project's Node 24 first on PATH. */
const packageStage = async (stage: string): Promise<Packaged> => {
  const dir = mkdtempSync(join(tmpdir(), `tabletalk-package-${stage}-`));
  // A deployed stage's settings (test values), and no secret of the machine running the tests.
  const env = packagingEnvironment(stage);
  try {
    await run(join(binDir, 'serverless'), ['package', '--stage', stage, '--package', dir], {
      cwd: projectRoot,
      env,
      timeout: PACKAGE_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`serverless package --stage ${stage} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, {
      cause: error,
    });
  }
  const template = JSON.parse(
    readFileSync(join(dir, 'cloudformation-template-update-stack.json'), 'utf8'),
  ) as Template;
  return { dir, template };
};

// ---------------------------------------------------------------------------------------------
// serverless.yml, read as data: its functions and their http events (built from the route
// objects of lib/routes/, as infra/functions.cjs builds them when packaging).

interface HttpRoute {
  functionName: string;
  handler: string;
  method: string;
  /** Without leading or trailing slash, e.g. `api/v1/branding`. */
  path: string;
}

type ServerlessYml = {
  custom: { answeringFunctions?: string[]; guardFunctions?: string[] };
};
const serverlessYml = readServerlessYml<ServerlessYml>(projectRoot);
const trimSlashes = (path: string) => path.replace(/^\/+|\/+$/g, '');

const declaredRoutes = (): HttpRoute[] =>
  routesOf(serverlessYml).map(({ functionName, handler, method, path }) => ({
    functionName,
    handler,
    method,
    path: trimSlashes(path),
  }));

// ---------------------------------------------------------------------------------------------
// The template, read as data.

const resourcesOfType = (template: Template, type: string) =>
  Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);

/** Full path of an API Gateway resource, following ParentId up to the API's root. */
const resourcePath = (template: Template, logicalId: string): string => {
  const resource = template.Resources[logicalId];
  if (resource?.Type !== 'AWS::ApiGateway::Resource')
    throw new Error(`${logicalId} is not an API Gateway resource`);
  const properties = resource.Properties as {
    PathPart: string;
    ParentId: { Ref?: string; 'Fn::GetAtt'?: string[] };
  };
  const parent = properties.ParentId.Ref;
  return parent ? `${resourcePath(template, parent)}/${properties.PathPart}` : properties.PathPart;
};

interface TemplateRoute {
  method: string;
  path: string;
  /** Logical id of the Lambda function the integration invokes. */
  target: string | undefined;
}

const templateRoutes = (template: Template): TemplateRoute[] =>
  resourcesOfType(template, 'AWS::ApiGateway::Method').map(([, method]) => {
    const properties = method.Properties as {
      HttpMethod: string;
      ResourceId: { Ref: string };
      Integration?: { Uri?: unknown };
    };
    const uri = JSON.stringify(properties.Integration?.Uri ?? '');
    const target = /"Fn::GetAtt":\["(\w+)","Arn"\]/.exec(uri)?.[1];
    return { method: properties.HttpMethod, path: resourcePath(template, properties.ResourceId.Ref), target };
  });

/** The logical id of the Lambda function packaged for a serverless.yml function. */
const functionLogicalId = (template: Template, stage: string, functionName: string): string => {
  const match = resourcesOfType(template, 'AWS::Lambda::Function').find(
    ([, fn]) =>
      (fn.Properties as { FunctionName: string }).FunctionName === `tabletalk-${stage}-${functionName}`,
  );
  if (!match) throw new Error(`no Lambda function for ${functionName}`);
  return match[0];
};

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
const iamStatements = (template: Template): Statement[] =>
  resourcesOfType(template, 'AWS::IAM::Role').flatMap(([, role]) =>
    (
      (role.Properties as { Policies?: { PolicyDocument: { Statement: Statement[] } }[] }).Policies ?? []
    ).flatMap((policy) => policy.PolicyDocument.Statement),
  );
const actionsOf = (statement: Statement) =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];
const resourcesOf = (statement: Statement) =>
  Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];

/** Uncompressed sizes of a zip's entries, read from its central directory. */
const zipEntries = (file: string): Map<string, number> => {
  const zip = readFileSync(file);
  const endOfDirectory = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endOfDirectory < 0) throw new Error(`${file} is not a zip`);
  const count = zip.readUInt16LE(endOfDirectory + 10);
  let offset = zip.readUInt32LE(endOfDirectory + 16);
  const entries = new Map<string, number>();
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${file}: bad central directory entry`);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    entries.set(zip.toString('utf8', offset + 46, offset + 46 + nameLength), size);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
};

// ---------------------------------------------------------------------------------------------

let prod: Packaged;
let dev: Packaged;

// Sequential on purpose: both runs share the project's .esbuild work folder.
beforeAll(
  async () => {
    prod = await packageStage('prod');
    dev = await packageStage('dev');
  },
  2 * PACKAGE_TIMEOUT_MS + 10_000,
);

afterAll(() => {
  for (const packaged of [prod, dev]) if (packaged) rmSync(packaged.dir, { recursive: true, force: true });
});

const table = (packaged: Packaged) => {
  const resource = packaged.template.Resources.ChatTable;
  expect(resource?.Type).toBe('AWS::DynamoDB::Table');
  return resource as Resource & { Properties: Record<string, unknown> };
};

describe('serverless package --stage prod', () => {
  it('declares the chat table: on-demand, PK/SK, GSI1 and GSI2, TTL on expiresAt', () => {
    const properties = table(prod).Properties;
    expect(properties.TableName).toBe('tabletalk-prod');
    expect(properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(properties.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    const indexes = properties.GlobalSecondaryIndexes as { IndexName: string; KeySchema: unknown }[];
    expect(indexes.map((index) => index.IndexName).sort()).toEqual(['GSI1', 'GSI2']);
    for (const name of ['GSI1', 'GSI2']) {
      expect(indexes.find((index) => index.IndexName === name)?.KeySchema).toEqual([
        { AttributeName: `${name}PK`, KeyType: 'HASH' },
        { AttributeName: `${name}SK`, KeyType: 'RANGE' },
      ]);
    }
    const attributes = properties.AttributeDefinitions as { AttributeName: string; AttributeType: string }[];
    for (const name of ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK']) {
      expect(attributes).toContainEqual({ AttributeName: name, AttributeType: 'S' });
    }
    expect(properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
  });

  it('protects the prod table: point-in-time recovery, deletion protection, DeletionPolicy Retain', () => {
    const resource = table(prod);
    expect(resource.Properties.PointInTimeRecoverySpecification).toEqual({
      PointInTimeRecoveryEnabled: true,
    });
    expect(resource.Properties.DeletionProtectionEnabled).toBe(true);
    expect(resource.DeletionPolicy).toBe('Retain');
  });

  it('runs every function on nodejs24.x (arm64) against the stage’s table', () => {
    const functions = resourcesOfType(prod.template, 'AWS::Lambda::Function');
    expect(functions).toHaveLength(Object.keys(serverlessYml.functions).length);
    for (const [logicalId, fn] of functions) {
      const properties = fn.Properties as {
        Runtime: string;
        Architectures: string[];
        Environment: { Variables: Record<string, string> };
      };
      expect(properties.Runtime, logicalId).toBe('nodejs24.x');
      expect(properties.Architectures, logicalId).toEqual(['arm64']);
      expect(properties.Environment.Variables.TABLE_NAME, logicalId).toBe(table(prod).Properties.TableName);
    }
  });

  it('throttles the whole API Gateway stage before any function runs (per-stage rate and burst)', () => {
    const deployments = resourcesOfType(prod.template, 'AWS::ApiGateway::Deployment');
    expect(deployments).toHaveLength(1);
    expect(deployments[0]?.[1].Properties?.StageDescription).toEqual({
      ThrottlingRateLimit: 500,
      ThrottlingBurstLimit: 1000,
    });
    const [, devDeployment] = resourcesOfType(dev.template, 'AWS::ApiGateway::Deployment')[0] ?? [];
    expect(devDeployment?.Properties?.StageDescription).toEqual({
      ThrottlingRateLimit: 50,
      ThrottlingBurstLimit: 100,
    });
  });

  it('keeps every function’s logs for 365 days', () => {
    const logGroups = resourcesOfType(prod.template, 'AWS::Logs::LogGroup');
    expect(logGroups).toHaveLength(Object.keys(serverlessYml.functions).length);
    for (const [logicalId, logGroup] of logGroups)
      expect(logGroup.Properties?.RetentionInDays, logicalId).toBe(365);
  });

  it('routes every http event of serverless.yml, under /api/v1 (and /docs), to its own function', () => {
    // Arrange
    const declared = declaredRoutes();
    const routes = templateRoutes(prod.template).filter((route) => route.method !== 'ANY');
    // routeFallback's ANY routes are checked below; the indexer has no route (asynchronous invocations).
    const endpointFunctions = Object.keys(serverlessYml.functions).filter(
      (name) => name !== 'routeFallback' && name !== 'indexer',
    );
    expect(new Set(declared.map((route) => route.functionName))).toEqual(new Set(endpointFunctions));

    // Assert
    for (const route of declared) {
      // The API under /api/v1; its reference page for people at /docs.
      if (route.path !== 'docs')
        expect(route.path, `${route.functionName}: ${route.path}`).toMatch(/^api\/v1\//);
      const target = functionLogicalId(prod.template, 'prod', route.functionName);
      expect(routes, `${route.method} /${route.path}`).toContainEqual({
        method: route.method,
        path: route.path,
        target,
      });
    }
    expect(routes).toHaveLength(declared.length);
  });

  it('streams GET /chat/{conversation_id}/stream: ResponseTransferMode STREAM on the response-streaming URI', () => {
    // Arrange
    const target = functionLogicalId(prod.template, 'prod', 'stream');
    const methods = resourcesOfType(prod.template, 'AWS::ApiGateway::Method').filter(([, method]) => {
      const properties = method.Properties as { HttpMethod: string; ResourceId: { Ref: string } };
      return (
        properties.HttpMethod === 'GET' &&
        resourcePath(prod.template, properties.ResourceId.Ref) === 'api/v1/chat/{conversation_id}/stream'
      );
    });

    // Assert
    expect(methods).toHaveLength(1);
    const integration = (
      methods[0]![1].Properties as { Integration: { ResponseTransferMode?: string; Uri: unknown } }
    ).Integration;
    expect(integration.ResponseTransferMode).toBe('STREAM');
    const uri = JSON.stringify(integration.Uri);
    expect(uri).toContain('/2021-11-15/functions/');
    expect(uri).toContain(`"Fn::GetAtt":["${target}","Arn"]`);
    expect(uri).toContain('/response-streaming-invocations');
    // Every other route stays buffered.
    const streamed = resourcesOfType(prod.template, 'AWS::ApiGateway::Method').filter(
      ([, method]) =>
        (method.Properties as { Integration?: { ResponseTransferMode?: string } }).Integration
          ?.ResponseTransferMode === 'STREAM',
    );
    expect(streamed).toHaveLength(1);
  });

  it('answers wrong methods and unknown routes with the routeFallback function', () => {
    const fallback = functionLogicalId(prod.template, 'prod', 'routeFallback');
    const anyRoutes = templateRoutes(prod.template).filter((route) => route.method === 'ANY');
    const declaredPaths = new Set(declaredRoutes().map((route) => route.path));
    expect(new Set(anyRoutes.map((route) => route.path))).toEqual(new Set([...declaredPaths, '{proxy+}']));
    for (const route of anyRoutes) expect(route.target, route.path).toBe(fallback);
  });

  it('grants DynamoDB item operations on the stage’s table and its indexes only: no wildcard, no Scan', () => {
    const statements = iamStatements(prod.template);
    const allActions = statements.flatMap(actionsOf);
    expect(allActions).not.toContain('*');
    expect(allActions).not.toContain('dynamodb:*');
    expect(allActions.filter((action) => /^dynamodb:(Scan|\*)/i.test(action))).toEqual([]);

    const dynamodbStatements = statements.filter((statement) =>
      actionsOf(statement).some((a) => a.startsWith('dynamodb:')),
    );
    expect(dynamodbStatements.length).toBeGreaterThan(0);
    const tableArn = { 'Fn::GetAtt': ['ChatTable', 'Arn'] };
    for (const statement of dynamodbStatements) {
      expect(actionsOf(statement).every((action) => action.startsWith('dynamodb:'))).toBe(true);
      expect(actionsOf(statement)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      for (const resource of resourcesOf(statement)) {
        expect(resource).not.toBe('*');
        const isTable = JSON.stringify(resource) === JSON.stringify(tableArn);
        const isIndexes =
          JSON.stringify(resource) === JSON.stringify({ 'Fn::Join': ['', [tableArn, '/index/*']] });
        expect(isTable || isIndexes, JSON.stringify(resource)).toBe(true);
      }
    }
    // Every function runs under the role whose statements were checked.
    for (const [logicalId, fn] of resourcesOfType(prod.template, 'AWS::Lambda::Function')) {
      expect((fn.Properties as { Role: unknown }).Role, logicalId).toEqual({
        'Fn::GetAtt': ['IamRoleLambdaExecution', 'Arn'],
      });
    }
  });

  it('configures API Gateway’s own errors to answer in the error envelope, with X-Request-ID', () => {
    // Arrange
    const responses = new Map(
      resourcesOfType(prod.template, 'AWS::ApiGateway::GatewayResponse').map(([, resource]) => {
        const properties = resource.Properties as {
          ResponseType: string;
          StatusCode?: string;
          RestApiId: unknown;
          ResponseParameters: Record<string, string>;
          ResponseTemplates: Record<string, string>;
        };
        return [properties.ResponseType, properties] as const;
      }),
    );

    // Assert: the types docs/design.md names, plus throttling and body size.
    for (const type of [
      'MISSING_AUTHENTICATION_TOKEN',
      'DEFAULT_4XX',
      'DEFAULT_5XX',
      'THROTTLED',
      'REQUEST_TOO_LARGE',
    ]) {
      const response = responses.get(type);
      expect(response, type).toBeDefined();
      if (!response) continue;
      expect(response.RestApiId).toEqual({ Ref: 'ApiGatewayRestApi' });
      expect(response.ResponseParameters['gatewayresponse.header.X-Request-ID'], type).toEqual(
        expect.any(String),
      );
      // Substitute the mapping variables as API Gateway would, then read the body as JSON.
      const body = (response.ResponseTemplates['application/json'] ?? '')
        .replaceAll('$context.error.messageString', '"Some message"')
        .replace(/\$context\.[\w.]+/g, 'value');
      const envelope = JSON.parse(body) as Record<string, unknown>;
      expect(envelope).toMatchObject({
        success: false,
        error: { code: expect.any(String), message: expect.any(String), details: expect.any(String) },
        error_code: expect.any(String),
        message: expect.any(String),
        status_code: expect.any(Number),
        details: [],
        trace_id: 'value',
      });
      // Where the type fixes its status, the body tells the same one.
      if (response.StatusCode !== undefined)
        expect(envelope.status_code, type).toBe(Number(response.StatusCode));
    }
    expect(responses.get('MISSING_AUTHENTICATION_TOKEN')?.ResponseTemplates['application/json']).toContain(
      '"status_code":404',
    );
  });

  it('ships no embedded database engine in any zip of prod or dev, and the word vectors with the answering functions only', () => {
    // prod and dev list no embedded database seeds (serverless.yml custom.stages): PGlite's worker,
    // .wasm and .data (15.6 MB) and any seed stay out; the connector is lib/dialects/postgres/pglite-absent.ts.
    const answering = new Set(serverlessYml.custom.answeringFunctions ?? []);
    const pglite = /(^|\/)(pglite-worker\.mjs|pglite\.wasm|pglite\.data|initdb\.wasm)$|(^|\/)seeds\//;
    const vectors = /(^|\/)word-vectors\.bin$/;
    for (const packaged of [prod, dev]) {
      for (const functionName of Object.keys(serverlessYml.functions)) {
        const entries = zipEntries(join(packaged.dir, `${functionName}.zip`));
        const names = [...entries.keys()];
        expect(
          names.filter((name) => pglite.test(name)),
          functionName,
        ).toEqual([]);
        const vectorFiles = names.filter((name) => vectors.test(name));
        expect(vectorFiles.length, functionName).toBe(answering.has(functionName) ? 1 : 0);
        // The committed file, whole, beside WordNet's folder (both beside the engine's chunk).
        if (vectorFiles[0]) {
          expect(entries.get(vectorFiles[0]), functionName).toBe(
            statSync(join(projectRoot, 'lib/answer/builtin/word-vectors.bin')).size,
          );
          const folder = vectorFiles[0].slice(0, vectorFiles[0].lastIndexOf('/') + 1);
          expect(names, functionName).toContain(`${folder}wordnet/index.noun`);
        }
      }
    }
  });

  it('ships one zip per function whose .mjs holds at most 150 KB of own code (answering functions apart), the AWS SDK bundled in', async () => {
    const answering = new Set(serverlessYml.custom.answeringFunctions ?? []);
    // The functions that run the SQL guard: the answering ones and the control plane's guardFunctions.
    const guarded = new Set([...answering, ...(serverlessYml.custom.guardFunctions ?? [])]);
    for (const [functionName, fn] of Object.entries(serverlessYml.functions)) {
      // Arrange
      const zip = join(prod.dir, `${functionName}.zip`);
      expect(existsSync(zip), zip).toBe(true);
      const bundle = `${fn.handler.slice(0, fn.handler.lastIndexOf('.'))}.mjs`;

      // Act
      const entries = zipEntries(zip);

      // Assert
      const size = entries.get(bundle);
      expect(size, `${functionName}: ${bundle} in ${[...entries.keys()].join(', ')}`).toBeDefined();
      expect(size).toBeGreaterThan(0);
      // Own code: the bytes the source map does not attribute to the bundled AWS SDK
      // (bench/bundle-bytes.ts). Answering functions carry the SQL guard's parsers; their size is
      // reported by npm run bench.
      if (!answering.has(functionName)) {
        const [code, map] = await Promise.all(
          [bundle, `${bundle}.map`].map(
            async (entry) => (await run('unzip', ['-p', zip, entry], { maxBuffer: 64 * 1024 * 1024 })).stdout,
          ),
        );
        const bytes = sourceBytes(code!, JSON.parse(map!));
        expect(bytes.total - bytes.sdk, functionName).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
      }
      // The functions that run the SQL guard carry the PostgreSQL parser's .wasm, beside the chunk that loads
      // it; chunks live under `<bundle>.chunks/`, so no zip carries another function's.
      const names = [...entries.keys()];
      expect(
        names.some((name) => name.endsWith('/libpg-query.wasm')),
        functionName,
      ).toBe(guarded.has(functionName));
      const chunkDir = `${bundle.slice(0, -'.mjs'.length)}.chunks/`;
      // The answering functions also carry WordNet's files in a `wordnet/` folder beside the output
      // that holds the builtin engine (infra/esbuild-plugins.cjs); no other function does.
      const wordnet = /(^|\/)wordnet\/(index|data)\.(noun|verb|adj|adv)$/;
      expect(
        names.filter(
          (name) =>
            name !== bundle &&
            !name.startsWith(`${bundle}.`) &&
            !name.startsWith(chunkDir) &&
            !(answering.has(functionName) && wordnet.test(name)) &&
            // The reference page's renderer (GET /docs, lib/openapi/page.ts), read at run time.
            !(functionName === 'openapi' && name === REFERENCE_RENDERER),
        ),
        functionName,
      ).toEqual([]);
      expect(names.includes(REFERENCE_RENDERER), functionName).toBe(functionName === 'openapi');
      expect(names.filter((name) => wordnet.test(name)).length, functionName).toBe(
        answering.has(functionName) ? 8 : 0,
      );
      expect([...entries.keys()].filter((name) => name.includes('node_modules/@aws-sdk'))).toEqual([]);
      const code = functionLogicalId(prod.template, 'prod', functionName);
      const properties = prod.template.Resources[code]?.Properties as
        | { Code?: { S3Key?: string } }
        | undefined;
      expect(properties?.Code?.S3Key ?? '').toMatch(new RegExp(`/${functionName}\\.zip$`));
    }
  });

  it('serves /docs from the openapi zip alone: the page with its renderer inline', async () => {
    // Unpacked where no node_modules folder is above it, as in Lambda's /var/task.
    const dir = mkdtempSync(join(tmpdir(), 'tabletalk-openapi-'));
    try {
      await run('unzip', ['-q', join(prod.dir, 'openapi.zip'), '-d', dir]);
      const script = `
        const [file, eventJson] = process.argv.slice(1);
        const { handler } = await import(file);
        const result = await handler(JSON.parse(eventJson), ${lambdaContextSource('tabletalk-prod-openapi')});
        const { statusCode, headers, body } = result;
        process.stdout.write(JSON.stringify({
          statusCode, headers, length: body.length, init: body.includes("Redoc.init(base + 'api/v1/openapi.json'"),
        }));
      `;
      const event = apiEvent({ method: 'GET', path: '/docs', resource: '/docs', stage: 'prod' });
      const { stdout } = await runPackaged(script, join(dir, 'functions', 'openapi.mjs'), event, {
        cwd: dir,
        env: packagedEnvironment(),
      });
      const result = JSON.parse(stdout) as {
        statusCode: number;
        headers: Record<string, string>;
        length: number;
        init: boolean;
      };
      expect(result.statusCode).toBe(200);
      expect(result.headers['Content-Type']).toMatch(/^text\/html/);
      expect(result.init).toBe(true);
      // The renderer (1.1 MB) is inline.
      expect(result.length).toBeGreaterThan(1_000_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('serverless package --stage dev', () => {
  it('leaves the dev table unprotected: no point-in-time recovery, no deletion protection, DeletionPolicy Delete', () => {
    const resource = table(dev);
    expect(resource.Properties.TableName).toBe('tabletalk-dev');
    expect(resource.Properties.PointInTimeRecoverySpecification).toEqual({
      PointInTimeRecoveryEnabled: false,
    });
    expect(resource.Properties.DeletionProtectionEnabled).toBe(false);
    expect(resource.DeletionPolicy).toBe('Delete');
  });

  it('keeps dev logs for less time than prod', () => {
    for (const [logicalId, logGroup] of resourcesOfType(dev.template, 'AWS::Logs::LogGroup')) {
      expect(logGroup.Properties?.RetentionInDays, logicalId).toBeLessThan(365);
    }
  });

  it('names the dev table in the dev functions and scopes IAM to it alone', () => {
    for (const [logicalId, fn] of resourcesOfType(dev.template, 'AWS::Lambda::Function')) {
      const variables = (fn.Properties as { Environment: { Variables: Record<string, string> } }).Environment
        .Variables;
      expect(variables.TABLE_NAME, logicalId).toBe('tabletalk-dev');
    }
    expect(JSON.stringify(iamStatements(dev.template))).not.toContain('tabletalk-prod');
  });
});

describe('serverless package --stage prod: the control plane', () => {
  it('packages the indexer: asynchronous invocations only, no retries, failures to a queue, its deadline in the jobs', () => {
    // Arrange
    const indexer = functionLogicalId(prod.template, 'prod', 'indexer');
    const properties = prod.template.Resources[indexer]?.Properties as {
      Timeout: number;
      Environment: { Variables: Record<string, string> };
    };
    const databases = prod.template.Resources[functionLogicalId(prod.template, 'prod', 'databases')]
      ?.Properties as { Environment: { Variables: Record<string, string> } };
    const invokeConfigs = resourcesOfType(prod.template, 'AWS::Lambda::EventInvokeConfig').map(
      ([, resource]) => resource.Properties,
    );

    // Assert: the deadline a job is read as failed after (lib/manage/job-states.ts) is the function's.
    expect(properties.Timeout).toBe(900);
    expect(properties.Environment.Variables.INDEXER_TIMEOUT_SECONDS).toBe(String(properties.Timeout));
    expect(databases.Environment.Variables.INDEXER_TIMEOUT_SECONDS).toBe(String(properties.Timeout));
    expect(databases.Environment.Variables.INDEXER_FUNCTION_NAME).toBe('tabletalk-prod-indexer');
    expect(invokeConfigs).toContainEqual(
      expect.objectContaining({
        FunctionName: { Ref: indexer },
        MaximumRetryAttempts: 0,
        MaximumEventAgeInSeconds: MAX_EVENT_AGE_SECONDS,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': ['IndexerFailureQueue', 'Arn'] } } },
      }),
    );
    expect(prod.template.Resources.IndexerFailureQueue?.Type).toBe('AWS::SQS::Queue');
    expect(templateRoutes(prod.template).filter((route) => route.target === indexer)).toEqual([]);
  });

  it('lets the functions invoke the indexer and keep the stage’s connection secrets, and nothing wider', () => {
    // Arrange
    const policies = resourcesOfType(prod.template, 'AWS::IAM::Policy').map(
      ([, resource]) =>
        resource.Properties as {
          Roles: unknown[];
          PolicyDocument: { Statement: Statement[] };
        },
    );
    const statements = policies.flatMap((policy) => policy.PolicyDocument.Statement);
    const onRole = policies.every(
      (policy) => JSON.stringify(policy.Roles) === JSON.stringify([{ Ref: 'IamRoleLambdaExecution' }]),
    );
    const invoke = statements.filter((statement) => actionsOf(statement).includes('lambda:InvokeFunction'));
    const secrets = statements.filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith('secretsmanager:')),
    );

    // Assert
    expect(onRole).toBe(true);
    expect(invoke).toHaveLength(1);
    expect(actionsOf(invoke[0]!)).toEqual(['lambda:InvokeFunction']);
    expect(JSON.stringify(resourcesOf(invoke[0]!))).toContain(':function:tabletalk-prod-indexer');
    expect(JSON.stringify(resourcesOf(invoke[0]!))).not.toContain('*');
    expect(secrets.flatMap(actionsOf).sort()).toEqual([
      'secretsmanager:CreateSecret',
      'secretsmanager:DeleteSecret',
    ]);
    for (const statement of secrets)
      expect(JSON.stringify(resourcesOf(statement))).toContain(':secret:tabletalk/prod/databases/*');
    // The failure destination: Lambda sends with the functions' role (serverless adds the grant).
    const send = iamStatements(prod.template).filter((statement) =>
      actionsOf(statement).includes('sqs:SendMessage'),
    );
    expect(send.map(resourcesOf)).toEqual([[{ 'Fn::GetAtt': ['IndexerFailureQueue', 'Arn'] }]]);
  });
});
