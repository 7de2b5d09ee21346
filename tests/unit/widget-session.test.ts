// The widget's client with an embed session (web/src/api.ts, docs/widget.md "Embed sessions"):
// it sends the token as a bearer value and no key or tenant headers, keeps a token for 80 % of
// its lifetime, then asks the integrator's backend again, and replaces a token the API calls
// expired (401 AUTH_TOKEN_EXPIRED) once before giving up. fetch is a stub.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatClient, ChatError, claimsOf, refreshAtOf } from '../../web/src/api.ts';

const BRANDING = { colors: {}, widget_theme: {}, hide_dialektai_branding: false };

/** An et_ token with these claims (the widget reads them; it never checks the signature). */
const token = (claims: Record<string, unknown>, signature = 'sig') =>
  `et_${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;

const now = () => Math.floor(Date.now() / 1000);

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const expired = () =>
  json(401, {
    success: false,
    error: { code: 'UNAUTHORIZED', message: 'expired' },
    error_code: 'AUTH_TOKEN_EXPIRED',
    status_code: 401,
  });

const sentHeaders = (fetch: ReturnType<typeof vi.fn>, call: number) =>
  (fetch.mock.calls[call]![1] as RequestInit).headers as Record<string, string>;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the widget client with an embed session', () => {
  it('reads the tenant and scope the token is bound to, and when to renew it', () => {
    const claims = claimsOf(token({ tnt: '1', scp: 'visitor-1', iat: 1_000, exp: 1_900 }));
    expect(claims).toMatchObject({ tnt: '1', scp: 'visitor-1' });
    expect(refreshAtOf(claims)).toBe(1_720_000);
    expect(claimsOf('et_garbage')).toEqual({});
    expect(refreshAtOf({}, 5_000)).toBe(65_000);
  });

  it('sends the token as a bearer value, without key or tenant headers, and reuses it while fresh', async () => {
    // Arrange
    const fetch = vi.fn(async () => json(200, { success: true, data: BRANDING }));
    vi.stubGlobal('fetch', fetch);
    const getSessionToken = vi.fn(async () => token({ tnt: '1', iat: now(), exp: now() + 900 }));
    const client = new ChatClient({
      getSessionToken,
      baseUrl: 'https://api.example',
      databaseId: 'db',
      tenantId: '9',
    });

    // Act
    await client.branding();
    await client.branding();

    // Assert
    expect(getSessionToken).toHaveBeenCalledTimes(1);
    const headers = sentHeaders(fetch, 1);
    expect(headers.Authorization).toMatch(/^Bearer et_/);
    expect(headers).not.toHaveProperty('X-API-Key');
    expect(headers).not.toHaveProperty('X-Tenant-Id');
    expect(client.claims?.tnt).toBe('1');
  });

  it('asks for a new token once 80 % of its lifetime has passed', async () => {
    // Arrange
    vi.useFakeTimers({ toFake: ['Date'] });
    const fetch = vi.fn(async () => json(200, { success: true, data: BRANDING }));
    vi.stubGlobal('fetch', fetch);
    const getSessionToken = vi.fn(async () => token({ iat: now(), exp: now() + 100 }));
    const client = new ChatClient({ getSessionToken, baseUrl: 'https://api.example', databaseId: 'db' });

    // Act
    await client.branding();
    vi.setSystemTime(Date.now() + 79_000);
    await client.branding();
    vi.setSystemTime(Date.now() + 2_000);
    await client.branding();

    // Assert
    expect(getSessionToken).toHaveBeenCalledTimes(2);
  });

  it('replaces a token the API calls expired and retries once; a second refusal is shown', async () => {
    // Arrange
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(expired())
      .mockResolvedValueOnce(json(200, { success: true, data: BRANDING }))
      .mockResolvedValueOnce(expired())
      .mockResolvedValueOnce(expired());
    vi.stubGlobal('fetch', fetch);
    let issued = 0;
    const getSessionToken = vi.fn(async () => token({ iat: now(), exp: now() + 900 }, `sig${++issued}`));
    const client = new ChatClient({ getSessionToken, baseUrl: 'https://api.example', databaseId: 'db' });

    // Act
    const first = await client.branding();
    const second = await client.branding().catch((error: unknown) => error);

    // Assert
    expect(first).toEqual(BRANDING);
    expect(sentHeaders(fetch, 0).Authorization).toMatch(/sig1$/);
    expect(sentHeaders(fetch, 1).Authorization).toMatch(/sig2$/);
    expect(second).toBeInstanceOf(ChatError);
    expect((second as ChatError).kind).toBe('refused');
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(getSessionToken).toHaveBeenCalledTimes(3);
  });

  it('shows a failing backend as a refusal, not a network error', async () => {
    vi.stubGlobal('fetch', vi.fn());
    const client = new ChatClient({
      getSessionToken: async () => {
        throw new Error('backend down');
      },
      baseUrl: 'https://api.example',
      databaseId: 'db',
    });
    await expect(client.branding()).rejects.toMatchObject({ kind: 'refused' });
  });
});
