// The Amazon Bedrock engine: the Converse API, so one request shape serves every
// model family Bedrock hosts (system prompt + messages, temperature 0). Credentials and region
// come from the Lambda's role and environment; the call is cancelled by the same bound as the
// OpenAI-compatible engine. Prompt and reply handling are shared (model.ts, prompt.ts,
// extract.ts); this module maps Bedrock's exceptions onto LLM_FAILED codes.
// The answer from the rows is streamed with ConverseStream: each `contentBlockDelta` text is
// handed on as it arrives, the `metadata` event carries the token usage (as does Converse's
// `usage`), and an exception event inside the stream, or a stream that ends without
// `messageStop`, is a provider failure.
import {
  BedrockRuntimeClient,
  type TokenUsage as BedrockUsage,
  ConverseCommand,
  type ConverseCommandOutput,
  ConverseStreamCommand,
  type ConverseStreamCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { traced } from '#lib/observability/tracer.ts';
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

export const BEDROCK_ENGINE = 'bedrock';

export interface BedrockEngineOptions {
  /** A model id or inference profile, e.g. `anthropic.claude-3-5-haiku-20241022-v1:0`. */
  model: string;
  /** Defaults to the Lambda's region (AWS_REGION). */
  region?: string;
  /** For tests (aws-sdk-client-mock) and custom settings. */
  client?: BedrockRuntimeClient;
  /** Bound on one proposal, retry included (default 20 s). */
  timeoutMs?: number;
}

const MAX_TOKENS = 1_024;

// One client per region for the life of the container, so warm invocations reuse connections.
const clients = new Map<string, BedrockRuntimeClient>();
const clientFor = (region: string | undefined): BedrockRuntimeClient => {
  const key = region ?? '';
  let client = clients.get(key);
  if (!client) {
    // One SDK retry at most: the proposal's own time bound matters more than persistence.
    client = traced(new BedrockRuntimeClient({ ...(region ? { region } : {}), maxAttempts: 2 }));
    clients.set(key, client);
  }
  return client;
};

const authNames = new Set([
  'AccessDeniedException',
  'UnrecognizedClientException',
  'ExpiredTokenException',
  'InvalidSignatureException',
  'IncompleteSignatureException',
  'MissingAuthenticationTokenException',
  'CredentialsProviderError',
]);
const unavailableNames = new Set([
  'ThrottlingException',
  'ServiceQuotaExceededException',
  'ServiceUnavailableException',
  'InternalServerException',
  'ModelNotReadyException',
]);
const timeoutNames = new Set(['ModelTimeoutException']);

/** Exception members of a ConverseStream event, by the LLM_FAILED code they mean. */
const streamExceptions: Record<string, LlmFailureCode> = {
  internalServerException: 'UNAVAILABLE',
  serviceUnavailableException: 'UNAVAILABLE',
  throttlingException: 'UNAVAILABLE',
  modelStreamErrorException: 'BAD_RESPONSE',
  validationException: 'BAD_RESPONSE',
};

const usageOf = (usage: BedrockUsage | undefined): TokenUsage | undefined =>
  usage && (usage.inputTokens !== undefined || usage.outputTokens !== undefined)
    ? { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0 }
    : undefined;

const request = (model: string, prompt: ChatPrompt) => ({
  modelId: model,
  system: [{ text: prompt.system }],
  messages: prompt.messages.map((message) => ({
    role: message.role,
    content: [{ text: message.content }],
  })),
  inferenceConfig: { temperature: 0, maxTokens: MAX_TOKENS },
});

/** A Bedrock exception as llmFailure; failures that are not Bedrock's answer pass through. */
const mapped = (error: unknown): unknown => {
  const known = bedrockFailure(error);
  // Network errors and aborts are classified by model.ts (it knows which bound fired).
  return known ? llmFailure(BEDROCK_ENGINE, known[0], known[1], error) : error;
};

/** The LLM_FAILED code of a Bedrock exception, or undefined for failures that are not Bedrock's answer. */
export const bedrockFailure = (error: unknown): [LlmFailureCode, string] | undefined => {
  if (!(error instanceof Error)) return undefined;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (authNames.has(error.name) || status === 401 || status === 403) {
    return ['AUTH_FAILED', `access denied (${error.name})`];
  }
  if (timeoutNames.has(error.name)) return ['TIMEOUT', `the model timed out (${error.name})`];
  if (unavailableNames.has(error.name) || status === 429 || (status !== undefined && status >= 500)) {
    return ['UNAVAILABLE', `the provider is unavailable (${error.name})`];
  }
  // ValidationException, ResourceNotFoundException (an unknown model id), ModelErrorException.
  if (status !== undefined) return ['BAD_RESPONSE', `the provider refused the request (${error.name})`];
  return undefined;
};

export const createBedrockEngine = (
  options: BedrockEngineOptions,
): Engine & Required<Pick<Engine, 'repair'>> => {
  if (typeof options.model !== 'string' || options.model === '') {
    throw new TypeError('the bedrock engine needs a model (a model id or inference profile)');
  }
  const client = options.client ?? clientFor(options.region);

  const call: ModelCall = async (prompt, signal) => {
    let output: ConverseCommandOutput;
    try {
      output = await client.send(new ConverseCommand(request(options.model, prompt)), {
        abortSignal: signal,
      });
    } catch (error) {
      throw mapped(error);
    }
    const content = output.output?.message?.content;
    if (!content) throw llmFailure(BEDROCK_ENGINE, 'BAD_RESPONSE', 'the provider answered without a message');
    const usage = usageOf(output.usage);
    return { text: content.map((block) => block.text ?? '').join(''), ...usageField(usage) };
  };

  const stream: ModelStream = async (prompt, signal, onText) => {
    let output: ConverseStreamCommandOutput;
    try {
      output = await client.send(new ConverseStreamCommand(request(options.model, prompt)), {
        abortSignal: signal,
      });
    } catch (error) {
      throw mapped(error);
    }
    if (!output.stream)
      throw llmFailure(BEDROCK_ENGINE, 'BAD_RESPONSE', 'the provider answered without a stream');
    let usage: TokenUsage | undefined;
    let stopped = false;
    try {
      for await (const event of output.stream) {
        for (const [member, code] of Object.entries(streamExceptions)) {
          if ((event as unknown as Record<string, unknown>)[member] !== undefined) {
            throw llmFailure(BEDROCK_ENGINE, code, `the provider failed during the stream (${member})`);
          }
        }
        const text = event.contentBlockDelta?.delta?.text;
        if (text) await onText(text);
        if (event.messageStop) stopped = true;
        if (event.metadata) usage = usageOf(event.metadata.usage) ?? usage;
      }
    } catch (error) {
      throw mapped(error);
    }
    return streamEnd(BEDROCK_ENGINE, stopped, usage);
  };

  return createModelEngine({
    name: BEDROCK_ENGINE,
    provider: BEDROCK_ENGINE,
    call,
    stream,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
};
