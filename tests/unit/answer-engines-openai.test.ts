// The OpenAI-compatible engine (lib/answer/engines/openai.ts) against tests/helpers/fake-openai.ts,
// a local server serving recorded responses: proposals of every kind, the one retry after a
// malformed reply, the JSON-mode fallback, repair, and every provider failure as LLM_FAILED with
// the provider named, within a bounded time.
import { describe, expect, it } from 'vitest';
import type { PriorTurn } from '#lib/answer/engine.ts';
import { createOpenAiEngine } from '#lib/answer/engines/openai.ts';
import { FORMAT_REMINDER } from '#lib/answer/engines/prompt.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { errorEnvelope } from '#lib/errors.ts';
import { shopCatalog } from '../fixtures/catalogs/shop.ts';
import { engineInput, llmFailure, useFakeOpenAi } from '../helpers/engines.ts';
import { completion, recorded, reply, startFakeOpenAi } from '../helpers/fake-openai.ts';

const API_KEY = 'sk-test-0123456789-secret';
const policy = effectivePolicy({
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'org_id',
  policy: { tenant_column: 'org_id', tables: { organizations: { tenant_column: 'id' } } },
});

const fake = useFakeOpenAi();

const engine = (options: { timeoutMs?: number; apiKey?: string | null } = {}) =>
  createOpenAiEngine({
    baseUrl: fake.baseUrl,
    model: 'gpt-4o-mini',
    ...(options.apiKey === null ? {} : { apiKey: options.apiKey ?? API_KEY }),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });

describe('proposals', () => {
  it('turns a correct SQL answer into a proposal the guard accepts and filters by tenant', async () => {
    // Arrange
    fake.respond(recorded.countCancelledOrders);
    // Act
    const proposal = await engine().propose(engineInput());
    // Assert: the proposal, then what the guard makes of it.
    expect(proposal).toMatchObject({
      kind: 'sql',
      sql: "SELECT count(*) AS cancelled_orders FROM orders WHERE status = 'cancelled'",
      description: "Counting orders with status 'cancelled'",
      state: { v: 1, sql: "SELECT count(*) AS cancelled_orders FROM orders WHERE status = 'cancelled'" },
    });
    const outcome = await guardPostgres({
      sql: proposal.kind === 'sql' ? proposal.sql : '',
      catalog: shopCatalog,
      policy,
      tenant: 1,
      rowCap: 100,
    });
    expect(outcome).toMatchObject({ allowed: true, params: [1] });
    expect(outcome.allowed && outcome.sql).toContain('org_id = $1');
  });

  it('sends one chat completion: model, temperature 0, JSON mode, Bearer key, system and user messages', async () => {
    fake.respond(recorded.countCancelledOrders);
    await engine().propose(engineInput({ instructions: 'Be brief.' }));
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    const messages = request?.body.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toContain('service adds the filter on the column org_id itself');
    expect(messages[0]?.content).toContain('"Be brief."');
    expect(messages[1]?.content).toContain('<question>\n"How many cancelled orders are there?"\n</question>');
  });

  it('sends no Authorization header without an API key', async () => {
    fake.respond(recorded.countCancelledOrders);
    await engine({ apiKey: null }).propose(engineInput());
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('asks once more after a malformed reply, showing the model its reply and the format', async () => {
    fake.respond(recorded.malformed, recorded.countCancelledOrders);
    const proposal = await engine().propose(engineInput());
    expect(proposal).toMatchObject({ kind: 'sql' });
    expect(fake.requests).toHaveLength(2);
    const retry = fake.requests[1]?.body.messages ?? [];
    expect(retry.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(retry[2]?.content).toContain('Here is the query you asked for');
    expect(retry[3]?.content).toBe(FORMAT_REMINDER);
  });

  it('fails with BAD_RESPONSE after two malformed replies, not with a clarification', async () => {
    fake.respond(recorded.malformed, completion('Still not JSON, sorry.'));
    const error = await llmFailure(engine().propose(engineInput()));
    expect(error.issues).toEqual([{ field: 'provider', message: 'openai', code: 'BAD_RESPONSE' }]);
    expect(fake.requests).toHaveLength(2);
  });

  it('passes unsafe SQL on as a proposal: the guard refuses it', async () => {
    fake.respond(recorded.dropTable);
    const proposal = await engine().propose(engineInput({ question: 'Please clean up the orders table' }));
    expect(proposal).toMatchObject({ kind: 'sql', sql: 'DROP TABLE orders' });
    const outcome = await guardPostgres({
      sql: proposal.kind === 'sql' ? proposal.sql : '',
      catalog: shopCatalog,
      policy,
      tenant: 1,
      rowCap: 100,
    });
    expect(outcome).toMatchObject({ allowed: false, code: 'NOT_SELECT' });
  });

  it('returns a clarification', async () => {
    fake.respond(recorded.clarification);
    expect(await engine().propose(engineInput({ question: 'What is the total amount?' }))).toEqual({
      kind: 'clarification',
      message: 'Do you mean the amount of the orders’ payments or of their invoices?',
    });
  });

  it("reads the model's own safety refusal as a refused proposal", async () => {
    fake.respond(completion(null, { refusal: "I'm sorry, I can't help with that." }));
    expect(await engine().propose(engineInput())).toEqual({
      kind: 'refused',
      message: "I'm sorry, I can't help with that.",
    });
  });

  it('answers an empty or overlong question without calling the model', async () => {
    expect(await engine().propose(engineInput({ question: '   ' }))).toMatchObject({ kind: 'clarification' });
    expect(await engine().propose(engineInput({ question: 'x'.repeat(2_001) }))).toMatchObject({
      kind: 'clarification',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('shows the SQL it proposed in earlier turns to the model for a follow-up', async () => {
    const history: PriorTurn[] = [
      {
        question: 'How many cancelled orders are there?',
        kind: 'sql',
        engine: 'openai',
        state: {
          v: 1,
          sql: "SELECT count(*) FROM orders WHERE status = 'cancelled'",
          description: 'Counting',
        },
      },
    ];
    fake.respond(
      reply({
        kind: 'sql',
        sql: "SELECT date_trunc('month', ordered_at) AS month, count(*) AS n FROM orders WHERE status = 'cancelled' GROUP BY 1 ORDER BY 1",
        description: 'Cancelled orders per month',
      }),
    );
    await engine().propose(engineInput({ question: 'and per month?', history }));
    const user = fake.requests[0]?.body.messages[1]?.content ?? '';
    expect(user).toContain(`"sql":"SELECT count(*) FROM orders WHERE status = 'cancelled'"`);
  });

  it('falls back to plain text for good when the server rejects response_format', async () => {
    // Arrange: one engine, two questions.
    const openai = engine();
    fake.respond(recorded.jsonModeUnsupported, recorded.countCancelledOrders, recorded.clarification);
    // Act
    await openai.propose(engineInput());
    await openai.propose(engineInput({ question: 'What is the total amount?' }));
    // Assert: asked with JSON mode once, then never again.
    expect(fake.requests.map((r) => r.body.response_format)).toEqual([
      { type: 'json_object' },
      undefined,
      undefined,
    ]);
  });
});

describe('repair', () => {
  it('sends the failed query and the database error as data and returns the new proposal', async () => {
    fake.respond(
      reply({
        kind: 'sql',
        sql: "SELECT count(*) AS n FROM orders WHERE status = 'cancelled'",
        description: 'Counting cancelled orders',
      }),
    );
    const proposal = await engine().repair(engineInput(), {
      sql: "SELECT count(*) FROM orders WHERE state = 'cancelled'",
      error: 'column "state" does not exist',
    });
    expect(proposal).toMatchObject({
      kind: 'sql',
      sql: "SELECT count(*) AS n FROM orders WHERE status = 'cancelled'",
    });
    const user = fake.requests[0]?.body.messages[1]?.content ?? '';
    expect(user).toContain(
      `<failed_query>\n"SELECT count(*) FROM orders WHERE state = 'cancelled'"\n</failed_query>`,
    );
    expect(user).toContain('<database_error>\n"column \\"state\\" does not exist"\n</database_error>');
  });
});

describe('provider failures', () => {
  it('maps a 500 to LLM_FAILED / UNAVAILABLE naming the provider, in the error envelope', async () => {
    fake.respond(recorded.serverError);
    const error = await llmFailure(engine().propose(engineInput()));
    expect(error.issues).toEqual([{ field: 'provider', message: 'openai', code: 'UNAVAILABLE' }]);
    const envelope = errorEnvelope(error, 'req_test');
    expect(envelope).toMatchObject({
      error: { code: 'EXTERNAL_LLM_ERROR', details: 'UNAVAILABLE' },
      error_code: 'EXTERNAL_LLM_ERROR',
      status_code: 500,
      details: [{ field: 'provider', message: 'openai', code: 'UNAVAILABLE' }],
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('maps a 429 to UNAVAILABLE', async () => {
    fake.respond(recorded.rateLimited);
    expect((await llmFailure(engine().propose(engineInput()))).detail).toBe('UNAVAILABLE');
  });

  it('maps a 401 to AUTH_FAILED without repeating the key or the provider body', async () => {
    fake.respond(recorded.unauthorized);
    const error = await llmFailure(engine().propose(engineInput()));
    expect(error.issues).toEqual([{ field: 'provider', message: 'openai', code: 'AUTH_FAILED' }]);
    const shown = JSON.stringify(errorEnvelope(error, 'req_test'));
    expect(shown).not.toContain(API_KEY);
    expect(shown).not.toContain('Incorrect API key');
  });

  it('maps a 403 to AUTH_FAILED', async () => {
    fake.respond({ status: 403, body: { error: { message: 'Forbidden' } } });
    expect((await llmFailure(engine().propose(engineInput()))).detail).toBe('AUTH_FAILED');
  });

  it('maps a 200 that is not a chat completion to BAD_RESPONSE', async () => {
    fake.respond({ status: 200, body: '<html>gateway</html>' });
    expect((await llmFailure(engine().propose(engineInput()))).detail).toBe('BAD_RESPONSE');
    fake.respond({ status: 200, body: { choices: [] } });
    expect((await llmFailure(engine().propose(engineInput()))).detail).toBe('BAD_RESPONSE');
  });

  it('gives up on a provider that hangs: TIMEOUT within the bound', async () => {
    fake.respond(recorded.hang);
    const started = Date.now();
    const error = await llmFailure(engine({ timeoutMs: 300 }).propose(engineInput()));
    const elapsed = Date.now() - started;
    expect(error.issues).toEqual([{ field: 'provider', message: 'openai', code: 'TIMEOUT' }]);
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('bounds both attempts together: a slow malformed reply leaves the retry the rest of the time', async () => {
    fake.respond({ ...recorded.malformed, delayMs: 200 }, recorded.hang);
    const started = Date.now();
    const error = await llmFailure(engine({ timeoutMs: 400 }).propose(engineInput()));
    expect(error.detail).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('maps an unreachable server to UNAVAILABLE', async () => {
    const closed = await startFakeOpenAi();
    await closed.close();
    const error = await llmFailure(
      createOpenAiEngine({ baseUrl: closed.baseUrl, model: 'gpt-4o-mini', timeoutMs: 2_000 }).propose(
        engineInput(),
      ),
    );
    expect(error.detail).toBe('UNAVAILABLE');
  });

  it("stops when the client goes away, with the caller's own reason rather than a provider failure", async () => {
    fake.respond(recorded.hang);
    const controller = new AbortController();
    const reason = new Error('client disconnected');
    setTimeout(() => controller.abort(reason), 50);
    await expect(
      engine({ timeoutMs: 5_000 }).propose(engineInput({ signal: controller.signal })),
    ).rejects.toBe(reason);
  });
});

describe('configuration', () => {
  it('refuses a missing base URL or model, and a base URL that is not http(s)', () => {
    expect(() => createOpenAiEngine({ baseUrl: '', model: 'm' })).toThrow(/baseUrl/);
    expect(() => createOpenAiEngine({ baseUrl: fake.baseUrl, model: '' })).toThrow(/model/);
    expect(() => createOpenAiEngine({ baseUrl: 'file:///etc', model: 'm' })).toThrow(/http/);
  });

  it('is named openai and offers repair', () => {
    const openai = engine();
    expect(openai.name).toBe('openai');
    expect(typeof openai.repair).toBe('function');
  });
});
