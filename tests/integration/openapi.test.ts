// The OpenAPI document against serverless.yml and itself: every http event of serverless.yml (built
// from the same route objects, lib/routes/) is in the document and the document names no other route (the route-fallback
// plugin's ANY routes cover exactly the documented paths); the document is structurally valid
// OpenAPI 3.1 and every schema in it compiles under JSON Schema draft 2020-12; its schemas agree
// with the valibot schemas the functions validate with; redocly lint finds nothing in it; the
// reference page carries its renderer and loads nothing from elsewhere.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ChatMessageInput } from '#lib/answer/inputs.ts';
import { AppendInput, HistoryInput } from '#lib/conversations/inputs.ts';
import { errorCatalogue } from '#lib/errors.ts';
import { buildOpenApiDocument, LOCAL_SERVER_URL } from '#lib/openapi/document.ts';
import { referencePage, rendererSource } from '#lib/openapi/page.ts';
import { routes } from '#lib/routes/index.ts';
import { readServerlessYml, routesOf } from '../../local/serverless-config.ts';
import { root } from '../../local/stack.ts';
import { ajvFor, type Json, resolveRef } from '../helpers/openapi.ts';

const run = promisify(execFile);
const document = buildOpenApiDocument();
const paths = document.paths as Record<string, Record<string, Json>>;
const documentedRoutes = Object.entries(paths).flatMap(([path, methods]) =>
  Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
);
const operations = Object.entries(paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);

// serverless.yml read as data: its functions and their http events (variables stay unresolved;
// no route depends on one).
const config = readServerlessYml(root);

describe('the document and serverless.yml', () => {
  it('documents every http route of serverless.yml and no other', () => {
    const declared = routesOf(config).map((route) => `${route.method} ${route.path}`);
    expect(declared.length).toBeGreaterThan(5);
    expect(new Set(documentedRoutes)).toEqual(new Set(declared));
    expect(documentedRoutes).toHaveLength(new Set(documentedRoutes).size);
  });

  it("matches the route-fallback plugin's ANY routes and allowed methods", () => {
    // The plugin adds its events at package time; run it on the resolved config as serverless does.
    const Plugin = createRequire(import.meta.url)('../../infra/route-fallback-plugin.cjs');
    const functions = structuredClone(config.functions) as unknown as Record<
      string,
      Json & { events?: Json[] }
    >;
    new Plugin({ service: { functions } }).addFallbackRoutes();
    const fallback = functions.routeFallback as {
      events: { http: { path: string; method: string } }[];
      environment: Json;
    };
    const anyPaths = fallback.events.map((event) => event.http.path);
    expect(fallback.events.every((event) => event.http.method === 'any')).toBe(true);
    expect(new Set(anyPaths)).toEqual(new Set([...Object.keys(paths), '/{proxy+}']));
    const allowed = JSON.parse(String(fallback.environment.ROUTE_METHODS)) as Record<string, string[]>;
    for (const [path, methods] of Object.entries(paths)) {
      expect(new Set(allowed[path]), path).toEqual(new Set(Object.keys(methods).map((m) => m.toUpperCase())));
    }
  });

  it('marks the streaming route as an event stream, and only it', () => {
    const streaming = routesOf(config)
      .filter((route) => route.streaming)
      .map((route) => `${route.method} ${route.path}`);
    const eventStreams = operations
      .filter(({ operation }) =>
        Object.values(operation.responses as Record<string, Json>).some(
          (response) => (response.content as Json | undefined)?.['text/event-stream'],
        ),
      )
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(eventStreams).toEqual(streaming);
  });
});

describe('the document is OpenAPI 3.1', () => {
  it('has the required top-level fields', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const schemes = ((document.components as Json).securitySchemes ?? {}) as Record<string, Json>;
    expect(schemes.ApiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    );
    expect(schemes.BearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
  });

  it('gives each operation a unique id, a declared tag, responses, and its path parameters', () => {
    const tags = new Set((document.tags as Json[]).map((tag) => tag.name));
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, operation } of operations) {
      const where = `${method} ${path}`;
      for (const tag of operation.tags as string[]) expect(tags.has(tag), where).toBe(true);
      const statuses = Object.keys(operation.responses as Json);
      expect(
        statuses.some((status) => /^2\d\d$/.test(status)),
        where,
      ).toBe(true);
      for (const status of statuses) expect(status, where).toMatch(/^[1-5]\d\d$/);
      const parameters = ((operation.parameters ?? []) as Json[]).map((p) => resolveRef(document, p));
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const inPath = parameters.filter((p) => p.in === 'path').map((p) => p.name);
      expect(inPath.sort(), where).toEqual(templated.sort());
      for (const parameter of parameters) {
        expect(['path', 'query', 'header'], where).toContain(parameter.in);
        if (parameter.in === 'path') expect(parameter.required, where).toBe(true);
      }
      const security = operation.security as Json[];
      for (const requirement of security)
        for (const name of Object.keys(requirement))
          expect(Object.keys((document.components as Json).securitySchemes as Json), where).toContain(name);
    }
  });

  it('resolves every $ref', () => {
    const refs: string[] = [];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object')
        for (const [key, entry] of Object.entries(value)) {
          if (key === '$ref' && typeof entry === 'string') refs.push(entry);
          else walk(entry);
        }
    };
    walk(document);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/(schemas|parameters|headers)\/\w[\w-]*$/);
      expect(resolveRef(document, { $ref: ref }), ref).toBeDefined();
    }
  });

  it('compiles every component schema and every inline schema under draft 2020-12', () => {
    const { ajv, compile } = ajvFor(document);
    const schemas = (document.components as Json).schemas as Record<string, Json>;
    expect(Object.keys(schemas).length).toBeGreaterThan(15);
    for (const [name, schema] of Object.entries(schemas)) {
      expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).toBe(true);
      expect(ajv.getSchema(`urn:tabletalk:schema:${name}`), name).toBeTypeOf('function');
    }
    for (const { operation } of operations) {
      for (const parameter of (operation.parameters ?? []) as Json[])
        compile(resolveRef(document, parameter).schema as Json);
      for (const media of Object.values(((operation.requestBody as Json | undefined)?.content ?? {}) as Json))
        compile((media as Json).schema as Json);
      for (const response of Object.values(operation.responses as Record<string, Json>))
        for (const media of Object.values((response.content ?? {}) as Json))
          compile((media as Json).schema as Json);
    }
  });

  it('documents every error kind of each route under its status with its codes, and the whole catalogue', () => {
    for (const route of routes) {
      const responses = paths[route.path]?.[route.method.toLowerCase()]?.responses as Record<string, Json>;
      for (const kind of route.errors) {
        const entry = errorCatalogue[kind];
        const response = responses[String(entry.status)];
        expect(response, `${route.operationId} ${kind}`).toBeDefined();
        expect(String(response?.description)).toContain(`\`${entry.code}\` / \`${entry.errorCode}\``);
      }
    }
    const catalogue = document['x-error-catalogue'] as Json[];
    expect(catalogue).toHaveLength(Object.keys(errorCatalogue).length);
  });

  it('puts the rate-limit headers on counted responses and Retry-After on 429', () => {
    for (const { path, method, operation } of operations) {
      const responses = operation.responses as Record<string, Json>;
      if (path === '/api/v1/openapi.json' || path === '/docs') {
        // Not counted: only API Gateway's throttling of the stage answers 429, without limit headers.
        expect(Object.keys(responses['200']?.headers as Json)).toEqual(['X-Request-ID']);
        expect(Object.keys(responses['429']?.headers as Json).sort()).toEqual([
          'Retry-After',
          'X-Request-ID',
        ]);
        continue;
      }
      for (const status of ['200', '429']) {
        const headers = responses[status]?.headers as Json | undefined;
        if (!headers) continue;
        for (const name of [
          'X-Request-ID',
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
        ])
          expect(headers, `${method} ${path} ${status} ${name}`).toHaveProperty(name);
      }
      expect(responses['429']?.headers, `${method} ${path}`).toHaveProperty('Retry-After');
    }
  });
});

describe('the document agrees with the valibot input schemas', () => {
  const { compile } = ajvFor(document);
  const bodySchema = (name: string) => compile({ $ref: `#/components/schemas/${name}` });
  const parameterSchema = (path: string, name: string) => {
    const parameter = ((paths[path]?.get?.parameters ?? []) as Json[])
      .map((p) => resolveRef(document, p))
      .find((p) => p.name === name);
    return compile(parameter?.schema as Json);
  };

  it.each([
    [{ message: 'How many orders?', database_id: '0192f7a0-1c1d-7b2e-8f00-0123456789ab' }, true],
    [{ message: 'Hi', database_id: null, session_id: '0192F7A0-1C1D-7B2E-8F00-0123456789AB' }, true],
    [{ database_id: '0192f7a0-1c1d-7b2e-8f00-0123456789ab' }, false],
    [{ message: 'Hi', database_id: 'not-a-uuid' }, false],
    [{ message: 42 }, false],
  ])('a chat body %j is valid in both: %s', (body, valid) => {
    expect(bodySchema('ChatMessageRequest')(body)).toBe(valid);
    expect(v.safeParse(ChatMessageInput, { body }).success).toBe(valid);
  });

  it.each([
    [{ conversation_id: '0192f7a0-1c1d-7b2e-8f00-0123456789ab', role: 'user', content: 'Hello' }, true],
    [
      {
        conversation_id: '0192f7a0-1c1d-7b2e-8f00-0123456789ab',
        role: 'tool',
        content: 'x',
        metadata: { a: 1 },
      },
      true,
    ],
    [{ conversation_id: '0192f7a0-1c1d-7b2e-8f00-0123456789ab', role: 'robot', content: 'x' }, false],
    [{ conversation_id: '0192f7a0-1c1d-7b2e-8f00-0123456789ab', role: 'user', content: '' }, false],
    [
      { conversation_id: '0192f7a0-1c1d-7b2e-8f00-0123456789ab', role: 'user', content: 'x', metadata: [1] },
      false,
    ],
  ])('an append body %j is valid in both: %s', (body, valid) => {
    expect(bodySchema('AppendMessageRequest')(body)).toBe(valid);
    expect(v.safeParse(AppendInput, { body }).success).toBe(valid);
  });

  it.each([
    ['50', true],
    ['200', true],
    ['0', false],
    ['201', false],
  ])('a history limit of %s is valid in both: %s', (limit, valid) => {
    // Query values arrive as strings; the document shows the integer they carry.
    expect(parameterSchema('/api/v1/chat/history', 'limit')(Number(limit))).toBe(valid);
    expect(v.safeParse(HistoryInput, { query: { limit } }).success).toBe(valid);
  });
});

describe('the reference page', () => {
  const renderer = rendererSource();
  const html = referencePage(renderer);

  it("is Redoc's standalone bundle, inline, started on the document served beside the page", () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(renderer.length).toBeGreaterThan(500_000);
    // The bundle whole, with only what would end the <script> element escaped.
    expect(html.length).toBeGreaterThanOrEqual(renderer.length);
    // Only the page's own two script elements end: nothing inside the bundle closes one early.
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).toContain("Redoc.init(base + 'api/v1/openapi.json'");
  });

  it('loads nothing from another host: no src, href, stylesheet or font from elsewhere', () => {
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/i);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import|fonts\.googleapis/i);
    // The browser enforces it: only the page's own two scripts run, data comes from its own origin.
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy.match(/'sha256-[A-Za-z0-9+/=]+'/g)).toHaveLength(2);
    expect(policy).toContain("connect-src 'self'");
  });
});

describe('what redocly lint asks of the document', () => {
  it('lists where the API is served: the stage answering, any deployed stage, the local stack', () => {
    const servers = document.servers as { url: string; variables?: Json }[];
    expect(servers.map((server) => server.url)).toEqual([
      'https://{api_id}.execute-api.{region}.amazonaws.com/{stage}',
      LOCAL_SERVER_URL,
    ]);
    expect(Object.keys(servers[0]!.variables ?? {}).sort()).toEqual(['api_id', 'region', 'stage']);
    const served = buildOpenApiDocument({
      serverUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod',
    });
    expect((served.servers as { url: string }[])[0]!.url).toBe(
      'https://abc.execute-api.eu-west-1.amazonaws.com/prod',
    );
  });

  it('names its license', () => {
    expect((document.info as Json).license).toEqual(
      expect.objectContaining({ name: expect.any(String), identifier: expect.any(String) }),
    );
  });

  it('gives every operation a 4xx response', () => {
    for (const { path, method, operation } of operations)
      expect(
        Object.keys(operation.responses as Json).some((status) => /^4\d\d$/.test(status)),
        `${method} ${path}`,
      ).toBe(true);
  });

  it('reaches every component schema from an operation, extensions aside', () => {
    const reached = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object')
        for (const [key, entry] of Object.entries(value)) {
          if (key.startsWith('x-')) continue;
          if (key === '$ref' && typeof entry === 'string' && entry.startsWith('#/components/schemas/')) {
            const name = entry.slice('#/components/schemas/'.length);
            if (reached.has(name)) continue;
            reached.add(name);
            walk(((document.components as Json).schemas as Json)[name]);
          } else walk(entry);
        }
    };
    walk(paths);
    expect([...reached].sort()).toEqual(Object.keys((document.components as Json).schemas as Json).sort());
    const stream = operations.find(({ operation }) => operation.operationId === 'streamAnswer')!.operation;
    const events = (stream.responses as Record<string, Json>)['200']!.content as Json;
    expect(events['text/event-stream']).toMatchObject({
      schema: { type: 'array', items: { $ref: '#/components/schemas/StreamEvent' } },
    });
  });

  it('passes @redocly/cli lint (recommended rules) with no error and no warning, fetching nothing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tabletalk-redocly-'));
    try {
      const file = join(folder, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const { stdout } = await run(
        join(root, 'node_modules/.bin/redocly'),
        ['lint', '--config', join(root, 'redocly.yaml'), '--format', 'json', file],
        {
          cwd: folder,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const report = JSON.parse(stdout) as { totals: Json; problems: { ruleId: string; message: string }[] };
      expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
