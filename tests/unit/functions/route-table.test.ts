// The control plane's functions serve several routes each (lib/http/route-table.ts): every
// function's routes are exactly its http events in serverless.yml, both ways, and a route the
// function does not serve is 405 in the envelope (API Gateway never sends one; a configuration
// error must not reach another route's chain).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { routeTable } from '#lib/http/route-table.ts';
import { installAwsLambdaGlobal } from '../../../local/lambda.ts';
import { routesOf, type ServerlessConfig } from '../../../local/serverless-config.ts';
import { apiEvent, invoke, lambdaContext } from '../../helpers/events.ts';

const root = join(import.meta.dirname, '../../..');
const config = parse(readFileSync(join(root, 'serverless.yml'), 'utf8')) as ServerlessConfig;

describe('functions and their routes', () => {
  it('serve exactly their serverless.yml events: a route table names each, a plain handler has one', async () => {
    installAwsLambdaGlobal(); // the streaming function wraps its handler with awslambda at import
    const declared = routesOf(config);
    const functions = Object.entries(config.functions).filter(([name]) => name !== 'routeFallback');
    for (const [name, fn] of functions) {
      const file = fn.handler.slice(0, fn.handler.lastIndexOf('.'));
      const module = (await import(join(root, `${file}.ts`))) as { handler: { routes?: readonly string[] } };
      const events = declared
        .filter((route) => route.functionName === name)
        .map((route) => `${route.method} ${route.path}`);
      if (module.handler.routes) expect(new Set(module.handler.routes), name).toEqual(new Set(events));
      else expect(events.length, `${name}: one route, or a route table`).toBeLessThanOrEqual(1);
    }
  });

  it('answers a route it does not serve with 405 and Allow, without running any chain', async () => {
    let ran = false;
    const handler = routeTable({
      'GET /api/v1/things': async () => {
        ran = true;
        return { statusCode: 200, body: '{}' };
      },
    });
    const response = await invoke(handler, apiEvent({ method: 'PUT', path: '/api/v1/things' }));
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET');
    expect(response.body).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' }, status_code: 405 });
    expect(ran).toBe(false);
    const served = await handler(apiEvent({ path: '/api/v1/things' }), lambdaContext());
    expect(served.statusCode).toBe(200);
  });
});
