// The OpenAI-compatible engine: any server that speaks POST {baseUrl}/chat/completions
// (OpenAI, Azure-style gateways, vLLM, Ollama, llama.cpp). Asks for JSON mode and falls back to
// plain text, for good, when a server rejects `response_format`. The API key, when there is one,
// is resolved by the registry (Secrets Manager in deployed stages) and sent as a Bearer token;
// it never appears in errors or logs. Prompt and reply handling are shared with Bedrock
// (model.ts, prompt.ts, extract.ts).
// The answer from the rows is streamed (`stream: true`): the server's server-sent events
// `data: {"choices":[{"delta":{"content":"…"}}]}` … `data: [DONE]` are read as they arrive and
// each content delta is handed on. Token usage comes from `usage` (with `stream_options:
// {include_usage: true}` when streaming; a server that rejects that field is asked without it,
// for good). A stream that is not JSON, or that ends before `[DONE]` or a `finish_reason`, is a
// provider failure.
import * as v from 'valibot';
import type { Engine, TokenUsage } from '../engine.ts';
import {
  createModelEngine,
  type LlmFailureCode,
  llmFailure,
  type ModelCall,
  type ModelStream,
  streamEnd,
  usageField,
} from './model.ts';
import type { ChatPrompt } from './prompt.ts';

export const OPENAI_ENGINE = 'openai';

export interface OpenAiEngineOptions {
  /** E.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Bound on one proposal, retry included (default 20 s). */
  timeoutMs?: number;
  /** For tests and custom transports. */
  fetch?: typeof fetch;
}

const TextPart = v.object({ type: v.string(), text: v.optional(v.string()) });

const Usage = v.object({
  prompt_tokens: v.optional(v.nullable(v.number())),
  completion_tokens: v.optional(v.nullable(v.number())),
});

const usageOf = (usage: v.InferOutput<typeof Usage> | null | undefined): TokenUsage | undefined =>
  usage && (typeof usage.prompt_tokens === 'number' || typeof usage.completion_tokens === 'number')
    ? { input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 }
    : undefined;

/** One event of a streamed chat completion (`chat.completion.chunk`). */
const Chunk = v.object({
  choices: v.optional(
    v.nullable(
      v.array(
        v.object({
          delta: v.optional(
            v.nullable(
              v.object({
                content: v.optional(v.nullable(v.string())),
                refusal: v.optional(v.nullable(v.string())),
              }),
            ),
          ),
          finish_reason: v.optional(v.nullable(v.string())),
        }),
      ),
    ),
  ),
  usage: v.optional(v.nullable(Usage)),
  /** Some servers report a failure inside the stream. */
  error: v.optional(v.unknown()),
});

/**
 * The `data` of each server-sent event of a body, as it arrives (multi-line data joined with
 * `\n`; comments, `event:` and `id:` fields ignored).
 */
export async function* eventData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const lines = function* (final: boolean) {
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      if (end === -1) break;
      // A lone \r at the end of a chunk may be the first half of \r\n.
      if (!final && end === buffer.length - 1 && buffer[end] === '\r') break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(buffer.startsWith('\r\n', end) ? end + 2 : end + 1);
      yield line;
    }
  };
  const take = function* (final: boolean) {
    for (const line of lines(final)) {
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
    }
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    yield* take(false);
  }
  buffer += `${decoder.decode()}\n\n`;
  yield* take(true);
}

/** The part of a chat completion the engine reads. */
const Completion = v.object({
  choices: v.pipe(
    v.array(
      v.object({
        message: v.object({
          content: v.optional(v.nullable(v.union([v.string(), v.array(TextPart)]))),
          refusal: v.optional(v.nullable(v.string())),
        }),
      }),
    ),
    v.minLength(1),
  ),
  usage: v.optional(v.nullable(Usage)),
});

const statusFailure = (status: number): [LlmFailureCode, string] => {
  if (status === 401 || status === 403)
    return ['AUTH_FAILED', `the provider refused the credentials (HTTP ${status})`];
  if (status === 408) return ['TIMEOUT', 'the provider timed out (HTTP 408)'];
  if (status === 429) return ['UNAVAILABLE', 'the provider is rate limiting (HTTP 429)'];
  if (status >= 500) return ['UNAVAILABLE', `the provider is unavailable (HTTP ${status})`];
  return ['BAD_RESPONSE', `the provider answered HTTP ${status}`];
};

export const createOpenAiEngine = (
  options: OpenAiEngineOptions,
): Engine & Required<Pick<Engine, 'repair'>> => {
  if (typeof options.baseUrl !== 'string' || options.baseUrl === '') {
    throw new TypeError('the openai engine needs a baseUrl (the OpenAI-compatible server)');
  }
  if (typeof options.model !== 'string' || options.model === '')
    throw new TypeError('the openai engine needs a model');
  const endpoint = new URL(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`);
  if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
    throw new TypeError('the OpenAI-compatible engine needs an http(s) base URL');
  }
  const send = options.fetch ?? fetch;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  /** Cleared for good once the server has rejected `response_format` and answered without it. */
  let jsonMode = true;
  /** Cleared for good once the server has rejected `stream_options` and answered without it. */
  let streamUsage = true;

  const post = (prompt: ChatPrompt, signal: AbortSignal, withJsonMode: boolean) =>
    send(endpoint, {
      method: 'POST',
      headers,
      signal,
      body: JSON.stringify({
        model: options.model,
        messages: [{ role: 'system', content: prompt.system }, ...prompt.messages],
        // No max_tokens: newer OpenAI models reject it; the timeout bounds the reply instead.
        temperature: 0,
        ...(withJsonMode ? { response_format: { type: 'json_object' } } : {}),
      }),
    });

  const postStream = (prompt: ChatPrompt, signal: AbortSignal, withUsage: boolean) =>
    send(endpoint, {
      method: 'POST',
      headers: { ...headers, accept: 'text/event-stream' },
      signal,
      body: JSON.stringify({
        model: options.model,
        messages: [{ role: 'system', content: prompt.system }, ...prompt.messages],
        temperature: 0,
        stream: true,
        ...(withUsage ? { stream_options: { include_usage: true } } : {}),
      }),
    });

  const streamCall: ModelStream = async (prompt, signal, onText) => {
    let response = await postStream(prompt, signal, streamUsage);
    if (streamUsage && (response.status === 400 || response.status === 422)) {
      await response.body?.cancel();
      response = await postStream(prompt, signal, false);
      if (response.ok) streamUsage = false;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      const [code, reason] = response.ok
        ? (['BAD_RESPONSE', 'the provider answered without a body'] as const)
        : statusFailure(response.status);
      throw llmFailure(OPENAI_ENGINE, code, reason);
    }
    // A server that ignores `stream` answers with one completion: its text is one piece.
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      const reply = await readCompletion(response);
      if (typeof reply.text === 'string' && reply.text !== '') await onText(reply.text);
      return usageField(reply.usage);
    }
    let usage: TokenUsage | undefined;
    let finished = false;
    for await (const data of eventData(response.body)) {
      if (data.trim() === '[DONE]') return usageField(usage);
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch (error) {
        throw llmFailure(
          OPENAI_ENGINE,
          'BAD_RESPONSE',
          'the provider streamed something other than JSON',
          error,
        );
      }
      const parsed = v.safeParse(Chunk, json);
      if (!parsed.success) {
        throw llmFailure(
          OPENAI_ENGINE,
          'BAD_RESPONSE',
          'the provider streamed an event that is not a completion chunk',
        );
      }
      if (parsed.output.error !== undefined && parsed.output.error !== null) {
        throw llmFailure(OPENAI_ENGINE, 'UNAVAILABLE', 'the provider reported an error in the stream');
      }
      usage = usageOf(parsed.output.usage) ?? usage;
      for (const choice of parsed.output.choices?.slice(0, 1) ?? []) {
        const text = choice.delta?.content ?? choice.delta?.refusal ?? '';
        if (text !== '') await onText(text);
        if (choice.finish_reason) finished = true;
      }
    }
    return streamEnd(OPENAI_ENGINE, finished, usage);
  };

  const call: ModelCall = async (prompt, signal) => {
    let response = await post(prompt, signal, jsonMode);
    if (jsonMode && (response.status === 400 || response.status === 422)) {
      // Servers without JSON mode reject the field; ask once without it.
      await response.body?.cancel();
      response = await post(prompt, signal, false);
      if (response.ok) jsonMode = false;
    }
    if (!response.ok) {
      await response.body?.cancel();
      const [code, reason] = statusFailure(response.status);
      throw llmFailure(OPENAI_ENGINE, code, reason);
    }
    const reply = await readCompletion(response);
    // A model's own safety refusal (OpenAI `refusal`) is a refusal proposal, in the reply format.
    if (reply.text.trim() === '' && reply.refusal) {
      return {
        text: JSON.stringify({ kind: 'refused', message: reply.refusal }),
        ...usageField(reply.usage),
      };
    }
    return { text: reply.text, ...usageField(reply.usage) };
  };

  return createModelEngine({
    name: OPENAI_ENGINE,
    provider: OPENAI_ENGINE,
    call,
    stream: streamCall,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
};

/** A non-streamed chat completion: its text, the model's refusal and the usage. */
const readCompletion = async (
  response: Response,
): Promise<{ text: string; refusal?: string | null | undefined; usage?: TokenUsage | undefined }> => {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw llmFailure(
      OPENAI_ENGINE,
      'BAD_RESPONSE',
      'the provider answered with something other than JSON',
      error,
    );
  }
  const parsed = v.safeParse(Completion, body);
  if (!parsed.success) {
    throw llmFailure(OPENAI_ENGINE, 'BAD_RESPONSE', 'the provider answered without a chat completion');
  }
  const message = parsed.output.choices[0]!.message;
  const content =
    typeof message.content === 'string'
      ? message.content
      : (message.content ?? []).map((part) => part.text ?? '').join('');
  return { text: content, refusal: message.refusal, usage: usageOf(parsed.output.usage) };
};
