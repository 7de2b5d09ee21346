// Each route is declared once (lib/routes/) and every other place reads it: serverless.yml's
// functions and http events are built from the route objects (infra/functions.ts), each function
// file builds its handler from its routes (`api(route)`, a route table of route objects), and
// the OpenAPI document maps them (tests/integration/openapi.test.ts). Here: every route has
// exactly one http event, on the function it names, and every event is a route's; each function
// serves exactly its events; the settings of serverless.yml cannot add or move an event; and a
// route the function does not serve is 405 in the envelope (API Gateway never sends one; a
// configuration error must not reach another route's chain).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeKey } from '#lib/http/route.ts';
import { routeTable } from '#lib/http/route-table.ts';
import { routes } from '#lib/routes/index.ts';
import { functionsOf, handlerOf } from '../../../infra/functions.ts';
import { installAwsLambdaGlobal } from '../../../local/lambda.ts';
import { readServerlessYml, routesOf } from '../../../local/serverless-config.ts';
import { apiEvent, invoke, lambdaContext } from '../../helpers/events.ts';

const root = join(import.meta.dirname, '../../..');
const config = readServerlessYml(root);
const events = routesOf(config);

describe('routes and their functions', () => {
  it('gives every route exactly one http event, on the function it names, and no event to anything else', () => {
    // Arrange
    const declared = routes.map((route) => `${routeKey(route)} → ${route.functionName}`);
    const packaged = events.map((event) => `${event.method} ${event.path} → ${event.functionName}`);

    // Assert
    expect(new Set(declared).size).toBe(routes.length);
    expect(new Set(routes.map(routeKey)).size).toBe(routes.length);
    expect(new Set(routes.map((route) => route.operationId)).size).toBe(routes.length);
    expect(packaged.sort()).toEqual(declared.sort());
    const streaming = events
      .filter((event) => event.streaming)
      .map((event) => `${event.method} ${event.path}`);
    expect(streaming).toEqual(routes.filter((route) => route.stream).map(routeKey));
  });

  it('serves every route from functions/<name in kebab case>.ts, which exists', () => {
    for (const route of routes) {
      const handler = handlerOf(route.functionName);
      expect(config.functions[route.functionName]?.handler, route.operationId).toBe(handler);
      const file = `${handler.slice(0, handler.lastIndexOf('.'))}.ts`;
      expect(existsSync(join(root, file)), file).toBe(true);
    }
  });

  it('keeps routes out of serverless.yml: a setting with events or another handler is refused', () => {
    const [route] = routes;
    if (!route) throw new Error('no routes');
    const event = { http: { path: '/api/v1/extra', method: 'get' } };
    expect(() => functionsOf(routes, { [route.functionName]: { events: [event] } as never })).toThrow(
      /events come from the route objects/,
    );
    expect(() =>
      functionsOf(routes, { [route.functionName]: { handler: 'functions/other.handler' } }),
    ).toThrow(/has the handler/);
    expect(() => functionsOf(routes, { lonely: { memorySize: 256 } })).toThrow(/needs a handler/);
  });

  it('serves exactly its events from each function: a route table of them, or the one route its chain was built from', async () => {
    installAwsLambdaGlobal(); // the streaming function wraps its handler with awslambda at import
    const functions = Object.entries(config.functions).filter(([name]) => name !== 'routeFallback');
    for (const [name, fn] of functions) {
      const file = fn.handler.slice(0, fn.handler.lastIndexOf('.'));
      const module = (await import(join(root, `${file}.ts`))) as {
        handler: { routes?: readonly string[]; route?: { method?: string; path?: string } };
      };
      const served = events
        .filter((event) => event.functionName === name)
        .map((e) => `${e.method} ${e.path}`);
      if (module.handler.routes) expect(new Set(module.handler.routes), name).toEqual(new Set(served));
      else if (module.handler.route)
        expect([`${module.handler.route.method} ${module.handler.route.path}`], name).toEqual(served);
      else expect(served, `${name}: no route, or a route table, or a chain built from its route`).toEqual([]);
    }
  });

  it('answers a route it does not serve with 405 and Allow, without running any chain', async () => {
    let ran = false;
    const handler = routeTable([
      [
        { method: 'GET', path: '/api/v1/things' },
        async () => {
          ran = true;
          return { statusCode: 200, body: '{}' };
        },
      ],
    ]);
    const response = await invoke(handler, apiEvent({ method: 'PUT', path: '/api/v1/things' }));
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET');
    expect(response.body).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' }, status_code: 405 });
    expect(ran).toBe(false);
    const served = await handler(apiEvent({ path: '/api/v1/things' }), lambdaContext());
    expect(served.statusCode).toBe(200);
  });
});
