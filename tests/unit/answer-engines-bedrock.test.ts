// The Bedrock engine (lib/answer/engines/bedrock.ts) with aws-sdk-client-mock: the Converse
// request it sends, the proposals it reads, and Bedrock's exceptions as LLM_FAILED codes naming
// the provider, within a bounded time.
import {
  AccessDeniedException,
  BedrockRuntimeClient,
  ConverseCommand,
  type ConverseCommandOutput,
  ModelTimeoutException,
  ResourceNotFoundException,
  ServiceUnavailableException,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createBedrockEngine } from '#lib/answer/engines/bedrock.ts';
import { FORMAT_REMINDER } from '#lib/answer/engines/prompt.ts';
import { engineInput, llmFailure } from '../helpers/engines.ts';

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const client = new BedrockRuntimeClient({ region: 'us-east-1' });
const bedrock = mockClient(client);

afterEach(() => {
  bedrock.reset();
});

const engine = (timeoutMs?: number) =>
  createBedrockEngine({ model: MODEL, client, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });

/** A Converse response whose message is `text`. */
const converse = (text: string): ConverseCommandOutput => ({
  output: { message: { role: 'assistant', content: [{ text }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 1_400, outputTokens: 60, totalTokens: 1_460 },
  metrics: { latencyMs: 812 },
  $metadata: { httpStatusCode: 200 },
});

const sqlReply = JSON.stringify({
  kind: 'sql',
  sql: "SELECT count(*) AS n FROM orders WHERE status = 'cancelled'",
  description: "Counting orders with status 'cancelled'",
});

const metadata = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });

describe('Converse requests and replies', () => {
  it('sends the system prompt, one user message and temperature 0 to the model', async () => {
    // Arrange
    bedrock.on(ConverseCommand).resolves(converse(sqlReply));
    // Act
    const proposal = await engine().propose(engineInput({ instructions: 'Be brief.' }));
    // Assert
    expect(proposal).toMatchObject({
      kind: 'sql',
      sql: "SELECT count(*) AS n FROM orders WHERE status = 'cancelled'",
    });
    const calls = bedrock.commandCalls(ConverseCommand);
    expect(calls).toHaveLength(1);
    const request = calls[0]!.args[0].input;
    expect(request.modelId).toBe(MODEL);
    expect(request.inferenceConfig).toMatchObject({ temperature: 0 });
    expect(request.system?.[0]?.text).toContain('service adds the filter on the column org_id itself');
    expect(request.system?.[0]?.text).toContain('"Be brief."');
    expect(request.messages).toHaveLength(1);
    expect(request.messages?.[0]?.role).toBe('user');
    expect(request.messages?.[0]?.content?.[0]?.text).toContain(
      '<question>\n"How many cancelled orders are there?"\n</question>',
    );
  });

  it('joins the text blocks of a reply', async () => {
    bedrock.on(ConverseCommand).resolves({
      output: {
        message: {
          role: 'assistant',
          content: [{ text: '{"kind": "conversational", ' }, { text: '"message": "Hello!"}' }],
        },
      },
      $metadata: {},
    });
    expect(await engine().propose(engineInput({ question: 'hi' }))).toEqual({
      kind: 'conversational',
      message: 'Hello!',
    });
  });

  it('asks once more after a malformed reply, with the roles alternating as Converse requires', async () => {
    bedrock
      .on(ConverseCommand)
      .resolvesOnce(converse('Here is the SQL: SELECT count(*) FROM orders'))
      .resolvesOnce(converse(sqlReply));
    expect(await engine().propose(engineInput())).toMatchObject({ kind: 'sql' });
    const retry = bedrock.commandCalls(ConverseCommand)[1]!.args[0].input;
    expect(retry.messages?.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(retry.messages?.[2]?.content?.[0]?.text).toBe(FORMAT_REMINDER);
  });

  it('never sends an empty assistant message (Converse rejects empty text blocks)', async () => {
    bedrock.on(ConverseCommand).resolvesOnce(converse('')).resolvesOnce(converse(sqlReply));
    await engine().propose(engineInput());
    const retry = bedrock.commandCalls(ConverseCommand)[1]!.args[0].input;
    expect(retry.messages?.[1]?.content?.[0]?.text).toBe('(empty reply)');
  });

  it('fails with BAD_RESPONSE after two malformed replies', async () => {
    bedrock.on(ConverseCommand).resolves(converse('no JSON here'));
    const error = await llmFailure(engine().propose(engineInput()));
    expect(error.issues).toEqual([{ field: 'provider', message: 'bedrock', code: 'BAD_RESPONSE' }]);
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(2);
  });

  it('fails with BAD_RESPONSE when the response has no message', async () => {
    bedrock.on(ConverseCommand).resolves({ $metadata: {} });
    expect((await llmFailure(engine().propose(engineInput()))).detail).toBe('BAD_RESPONSE');
  });

  it('repairs a query with the database error as data', async () => {
    bedrock.on(ConverseCommand).resolves(converse(sqlReply));
    await engine().repair(engineInput(), {
      sql: 'SELECT nope FROM orders',
      error: 'column "nope" does not exist',
    });
    const text =
      bedrock.commandCalls(ConverseCommand)[0]!.args[0].input.messages?.[0]?.content?.[0]?.text ?? '';
    expect(text).toContain('<failed_query>\n"SELECT nope FROM orders"\n</failed_query>');
    expect(text).toContain('<database_error>\n"column \\"nope\\" does not exist"\n</database_error>');
  });
});

describe('Bedrock failures', () => {
  it.each([
    [
      'ThrottlingException',
      new ThrottlingException({ message: 'Too many requests', ...metadata(429) }),
      'UNAVAILABLE',
    ],
    [
      'ServiceUnavailableException',
      new ServiceUnavailableException({ message: 'Unavailable', ...metadata(503) }),
      'UNAVAILABLE',
    ],
    [
      'AccessDeniedException',
      new AccessDeniedException({ message: 'You do not have access', ...metadata(403) }),
      'AUTH_FAILED',
    ],
    [
      'ModelTimeoutException',
      new ModelTimeoutException({ message: 'Model timed out', ...metadata(408) }),
      'TIMEOUT',
    ],
    [
      'ValidationException',
      new ValidationException({ message: 'Malformed input', ...metadata(400) }),
      'BAD_RESPONSE',
    ],
    [
      'ResourceNotFoundException',
      new ResourceNotFoundException({ message: 'Unknown model', ...metadata(404) }),
      'BAD_RESPONSE',
    ],
    [
      'CredentialsProviderError',
      Object.assign(new Error('Could not load credentials from any providers'), {
        name: 'CredentialsProviderError',
      }),
      'AUTH_FAILED',
    ],
  ])('maps %s to LLM_FAILED / %s', async (_, exception, code) => {
    bedrock.on(ConverseCommand).rejects(exception);
    const error = await llmFailure(engine().propose(engineInput()));
    expect(error.issues).toEqual([{ field: 'provider', message: 'bedrock', code }]);
    expect(error.detail).toBe(code);
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(1);
  });

  it('maps a network failure to UNAVAILABLE', async () => {
    bedrock.on(ConverseCommand).rejects(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    expect((await llmFailure(engine().propose(engineInput()))).detail).toBe('UNAVAILABLE');
  });

  it('gives up on a model that hangs: TIMEOUT within the bound', async () => {
    bedrock.on(ConverseCommand).callsFake(() => new Promise(() => undefined));
    const started = Date.now();
    const error = await llmFailure(engine(300).propose(engineInput()));
    const elapsed = Date.now() - started;
    expect(error.issues).toEqual([{ field: 'provider', message: 'bedrock', code: 'TIMEOUT' }]);
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('passes the abort signal to the SDK so the HTTP request is cancelled too', async () => {
    let seen: AbortSignal | undefined;
    const send = client.send.bind(client);
    bedrock.on(ConverseCommand).resolves(converse(sqlReply));
    const spy = (command: ConverseCommand, options?: { abortSignal?: AbortSignal }) => {
      seen = options?.abortSignal;
      return send(command, options ?? {});
    };
    const spyClient = { send: spy } as unknown as BedrockRuntimeClient;
    await createBedrockEngine({ model: MODEL, client: spyClient }).propose(engineInput());
    expect(seen).toBeInstanceOf(AbortSignal);
  });

  it('refuses to be created without a model', () => {
    expect(() => createBedrockEngine({ model: '', client })).toThrow(/model/);
  });
});
