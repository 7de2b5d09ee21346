// The world the API fuzz suite runs in, and what it checks on every response.
// Two organizations (A with end-user scopes a1 and a2, B with scope b1), each with sk_/pk_ keys,
// portal JWTs, a demo database on PGlite and conversations whose messages, titles, database names
// and branding carry recognisable marker strings. A response to a caller may contain only the
// markers of what that caller can see: its organization's, and a scope's only under that scope.
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { revokeApiKey } from '#lib/store/api-keys.ts';
import { saveBranding } from '#lib/store/branding.ts';
import { setOrganizationLimits } from '#lib/store/organizations.ts';
import { registerDatabase } from './answering.ts';
import { makeOrganization } from './fixtures.ts';
import { TEST_JWT_SECRET } from './gateway.ts';

/** How many cases each property runs: FUZZ_RUNS overrides every suite's default. */
export const fuzzRuns = (fallback: number): number => {
  const raw = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(raw) && raw > 0 ? raw : fallback;
};

export type Owner = 'A' | 'B';

export interface Tenant {
  owner: Owner;
  organizationId: number;
  sk: string;
  pk: string;
  databaseId: string;
  /** Conversation ids per scope. */
  conversations: Record<string, string>;
  /** A signed cursor of the scope's conversation list (second page). */
  cursors: Record<string, string>;
  jwt: string;
}

export interface World {
  url: string;
  A: Tenant;
  B: Tenant;
  scopes: Record<Owner, string[]>;
  revokedSk: string;
  expiredJwt: string;
  forgedJwt: string;
  /** Marker → who may see it: an organization, or an organization's scope. */
  markers: Map<string, { owner: Owner; scope?: string }>;
}

const secret = () => new TextEncoder().encode(TEST_JWT_SECRET);

export const portalJwt = (organizationId: number, expiresAt: number | string = '10m', key = secret()) =>
  new SignJWT({ org_id: organizationId, role: 'admin', token_use: 'portal' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('42')
    .setExpirationTime(expiresAt)
    .sign(key);

const marker = (label: string) => `mk${label}${randomBytes(6).toString('hex')}`;

const post = async (url: string, headers: Record<string, string>, body: unknown) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  expect(response.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
};

const seedTenant = async (
  url: string,
  owner: Owner,
  scopes: string[],
  markers: World['markers'],
): Promise<Tenant> => {
  const org = await makeOrganization('enterprise');
  const id = org.organization.id;
  // The general request limits high enough for the fuzzer; the message limits stay as they are.
  await setOrganizationLimits(id, { requestsPerMinute: 1_000_000, requestsPerHour: 10_000_000 });
  const orgMarker = marker(`${owner}org`);
  markers.set(orgMarker, { owner });
  const database = await registerDatabase({ organizationId: id, name: `Shop ${orgMarker}` });
  const pk = (await createApiKey({ organizationId: id, kind: 'pk', databaseId: database.id })).key;
  await saveBranding(id, { widget_theme: { greeting_message: `Hello from ${orgMarker}` } });
  const conversations: Record<string, string> = {};
  const cursors: Record<string, string> = {};
  for (const scope of scopes) {
    const scopeMarker = marker(`${owner}${scope}`);
    markers.set(scopeMarker, { owner, scope });
    const headers = { 'X-API-Key': org.sk, 'X-Scope-Id': scope };
    // Three conversations per scope, so that a list of one per page has a cursor.
    for (let n = 0; n < 3; n++) {
      const conversationId = randomUUID();
      for (const role of ['user', 'assistant'] as const) {
        await post(`${url}/api/v1/chat/message`, headers, {
          conversation_id: conversationId,
          role,
          content: `${role} says ${scopeMarker} number ${n}`,
          metadata: { note: scopeMarker },
        });
      }
      conversations[scope] ??= conversationId;
    }
    const page = await fetch(`${url}/api/v1/chat/conversations?limit=1`, { headers });
    const cursor = ((await page.json()) as { data: { cursor?: string } }).data.cursor;
    expect(typeof cursor).toBe('string');
    cursors[scope] = String(cursor);
  }
  return {
    owner,
    organizationId: id,
    sk: org.sk,
    pk,
    databaseId: database.id,
    conversations,
    cursors,
    jwt: await portalJwt(id),
  };
};

export const seedWorld = async (url: string): Promise<World> => {
  const markers: World['markers'] = new Map();
  const scopes: World['scopes'] = { A: ['a1', 'a2'], B: ['b1'] };
  const A = await seedTenant(url, 'A', scopes.A, markers);
  const B = await seedTenant(url, 'B', scopes.B, markers);
  const revoked = await createApiKey({ organizationId: A.organizationId, kind: 'sk' });
  await revokeApiKey(revoked.id);
  return {
    url,
    A,
    B,
    scopes,
    revokedSk: revoked.key,
    expiredJwt: await portalJwt(A.organizationId, Math.floor(Date.now() / 1000) - 60),
    forgedJwt: await portalJwt(
      B.organizationId,
      '10m',
      new TextEncoder().encode('not-the-portal-secret-0123456789'),
    ),
    markers,
  };
};

/** Which organizations a request's credentials stand for (all of them when several are sent). */
export const ownersOf = (world: World, headers: Record<string, string>): Set<Owner> => {
  const owners = new Set<Owner>();
  const sent = Object.entries(headers)
    .filter(([name]) => ['x-api-key', 'authorization'].includes(name.toLowerCase()))
    .map(([, value]) => value);
  for (const tenant of [world.A, world.B]) {
    const credentials = [tenant.sk, tenant.pk, tenant.jwt];
    if (sent.some((value) => credentials.some((credential) => value.includes(credential))))
      owners.add(tenant.owner);
  }
  return owners;
};

const headerValue = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/** The markers that must not appear in the response to a request with these headers. */
export const forbiddenMarkers = (world: World, headers: Record<string, string>): string[] => {
  const owners = ownersOf(world, headers);
  const scope = headerValue(headers, 'x-scope-id')?.trim();
  return [...world.markers].flatMap(([text, seen]) => {
    const visible = owners.has(seen.owner) && (seen.scope === undefined || seen.scope === scope);
    return visible ? [] : [text];
  });
};

const ENVELOPE_KEYS = [
  'details',
  'error',
  'error_code',
  'message',
  'status_code',
  'success',
  'timestamp',
  'trace_id',
].sort();

/** Strict check of docs/design.md's error envelope. */
export const expectEnvelope = (body: unknown, status: number, requestId: string | null, context: string) => {
  expect(body, context).toBeTypeOf('object');
  const envelope = body as Record<string, unknown>;
  expect(Object.keys(envelope).sort(), context).toEqual(ENVELOPE_KEYS);
  expect(envelope.success, context).toBe(false);
  const error = envelope.error as Record<string, unknown>;
  expect(Object.keys(error).sort(), context).toEqual(['code', 'details', 'message']);
  for (const key of ['code', 'message', 'details']) expect(error[key], context).toBeTypeOf('string');
  expect(envelope.error_code, context).toMatch(/^[A-Z][A-Z0-9_]+$/);
  expect(error.code, context).toMatch(/^[A-Z][A-Z0-9_]+$/);
  expect(envelope.message, context).toBeTypeOf('string');
  expect(envelope.status_code, context).toBe(status);
  expect(Array.isArray(envelope.details), context).toBe(true);
  for (const issue of envelope.details as Record<string, unknown>[]) {
    expect(Object.keys(issue).sort(), context).toEqual(['code', 'field', 'message']);
    for (const key of ['code', 'field', 'message']) expect(issue[key], context).toBeTypeOf('string');
  }
  expect(envelope.trace_id, context).toBe(requestId);
  expect(envelope.timestamp, context).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
};

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Checked {
  status: number;
  text: string;
}

const SSE_ERROR = /^event: error\ndata: (.*)$/m;

/** Sends one request and checks the response against the suite's invariants. */
export const sendAndCheck = async (world: World, request: FuzzRequest): Promise<Checked> => {
  const response = await fetch(`${world.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    redirect: 'manual',
  });
  const text = await response.text();
  const context = `${request.method} ${request.path.slice(0, 300)} headers=${JSON.stringify(request.headers).slice(0, 600)} body=${(request.body ?? '').slice(0, 300)} → ${response.status} ${text.slice(0, 500)}`;
  expect(response.status, context).toBeLessThan(500);
  const requestId = response.headers.get('x-request-id');
  expect(requestId, context).toMatch(/^req_/);
  const type = response.headers.get('content-type') ?? '';
  if (response.status >= 300) {
    expect(type, context).toMatch(/^application\/json/);
    expectEnvelope(JSON.parse(text), response.status, requestId, context);
  } else if (type.startsWith('application/json')) {
    // API answers are wrapped ({success: true, ...}); documents such as the OpenAPI one are not.
    const body = JSON.parse(text) as Record<string, unknown>;
    if ('success' in body) expect(body.success, context).toBe(true);
    expect(body.error_code, context).toBeUndefined();
  } else if (type.startsWith('text/event-stream')) {
    const failure = SSE_ERROR.exec(text);
    if (failure) {
      const envelope = JSON.parse(failure[1]!) as { status_code: number };
      expect(envelope.status_code, context).toBeLessThan(500);
      expectEnvelope(envelope, envelope.status_code, requestId, context);
    } else {
      expect(text, context).toMatch(/^event: done$/m);
    }
  } else if (type.startsWith('text/html') && request.path.split('?')[0] === '/docs') {
    // The API reference page, the one route outside /api/v1 (docs/api.md).
    expect(text.trimStart().toLowerCase().startsWith('<!doctype html>'), context).toBe(true);
  } else if (request.method !== 'OPTIONS' && response.status !== 204) {
    expect.fail(`unexpected content type ${type}: ${context}`);
  }
  for (const forbidden of forbiddenMarkers(world, request.headers)) {
    expect(text.includes(forbidden), `${forbidden} leaked: ${context}`).toBe(false);
  }
  return { status: response.status, text };
};
