// The deployed stage's answers for wrong methods (405 with Allow) and unknown routes (404).
import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/route-fallback.ts';
import { apiEvent, invoke } from '../../helpers/events.ts';

process.env.ROUTE_METHODS = JSON.stringify({
  '/api/v1/branding': ['GET'],
  '/api/v1/chat/{id}': ['DELETE', 'GET'],
});

describe('routeFallback', () => {
  it('answers a wrong method on a known route with 405 and Allow', async () => {
    const response = await invoke(
      handler,
      apiEvent({ method: 'POST', path: '/api/v1/chat/1', resource: '/api/v1/chat/{id}' }),
    );
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('DELETE, GET');
    expect(response.body).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' }, status_code: 405 });
    expect(response.body.trace_id).toBe(response.headers['x-request-id']);
  });

  it('answers an unknown route with 404 NOT_FOUND / NOT_FOUND_RESOURCE', async () => {
    const response = await invoke(
      handler,
      apiEvent({ method: 'GET', path: '/api/v2/x', resource: '/{proxy+}' }),
    );
    expect(response.statusCode).toBe(404);
    expect(response.body).toMatchObject({ error: { code: 'NOT_FOUND' }, error_code: 'NOT_FOUND_RESOURCE' });
  });
});
