// Observability as deployed: `serverless package --stage prod` and the CloudFormation it would
// deploy — X-Ray tracing on every function (and API Gateway) with its IAM permissions, metrics
// on, the dashboard (valid JSON, every function and every metric the functions emit) and the
// alarms with sensible thresholds (infra/monitoring.yml) — and the packaged bundles: the X-Ray
// SDK stays out of what a function imports at cold start (a chunk loaded on demand), and a
// packaged function run as in a Lambda with tracing and metrics on answers, prints its EMF
// lines and sends its segments to the X-Ray daemon address.
import { createSocket } from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldStartBytes } from '../../bench/bundle-bytes.ts';
import { readServerlessYml } from '../../local/serverless-config.ts';
import { apiEvent } from '../helpers/events.ts';
import { type PackagedStage, packageStage, projectRoot, runPackaged } from '../helpers/packaged.ts';

const MAX_STATIC_BYTES = 150 * 1024;

type Resource = { Type: string; Condition?: string; Properties: Record<string, unknown> };
type Template = { Resources: Record<string, Resource>; Conditions?: Record<string, unknown> };
type ServerlessYml = {
  provider: { tracing?: { lambda?: boolean; apiGateway?: boolean } };
  custom: { answeringFunctions?: string[] };
};
// Its functions built from the route objects, as packaging builds them (infra/functions.cjs).
const serverlessYml = readServerlessYml<ServerlessYml>(projectRoot);
const functionNames = Object.keys(serverlessYml.functions);
const lambdaName = (fn: string) => `tabletalk-prod-${fn}`;

let stage: PackagedStage | undefined;
let extractDir: string;
let template: Template;

beforeAll(async () => {
  stage = await packageStage('monitoring');
  template = JSON.parse(
    readFileSync(join(stage.dir, 'cloudformation-template-update-stack.json'), 'utf8'),
  ) as Template;
  extractDir = stage.extractDir;
  for (const fn of functionNames) await stage.unzip(`${fn}.zip`, fn);
}, 180_000);

afterAll(() => {
  stage?.remove();
});

const ofType = (type: string) => Object.entries(template.Resources).filter(([, r]) => r.Type === type);

// ---- Tracing and metrics settings -----------------------------------------------------------

describe('tracing and metrics', () => {
  it('traces every function (Active) and API Gateway, with the X-Ray permissions', () => {
    expect(serverlessYml.provider.tracing).toEqual({ lambda: true, apiGateway: true });
    const functions = ofType('AWS::Lambda::Function');
    expect(functions).toHaveLength(functionNames.length);
    for (const [id, fn] of functions) {
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> }).Variables;
      expect(variables, id).toMatchObject({
        POWERTOOLS_TRACE_ENABLED: 'true',
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
        POWERTOOLS_METRICS_DISABLED: 'false',
        POWERTOOLS_METRICS_NAMESPACE: 'tabletalk',
      });
    }
    const statements = ofType('AWS::IAM::Role').flatMap(([, role]) =>
      (
        role.Properties.Policies as { PolicyDocument: { Statement: { Action: string | string[] }[] } }[]
      ).flatMap((policy) => policy.PolicyDocument.Statement),
    );
    const actions = statements.flatMap((statement) =>
      Array.isArray(statement.Action) ? statement.Action : [statement.Action],
    );
    expect(actions).toEqual(expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']));
  });
});

// ---- The dashboard -------------------------------------------------------------------------

interface Widget {
  type: string;
  properties: { title?: string; metrics?: unknown[][]; alarms?: string[] };
}

const dashboard = (): Widget[] => {
  const dashboards = ofType('AWS::CloudWatch::Dashboard');
  expect(dashboards).toHaveLength(1);
  const body = (dashboards[0]![1].Properties.DashboardBody as { 'Fn::Sub': string })['Fn::Sub'];
  // Only pseudo parameters are left for Fn::Sub; every serverless variable is resolved.
  expect(body.match(/\$\{[^}]*\}/g)?.every((name) => /^\$\{AWS::\w+\}$/.test(name))).toBe(true);
  return (JSON.parse(body.replace(/\$\{AWS::(\w+)\}/g, 'pseudo-$1')) as { widgets: Widget[] }).widgets;
};

/** Every metric row of the dashboard as text, expressions included. */
const dashboardRows = (): string[] =>
  dashboard().flatMap((widget) => (widget.properties.metrics ?? []).map((row) => JSON.stringify(row)));

describe('the dashboard', () => {
  it('shows API requests, 4xx, 5xx and latency p50/p99', () => {
    const rows = dashboardRows();
    const api = '"ApiName","prod-tabletalk","Stage","prod"';
    for (const metric of ['Count', '4XXError', '5XXError'])
      expect(
        rows.some((row) => row.includes(`"AWS/ApiGateway","${metric}",${api}`)),
        metric,
      ).toBe(true);
    for (const stat of ['p50', 'p99'])
      expect(rows.some((row) => row.includes(`"Latency",${api}`) && row.includes(`"stat":"${stat}"`))).toBe(
        true,
      );
    expect(template.Resources.ApiGatewayRestApi?.Properties.Name).toBe('prod-tabletalk');
  });

  it('shows every function’s duration p50 and p99, throttles, errors and concurrency', () => {
    const widgets = dashboard();
    const functionsOf = (title: string) => {
      const widget = widgets.find((w) => w.properties.title === title);
      expect(widget, title).toBeDefined();
      return (widget?.properties.metrics ?? []).map((row) => row[3]);
    };
    const all = functionNames.map(lambdaName).sort();
    expect(functionsOf('Function duration p50 (ms)').sort()).toEqual(all);
    expect(functionsOf('Function duration p99 (ms)').sort()).toEqual(all);
    expect(functionsOf('Lambda throttles').sort()).toEqual(all);
    expect(functionsOf('Lambda errors').sort()).toEqual(all);
    expect(functionsOf('Lambda concurrency (max)').sort()).toEqual(all);
  });

  it('shows every metric the functions emit, and DynamoDB throttles of the stage’s table', () => {
    const rows = dashboardRows().join('\n');
    for (const metric of [
      'Requests',
      'Latency',
      'AnswerLatency',
      'AnswerLoadLatency',
      'AnswerEngineLatency',
      'AnswerGuardLatency',
      'AnswerDatabaseLatency',
      'AnswerStorageLatency',
      'RowsReturned',
      'ModelInputTokens',
      'ModelOutputTokens',
    ])
      expect(rows, metric).toContain(`"tabletalk","${metric}","service","tabletalk","stage","prod"`);
    // By dimension: errors by code, answers by kind, limiter rejections by limit.
    expect(rows).toContain(String.raw`{tabletalk,code,service,stage} MetricName=\"Errors\" stage=\"prod\"`);
    expect(rows).toContain(String.raw`{tabletalk,query_type,service,stage} MetricName=\"Answers\"`);
    expect(rows).toContain(String.raw`{tabletalk,limit,service,stage} MetricName=\"LimiterRejections\"`);
    for (const metric of ['ReadThrottleEvents', 'WriteThrottleEvents'])
      expect(rows).toContain(`"AWS/DynamoDB","${metric}","TableName","tabletalk-prod"`);
  });

  it('lists every alarm of the stack', () => {
    const alarmWidget = dashboard().find((widget) => widget.type === 'alarm');
    const names = ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties.AlarmName as string);
    expect(alarmWidget?.properties.alarms?.map((arn) => arn.split(':alarm:')[1]).sort()).toEqual(
      names.sort(),
    );
  });
});

// ---- The alarms ----------------------------------------------------------------------------

interface MetricQuery {
  Id: string;
  Expression?: string;
  ReturnData?: boolean;
  MetricStat?: {
    Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: string }[] };
    Period: number;
    Stat: string;
  };
}
interface AlarmProperties {
  AlarmName: string;
  Threshold: number;
  ComparisonOperator: string;
  EvaluationPeriods: number;
  DatapointsToAlarm?: number;
  TreatMissingData?: string;
  Metrics?: MetricQuery[];
  MetricName?: string;
  Namespace?: string;
  ExtendedStatistic?: string;
  Dimensions?: { Name: string; Value: string }[];
  AlarmActions?: unknown;
  OKActions?: unknown;
}

const alarms = (): AlarmProperties[] =>
  ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties as unknown as AlarmProperties);
const queried = (alarm: AlarmProperties) =>
  (alarm.Metrics ?? []).flatMap((q) => (q.MetricStat ? [q.MetricStat] : []));
const alarmsOn = (namespace: string, metric: string) =>
  alarms().filter((alarm) =>
    queried(alarm).some((stat) => stat.Metric.Namespace === namespace && stat.Metric.MetricName === metric),
  );

describe('the alarms', () => {
  it('alarms on the API’s 5xx rate with metric math on 5XXError / Count, above 1 %', () => {
    const [alarm] = alarmsOn('AWS/ApiGateway', '5XXError');
    expect(alarm).toBeDefined();
    if (!alarm) return;
    expect(
      queried(alarm)
        .map((stat) => stat.Metric.MetricName)
        .sort(),
    ).toEqual(['5XXError', 'Count']);
    const expression = alarm.Metrics?.find((q) => q.ReturnData)?.Expression ?? '';
    expect(expression).toMatch(/100 \* FILL\(m5xx, 0\) \/ mcount/);
    expect(alarm.Threshold).toBeGreaterThan(0);
    expect(alarm.Threshold).toBeLessThanOrEqual(5);
    expect(alarm.ComparisonOperator).toBe('GreaterThanThreshold');
  });

  it('alarms on the API’s latency p99, between 1 s and the 29 s integration timeout', () => {
    const alarm = alarms().find((a) => a.Namespace === 'AWS/ApiGateway' && a.MetricName === 'Latency');
    expect(alarm).toMatchObject({
      ExtendedStatistic: 'p99',
      Dimensions: [
        { Name: 'ApiName', Value: 'prod-tabletalk' },
        { Name: 'Stage', Value: 'prod' },
      ],
    });
    expect(alarm?.Threshold).toBeGreaterThanOrEqual(1000);
    expect(alarm?.Threshold).toBeLessThan(29_000);
  });

  it('alarms on Lambda throttles and errors of every function, each at most 10 metrics (metric math)', () => {
    for (const metric of ['Throttles', 'Errors']) {
      const covering = alarmsOn('AWS/Lambda', metric);
      expect(covering.length, metric).toBeGreaterThan(0);
      const covered = covering.flatMap((alarm) =>
        queried(alarm).map((stat) => stat.Metric.Dimensions.find((d) => d.Name === 'FunctionName')?.Value),
      );
      expect(covered.sort(), metric).toEqual(functionNames.map(lambdaName).sort());
      for (const alarm of covering) {
        expect(queried(alarm).length).toBeLessThanOrEqual(10);
        expect(alarm.Metrics?.filter((q) => q.ReturnData)).toHaveLength(1);
        expect(alarm.Threshold).toBeGreaterThanOrEqual(1);
        expect(alarm.Threshold).toBeLessThanOrEqual(10);
      }
    }
  });

  it('alarms on DynamoDB throttle events of the stage’s table and its indexes', () => {
    const [alarm] = alarmsOn('AWS/DynamoDB', 'ReadThrottleEvents');
    expect(alarm).toBeDefined();
    const stats = alarm ? queried(alarm) : [];
    expect(stats.map((stat) => stat.Metric.MetricName)).toEqual(
      expect.arrayContaining(['WriteThrottleEvents']),
    );
    for (const stat of stats)
      expect(stat.Metric.Dimensions).toContainEqual({ Name: 'TableName', Value: 'tabletalk-prod' });
    expect(new Set(stats.flatMap((s) => s.Metric.Dimensions.map((d) => d.Value)))).toEqual(
      new Set(['tabletalk-prod', 'GSI1', 'GSI2']),
    );
  });

  it('treats missing data as fine, and notifies the SNS topic the alarm address is subscribed to', () => {
    const all = alarms();
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(new Set(all.map((alarm) => alarm.AlarmName)).size).toBe(all.length);
    for (const alarm of all) {
      expect(alarm.AlarmName).toMatch(/^tabletalk-prod-/);
      expect(alarm.TreatMissingData, alarm.AlarmName).toBe('notBreaching');
      expect(alarm.AlarmActions).toEqual([{ Ref: 'AlarmTopic' }]);
      expect(alarm.OKActions).toEqual([{ Ref: 'AlarmTopic' }]);
    }
    // The topic has the address (TABLETALK_ALARM_EMAIL) subscribed; with `none` it has no
    // subscriber (package-stages.test.ts).
    expect(template.Resources.AlarmTopic?.Properties.Subscription).toEqual([
      { Protocol: 'email', Endpoint: 'alarms@test.example' },
    ]);
  });
});

// ---- The bundles ---------------------------------------------------------------------------

/** Files a bundle imports statically (at cold start), and those it imports on demand. */
const importGraph = (entry: string) => {
  const loaded = new Map<string, string>();
  const onDemand = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    const source = readFileSync(file, 'utf8');
    loaded.set(file, source);
    for (const match of source.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+)"/g))
      visit(resolve(dirname(file), match[1]!));
    for (const match of source.matchAll(/import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g))
      onDemand.add(resolve(dirname(file), match[1]!));
  };
  visit(entry);
  return { loaded, onDemand: [...onDemand].filter((file) => !loaded.has(file)) };
};
const bundleOf = (fn: string) => {
  const handler = serverlessYml.functions[fn]!.handler;
  return join(extractDir, fn, `${handler.slice(0, handler.lastIndexOf('.'))}.mjs`);
};
const isXRaySdk = (source: string) => source.includes('XRaySDKInstrumentation');

describe('the packaged bundles', () => {
  it('keep the X-Ray SDK out of what a function imports at cold start (≤ 150 KB of own code without it)', () => {
    const answering = new Set(serverlessYml.custom.answeringFunctions ?? []);
    for (const fn of functionNames) {
      const { loaded } = importGraph(bundleOf(fn));
      expect([...loaded.values()].some(isXRaySdk), fn).toBe(false);
      const chunks = readdirSync(dirname(bundleOf(fn)), { recursive: true, encoding: 'utf8' });
      const tracerChunks = chunks
        .filter((name) => name.endsWith('.mjs'))
        .filter((name) => isXRaySdk(readFileSync(join(dirname(bundleOf(fn)), name), 'utf8')));
      // Tracing reaches the SDK through one chunk, imported on demand.
      expect(tracerChunks, fn).toHaveLength(1);
      if (answering.has(fn)) continue;
      // Own code: the AWS SDK bundled in apart (bench/bundle-bytes.ts).
      const { total, sdk } = coldStartBytes(bundleOf(fn));
      expect(total - sdk, `${fn}: ${total - sdk} B of own code imported at cold start`).toBeLessThanOrEqual(
        MAX_STATIC_BYTES,
      );
    }
  });

  it('run as in a Lambda: tracing and metrics on, segments to the daemon, EMF on stdout', async () => {
    // Arrange: a UDP socket standing in for the X-Ray daemon.
    const daemon = createSocket('udp4');
    const segments: string[] = [];
    daemon.on('message', (message) => segments.push(message.toString('utf8')));
    await new Promise<void>((bound) => daemon.bind(0, '127.0.0.1', bound));
    const { port } = daemon.address();
    const event = apiEvent({ path: '/api/v1/branding', requestId: 'r-packaged' });
    const script = `
      const [file, eventJson] = process.argv.slice(1);
      const { handler } = await import(file);
      const context = { functionName: 'tabletalk-prod-branding', awsRequestId: 'r-packaged',
        invokedFunctionArn: 'arn:aws:lambda:us-east-1:0:function:tabletalk-prod-branding',
        memoryLimitInMB: '512', getRemainingTimeInMillis: () => 29_000 };
      const result = await handler(JSON.parse(eventJson), context);
      await new Promise((done) => setTimeout(done, 200));
      process.stderr.write('RESULT ' + JSON.stringify(result) + '\\n');
    `;

    // Act
    let output: { stdout: string; stderr: string };
    try {
      output = await runPackaged(script, bundleOf('branding'), event, {
        cwd: join(extractDir, 'branding'),
        sourceMaps: false,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          STAGE: 'prod',
          TABLE_NAME: 'tabletalk-prod',
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: 'test',
          AWS_SECRET_ACCESS_KEY: 'test',
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
          AWS_LAMBDA_FUNCTION_NAME: 'tabletalk-prod-branding',
          LAMBDA_TASK_ROOT: join(extractDir, 'branding'),
          _HANDLER: 'functions/branding.handler',
          _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${port}`,
          POWERTOOLS_SERVICE_NAME: 'tabletalk',
          POWERTOOLS_LOG_LEVEL: 'INFO',
          POWERTOOLS_METRICS_DISABLED: 'false',
          POWERTOOLS_TRACE_ENABLED: 'true',
          POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
          LIMITS_ENABLED: 'false',
        },
      });
    } finally {
      daemon.close();
    }

    // Assert: the answer, its EMF lines and its log line, all with the trace id.
    const result = JSON.parse(/^RESULT (.*)$/m.exec(output.stderr)?.[1] ?? '{}') as {
      statusCode: number;
      body: string;
    };
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body)).toMatchObject({ trace_id: 'req_r-packaged' });
    const lines = output.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.Errors === 1)).toMatchObject({
      code: 'UNAUTHORIZED',
      function: 'branding',
      trace_id: 'req_r-packaged',
    });
    expect(lines.find((line) => line.Requests === 1)).toMatchObject({ function: 'branding', status: '401' });
    expect(lines.find((line) => line.message === 'request rejected')).toMatchObject({
      trace_id: 'req_r-packaged',
    });
    expect(output.stderr).not.toContain('tracing unavailable');
    // The handler's subsegment reached the daemon, in the trace of the invocation.
    const documents = segments.map(
      (segment) => JSON.parse(segment.split('\n')[1] ?? '{}') as Record<string, unknown>,
    );
    expect(documents).toContainEqual(
      expect.objectContaining({
        name: '## functions/branding.handler',
        trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      }),
    );
  });
});
