// What the model engines' tests share: an EngineInput on the shop catalog, the LLM_FAILED error a
// call rejects with, compose with the pieces it handed on (and when), and the fake OpenAI server
// of tests/helpers/fake-openai.ts for a whole test file.
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Engine, EngineInput, ResultRows, SqlProposal } from '#lib/answer/engine.ts';
import { ServiceError } from '#lib/errors.ts';
import { SHOP_NOW, shopCatalog } from '../fixtures/catalogs/shop.ts';
import { type FakeOpenAi, startFakeOpenAi } from './fake-openai.ts';

/** A question about the shop catalog (postgres, tenant column org_id), with `overrides`. */
export const engineInput = (overrides: Partial<EngineInput> = {}): EngineInput => ({
  question: 'How many cancelled orders are there?',
  catalog: shopCatalog,
  dialect: 'postgres',
  history: [],
  now: SHOP_NOW,
  tenantColumn: 'org_id',
  ...overrides,
});

/** The LLM_FAILED error a promise rejects with. */
export const llmFailure = async (promise: Promise<unknown>): Promise<ServiceError> => {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as ServiceError).kind).toBe('LLM_FAILED');
  return error as ServiceError;
};

/** `engine.compose`, with every piece it handed on and when (ms after the call). */
export const composeTimed = async (
  engine: Engine,
  proposal: SqlProposal,
  rows: ResultRows,
  input: EngineInput,
) => {
  const pieces: { piece: string; at: number }[] = [];
  const started = performance.now();
  const composed = await engine.compose!(proposal, rows, input, async (piece) => {
    pieces.push({ piece, at: performance.now() - started });
  });
  return { composed, pieces };
};

/** A fake OpenAI server for the calling test file: started before its tests, reset after each, closed after all. */
export const useFakeOpenAi = (): FakeOpenAi => {
  let fake: FakeOpenAi | undefined;
  const started = (): FakeOpenAi => {
    if (!fake) throw new Error('the fake OpenAI server is not running');
    return fake;
  };
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterEach(() => {
    fake?.reset();
  });
  afterAll(async () => {
    await fake?.close();
  });
  return {
    get baseUrl() {
      return started().baseUrl;
    },
    get requests() {
      return started().requests;
    },
    respond: (...responses) => started().respond(...responses),
    reset: () => started().reset(),
    close: () => started().close(),
  };
};
