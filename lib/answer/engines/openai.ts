// The OpenAI-compatible engine (issue 5): any server that speaks POST {baseUrl}/chat/completions
// (OpenAI, Azure-style gateways, vLLM, Ollama, llama.cpp). Asks for JSON mode and falls back to
// plain text, for good, when a server rejects `response_format`. The API key, when there is one,
// is resolved by the registry (Secrets Manager in deployed stages) and sent as a Bearer token;
// it never appears in errors or logs. Prompt and reply handling are shared with Bedrock
// (model.ts, prompt.ts, extract.ts).
import * as v from 'valibot';
import type { Engine } from '../engine.ts';
import { createModelEngine, type LlmFailureCode, llmFailure, type ModelCall } from './model.ts';
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
    // A model's own safety refusal (OpenAI `refusal`) is a refusal proposal, in the reply format.
    if (content.trim() === '' && message.refusal) {
      return JSON.stringify({ kind: 'refused', message: message.refusal });
    }
    return content;
  };

  return createModelEngine({
    name: OPENAI_ENGINE,
    provider: OPENAI_ENGINE,
    call,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
};
