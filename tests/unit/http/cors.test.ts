// CORS (lib/http/middleware/cors.ts): which origins get Access-Control-Allow-Origin on ordinary
// responses (successes and error envelopes alike), what a preflight answers, and the fallback
// function's OPTIONS answer in deployed stages.
import middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import type { Principal } from '#lib/auth/principal.ts';
import { ServiceError } from '#lib/errors.ts';
import {
  CORS_ALLOWED_HEADERS,
  cors,
  corsHeaders,
  originAllowed,
  preflightHeaders,
} from '#lib/http/middleware/cors.ts';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { headerNormaliser } from '#lib/http/middleware/headers.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import { json } from '#lib/http/response.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';
import { handler as routeFallback } from '../../../functions/route-fallback.ts';
import { invoke } from '../../helpers/events.ts';

process.env.ROUTE_METHODS = JSON.stringify({ '/api/v1/chat/{conversation_id}/stream': ['GET'] });

const pkWithOrigins: Pick<Principal, 'allowedOrigins' | 'credential'> = {
  credential: 'pk',
  allowedOrigins: ['https://shop.example'],
};

/** The chain's order of concerns around a handler that succeeds or fails as told. */
const chain = (principal: Partial<Principal> | undefined, fail?: ServiceError) =>
  middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(requestId())
    .use(cors())
    .use(errorEnvelope())
    .use(headerNormaliser())
    .use({
      before: (request) => {
        if (principal) request.context.principal = principal as Principal;
      },
    })
    .handler(async () => {
      if (fail) throw fail;
      return json(200, { success: true, data: {} });
    });

describe('originAllowed', () => {
  it('allows any page origin when the key lists none, and only listed ones otherwise', () => {
    expect(originAllowed('https://anything.example')).toBe(true);
    expect(originAllowed('http://127.0.0.1:3000', { credential: 'pk', allowedOrigins: [] })).toBe(true);
    expect(originAllowed('https://shop.example', pkWithOrigins)).toBe(true);
    expect(originAllowed('https://SHOP.example/', pkWithOrigins)).toBe(true);
    expect(originAllowed('https://evil.example', pkWithOrigins)).toBe(false);
  });

  it('never lets a page read what an organization (sk_) key or a listed-origins key elsewhere answered', () => {
    expect(originAllowed('https://anything.example', { credential: 'sk' })).toBe(false);
    expect(originAllowed('https://anything.example', { credential: 'jwt' })).toBe(true);
    expect(corsHeaders('https://anything.example', { credential: 'sk' })).toEqual({ Vary: 'Origin' });
  });

  it('never allows what is not an origin', () => {
    expect(originAllowed('null')).toBe(false);
    expect(originAllowed('file://')).toBe(false);
    expect(originAllowed('https://a.example/path')).toBe(false);
  });
});

describe('corsHeaders and preflightHeaders', () => {
  it('echo an allowed origin with Vary and the readable headers', () => {
    const headers = corsHeaders('https://shop.example', pkWithOrigins);
    expect(headers['Access-Control-Allow-Origin']).toBe('https://shop.example');
    expect(headers.Vary).toBe('Origin');
    expect(headers['Access-Control-Expose-Headers']).toContain('Retry-After');
    expect(headers['Access-Control-Expose-Headers']).toContain('X-RateLimit-Remaining');
    expect(headers['Access-Control-Expose-Headers']).toContain('X-Request-ID');
  });

  it('give no Allow-Origin to an unlisted origin, and nothing without an Origin', () => {
    expect(corsHeaders('https://evil.example', pkWithOrigins)).toEqual({ Vary: 'Origin' });
    expect(corsHeaders(undefined, pkWithOrigins)).toEqual({});
  });

  it('answer a preflight with the route methods, the request headers a page sends and a max age', () => {
    const headers = preflightHeaders('https://shop.example', ['GET']);
    expect(headers['Access-Control-Allow-Origin']).toBe('https://shop.example');
    expect(headers['Access-Control-Allow-Methods']).toBe('GET, OPTIONS');
    expect(headers['Access-Control-Allow-Headers']?.split(', ')).toEqual([...CORS_ALLOWED_HEADERS]);
    expect(Number(headers['Access-Control-Max-Age'])).toBeGreaterThan(0);
    expect(headers.Vary).toBe('Origin');
  });
});

describe('the cors middleware', () => {
  it('adds the headers to a success for an allowed origin', async () => {
    const response = await invoke(chain(pkWithOrigins), { headers: { Origin: 'https://shop.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(response.headers.vary).toBe('Origin');
  });

  it('adds them to error envelopes too, such as a 429 with Retry-After', async () => {
    const limited = new ServiceError('RATE_LIMITED', { headers: { 'Retry-After': '42' } });
    const response = await invoke(chain({ credential: 'pk' }, limited), {
      headers: { origin: 'http://127.0.0.1:3000' },
    });
    expect(response.statusCode).toBe(429);
    expect(response.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    expect(response.headers['access-control-expose-headers']).toContain('Retry-After');
    expect(response.headers['retry-after']).toBe('42');
  });

  it('leaves out Allow-Origin for an origin the key does not list', async () => {
    const response = await invoke(chain(pkWithOrigins), { headers: { Origin: 'https://evil.example' } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers.vary).toBe('Origin');
  });

  it('adds nothing to a request without Origin (servers)', async () => {
    const response = await invoke(chain(undefined));
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
  });
});

describe('the route fallback (deployed stages)', () => {
  it('answers OPTIONS on a known route with 204 and the preflight headers', async () => {
    const response = await invoke(routeFallback, {
      method: 'OPTIONS',
      path: '/api/v1/chat/abc/stream',
      resource: '/api/v1/chat/{conversation_id}/stream',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(response.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
    expect(response.headers['access-control-allow-headers']).toContain('X-API-Key');
    expect(response.headers['x-request-id']).toMatch(/^req_/);
  });

  it('still answers other methods with 405, readable by the page', async () => {
    const response = await invoke(routeFallback, {
      method: 'POST',
      path: '/api/v1/chat/abc/stream',
      resource: '/api/v1/chat/{conversation_id}/stream',
      headers: { Origin: 'https://shop.example' },
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers['access-control-allow-origin']).toBe('https://shop.example');
  });
});
