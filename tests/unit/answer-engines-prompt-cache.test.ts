// Prompt caching (docs/model-engines.md "Prompt caching"): providers reuse a cached prompt prefix
// of at least 1,024 tokens. Two different questions on one database of 20 relations, asked on
// different days, must reach the provider with such a shared prefix: read from the requests the
// OpenAI-compatible engine sent to a recording server and those the Bedrock engine sent to a
// scripted HTTP/2 Converse server, counted with a real tokenizer (js-tiktoken's own encoder).
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine, EngineInput } from '#lib/answer/engine.ts';
import { createBedrockEngine } from '#lib/answer/engines/bedrock.ts';
import { createOpenAiEngine } from '#lib/answer/engines/openai.ts';
import { catalogOf } from '../fixtures/catalogs/define.ts';
import { wideTables } from '../fixtures/catalogs/wide.ts';
import { engineInput, useFakeOpenAi } from '../helpers/engines.ts';
import { converseText, type FakeBedrock, startFakeBedrock } from '../helpers/fake-bedrock.ts';
import { reply } from '../helpers/fake-openai.ts';

let encoder: Tiktoken | undefined;
const tokensOf = (text: string): number[] => {
  encoder ??= new Tiktoken(cl100k);
  return encoder.encode(text);
};

const fake = useFakeOpenAi();
let bedrock: FakeBedrock;
beforeAll(async () => {
  bedrock = await startFakeBedrock();
});
afterAll(async () => {
  await bedrock?.close();
});

/** 20 relations: organizations and the first 19 of the wide fixture's entities. */
const twentyRelations = catalogOf(wideTables.slice(0, 20), { indexedAt: '2026-03-02T00:00:00.000Z' });

const questions: [string, Date][] = [
  ['How many open claims did each carrier have last month?', new Date('2026-03-15T10:30:00.000Z')],
  ['Total amount of approved contracts per department in 2025', new Date('2026-03-16T08:05:00.000Z')],
];

const inputFor = ([question, now]: [string, Date]): EngineInput =>
  engineInput({ question, now, catalog: twentyRelations, tenantColumn: 'org_id' });

/** How many tokens two texts share from their start. */
const sharedPrefixTokens = (a: string, b: string): number => {
  const left = tokensOf(a);
  const right = tokensOf(b);
  let shared = 0;
  while (shared < left.length && shared < right.length && left[shared] === right[shared]) shared++;
  return shared;
};

const SQL = JSON.stringify({
  kind: 'sql',
  sql: 'SELECT count(*) AS n FROM claims',
  description: 'Counting claims',
});

const cases: { name: string; ask: () => Promise<string[]> }[] = [
  {
    name: 'OpenAI-compatible',
    ask: async () => {
      const engine: Engine = createOpenAiEngine({
        baseUrl: fake.baseUrl,
        apiKey: 'sk-test',
        model: 'gpt-test',
      });
      for (const question of questions) {
        fake.respond(reply(JSON.parse(SQL)));
        await engine.propose(inputFor(question));
      }
      return fake.requests.map((request) =>
        request.body.messages.map((message) => message.content).join('\n'),
      );
    },
  },
  {
    name: 'Bedrock (Converse over HTTP/2)',
    ask: async () => {
      bedrock.reset();
      const engine = createBedrockEngine({ model: 'anthropic.claude-test-v1:0', client: bedrock.client() });
      for (const question of questions) {
        bedrock.respond(SQL);
        await engine.propose(inputFor(question));
      }
      return bedrock.requests.map(converseText);
    },
  },
];

describe.each(cases)('the prompt prefix of the $name engine', ({ ask }) => {
  it('is shared by two questions on one 20-relation database, on different days, for at least 1,024 tokens', async () => {
    const prompts = await ask();

    expect(prompts).toHaveLength(2);
    expect(prompts[0]).not.toBe(prompts[1]);
    expect(sharedPrefixTokens(prompts[0]!, prompts[1]!)).toBeGreaterThanOrEqual(1_024);
    // What changes is last: the questions and their days are not in the shared part.
    const shared = tokensOf(prompts[0]!).slice(0, sharedPrefixTokens(prompts[0]!, prompts[1]!)).length;
    expect(shared).toBeLessThan(tokensOf(prompts[0]!).length);
  });
});
