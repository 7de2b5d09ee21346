// The pieces the answering flow is built from: prior turns rebuilt from stored messages
// (lib/answer/turns.ts), engine selection (lib/answer/registry.ts), the catalog shown to the
// engine (lib/answer/catalog.ts) and the Server-Timing header (lib/observability/timing.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtinEngine } from '#lib/answer/builtin/index.ts';
import { answerCatalogOf, clearAnswerCatalogs, visibleCatalog } from '#lib/answer/catalog.ts';
import {
  chooseEngine,
  clearEngines,
  engineFor,
  parseEngineSetting,
  parseOrganizationSettings,
} from '#lib/answer/registry.ts';
import { priorTurns } from '#lib/answer/turns.ts';
import { resetSettings } from '#lib/config.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { Timings } from '#lib/observability/timing.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import type { MessageRecord } from '#lib/store/messages.ts';

const message = (
  id: string,
  role: MessageRecord['role'],
  content: string,
  metadata?: unknown,
): MessageRecord => ({
  id,
  conversationId: 'c',
  organizationId: 1,
  role,
  content,
  ...(metadata === undefined ? {} : { metadataJson: JSON.stringify(metadata) }),
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('priorTurns', () => {
  it('pairs each answer with its question, oldest first', () => {
    // Arrange
    const messages = [
      message('u1', 'user', 'How many orders?'),
      message('a1', 'assistant', '42', {
        query_type: 'sql',
        engine: 'builtin',
        state: { n: 1 },
        reply_to: 'u1',
      }),
      message('u2', 'user', 'Hello'),
      message('a2', 'assistant', 'Hi!', { query_type: 'conversational', engine: 'builtin', reply_to: 'u2' }),
    ];

    // Act
    const turns = priorTurns(messages);

    // Assert
    expect(turns).toEqual([
      { question: 'How many orders?', kind: 'sql', engine: 'builtin', state: { n: 1 } },
      { question: 'Hello', kind: 'conversational', engine: 'builtin' },
    ]);
  });

  it('follows reply_to when two questions were answered at once', () => {
    // Arrange: user, user, then the answers in the other order
    const messages = [
      message('u1', 'user', 'first'),
      message('u2', 'user', 'second'),
      message('a2', 'assistant', 'to second', { query_type: 'sql', reply_to: 'u2' }),
      message('a1', 'assistant', 'to first', { query_type: 'sql', reply_to: 'u1' }),
    ];

    // Act
    const turns = priorTurns(messages);

    // Assert
    expect(turns.map((turn) => turn.question)).toEqual(['second', 'first']);
  });

  it('pairs appended history without reply_to with the closest earlier question, and skips the rest', () => {
    // Arrange
    const messages = [
      message('a0', 'assistant', 'answer whose question is outside the window', { query_type: 'sql' }),
      message('u1', 'user', 'question'),
      message('s1', 'system', 'note'),
      message('a1', 'assistant', 'answer', { query_type: 'clarification' }),
      message('a2', 'assistant', 'no metadata'),
      message('a3', 'assistant', 'unknown kind', { query_type: 'error', reply_to: 'u1' }),
      message('a4', 'assistant', 'broken', undefined),
    ];
    messages[6] = { ...messages[6]!, metadataJson: '{not json' };

    // Act
    const turns = priorTurns(messages);

    // Assert
    expect(turns).toEqual([{ question: 'question', kind: 'clarification' }]);
  });
});

describe('engine selection', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    clearEngines();
  });

  it('reads <engine>[:<model>] settings; only the first colon separates the model', () => {
    expect(parseEngineSetting('builtin')).toEqual({ engine: 'builtin' });
    expect(parseEngineSetting(' OpenAI:gpt-4o-mini ')).toEqual({ engine: 'openai', model: 'gpt-4o-mini' });
    expect(parseEngineSetting('bedrock:anthropic.claude-3-5-haiku-20241022-v1:0')).toEqual({
      engine: 'bedrock',
      model: 'anthropic.claude-3-5-haiku-20241022-v1:0',
    });
    expect(parseEngineSetting('gpt')).toBeUndefined();
    expect(parseEngineSetting('')).toBeUndefined();
    expect([
      ...parseOrganizationSettings('7=openai:gpt-4o, 12 = bedrock ,x=builtin,9=nope').entries(),
    ]).toEqual([
      [7, { engine: 'openai', model: 'gpt-4o' }],
      [12, { engine: 'bedrock' }],
    ]);
  });

  it('chooses personality, then organization, then stage, then builtin', () => {
    // Arrange
    vi.stubEnv('ANSWER_ENGINE', 'bedrock:stage-model');
    vi.stubEnv('ANSWER_ENGINE_ORGS', '7=openai:org-model');

    // Act / Assert
    expect(chooseEngine(7, { engine: 'builtin' })).toEqual({ engine: 'builtin', source: 'personality' });
    expect(chooseEngine(7, { engine: 'bedrock', model: 'p' })).toEqual({
      engine: 'bedrock',
      model: 'p',
      source: 'personality',
    });
    expect(chooseEngine(7)).toEqual({ engine: 'openai', model: 'org-model', source: 'organization' });
    // The store keeps a personality's engine as text: a name that is no answering engine (a
    // database engine, say) chooses nothing.
    expect(chooseEngine(7, { engine: 'postgres' })).toEqual({
      engine: 'openai',
      model: 'org-model',
      source: 'organization',
    });
    // A personality may name only a model, for the engine chosen elsewhere.
    expect(chooseEngine(7, { model: 'gpt-4.1' })).toEqual({
      engine: 'openai',
      model: 'gpt-4.1',
      source: 'organization',
    });
    expect(chooseEngine(8)).toEqual({ engine: 'bedrock', model: 'stage-model', source: 'stage' });
    vi.stubEnv('ANSWER_ENGINE', '');
    resetSettings();
    expect(chooseEngine(8)).toEqual({ engine: 'builtin', source: 'stage' });
  });

  it('constructs the builtin directly', async () => {
    expect(await engineFor({ engine: 'builtin' })).toBe(builtinEngine);
  });

  it('loads a model engine only when chosen, once per model, and reports a misconfigured one as EXTERNAL_LLM_ERROR', async () => {
    // Arrange
    vi.stubEnv('OPENAI_MODEL', '');
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');

    // Act
    const unconfigured = engineFor({ engine: 'openai' });
    const configured = await engineFor({ engine: 'openai', model: 'gpt-test' });

    // Assert
    await expect(unconfigured).rejects.toMatchObject({
      kind: 'LLM_FAILED',
      detail: 'ENGINE_UNAVAILABLE',
      issues: [{ field: 'provider', message: 'openai', code: 'ENGINE_UNAVAILABLE' }],
    });
    expect(configured.name).toBe('openai');
    expect(await engineFor({ engine: 'openai', model: 'gpt-test' })).toBe(configured);
  });
});

describe('the catalog shown to the engine', () => {
  const relation = (name: string, kind: 'table' | 'view', columns: string[]) => ({
    schema: 'public',
    name,
    kind,
    columns: columns.map((column) => ({
      name: column,
      kind: 'integer' as const,
      nativeType: 'integer',
      nullable: false,
    })),
    primaryKey: [],
    foreignKeys: [],
    rowEstimate: 0,
    samples: {},
  });
  const catalog: Catalog = {
    dialect: 'postgres',
    defaultSchema: 'public',
    relations: [
      relation('orders', 'table', ['id', 'org_id']),
      relation('countries', 'table', ['id']),
      relation('admins', 'table', ['id']),
      relation('sales', 'view', ['org_id']),
      relation('secret_view', 'view', ['org_id']),
    ],
    userFunctions: [],
    indexedAt: '2026-01-01T00:00:00.000Z',
  };
  const database: DatabaseRecord = {
    id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5f',
    organizationId: 1,
    name: 'Shop',
    engine: 'postgres',
    status: 'active',
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'org_id',
    policy: {
      tenant_column: 'org_id',
      tables: { countries: { shared: true }, sales: { tenant_column: 'org_id' } },
    },
    connectionRef: 'x',
    schemaIndex: { version: 'v1', chunks: 1, bytes: 1, relations: 5, indexedAt: '2026-01-01T00:00:00.000Z' },
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  afterEach(() => clearAnswerCatalogs());

  it('holds only the relations the row policy lets the guard read', () => {
    const visible = visibleCatalog(catalog, effectivePolicy(database));
    expect(visible.relations.map((r) => r.name)).toEqual(['orders', 'countries', 'sales']);
  });

  it('reads an index version once per container, and again after a re-index', async () => {
    // Arrange
    const read = vi.fn(async () => catalog);

    // Act
    const first = await answerCatalogOf(database, read);
    const again = await answerCatalogOf(database, read);
    await answerCatalogOf({ ...database, schemaIndex: { ...database.schemaIndex!, version: 'v2' } }, read);

    // Assert
    expect(again).toBe(first);
    expect(read).toHaveBeenCalledTimes(2);
    expect(first?.full).toBe(catalog);
  });

  it('has nothing for a database without an index, and does not keep a failed read', async () => {
    // Arrange
    const read = vi.fn().mockRejectedValueOnce(new Error('throttled')).mockResolvedValueOnce(catalog);
    const { schemaIndex: _, ...unindexed } = database;

    // Act / Assert
    expect(await answerCatalogOf(unindexed, read)).toBeUndefined();
    await expect(answerCatalogOf(database, read)).rejects.toThrow('throttled');
    expect((await answerCatalogOf(database, read))?.full).toBe(catalog);
  });
});

describe('Timings', () => {
  it('adds up each phase and prints the Server-Timing header', async () => {
    // Arrange
    let now = 0;
    const timings = new Timings(() => now);

    // Act
    await timings.measure('load', async () => {
      now += 2.25;
    });
    await timings.measure('store', async () => {
      now += 1;
    });
    await timings.measure('store', async () => {
      now += 1;
    });
    await expect(
      timings.measure('db', async () => {
        now += 3;
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');

    // Assert
    expect(timings.header()).toBe('load;dur=2.3, db;dur=3, store;dur=2, total;dur=7.3');
    expect(timings.toJSON()).toEqual({ load: 2.3, engine: 0, guard: 0, db: 3, store: 2, total: 7.3 });
  });
});
