// What the model engines (openai.ts, bedrock.ts) share: the prompt → reply → proposal round,
// one retry when the reply is not in the format, one repair round on a database error, a bound
// on the time a proposal may take, and the mapping of every provider failure onto the one error
// catalogue: ServiceError('LLM_FAILED') (500 EXTERNAL_LLM_ERROR) whose details name the provider
// (docs/design.md "Errors"). An adapter only sends a ChatPrompt and returns the reply's text (with
// the usage the provider reported); an adapter that can also stream (`ModelStream`) gives the
// engine its `compose`: the model writes the answer from the rows, token by token, under the
// same time bound and failure mapping. Every call's token usage goes to `EngineInput.onUsage`.
import { ServiceError } from '#lib/errors.ts';
import { logger } from '#lib/log.ts';
import type { Engine, EngineInput, Proposal, TokenUsage } from '../engine.ts';
import { extractProposal } from './extract.ts';
import {
  buildComposePrompt,
  buildPrompt,
  buildRepairPrompt,
  type ChatPrompt,
  defaultPromptOptions,
  FORMAT_REMINDER,
  MAX_QUESTION_LENGTH,
  type PromptOptions,
} from './prompt.ts';

/** `details[0].code` of an LLM_FAILED error. */
export type LlmFailureCode = 'AUTH_FAILED' | 'TIMEOUT' | 'BAD_RESPONSE' | 'UNAVAILABLE';

/** The default bound on one proposal (both attempts together), in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 20_000;
/** Longer replies are cut before parsing; a proposal is a few hundred characters. */
const MAX_REPLY_LENGTH = 100_000;

/** The catalogue's LLM_FAILED, naming the provider: details [{field: 'provider', message: provider, code}]. */
export const llmFailure = (
  provider: string,
  code: LlmFailureCode,
  reason: string,
  cause?: unknown,
): ServiceError =>
  new ServiceError('LLM_FAILED', {
    message: `The language model provider failed (${provider}: ${reason})`,
    detail: code,
    issues: [{ field: 'provider', message: provider, code }],
    ...(cause !== undefined ? { cause } : {}),
  });

/** A reply and the tokens it cost, when the provider said. */
export interface ModelReply {
  text: string;
  usage?: TokenUsage;
}

/** Sends one prompt and returns the reply's text; throws llmFailure for answers it understands. */
export type ModelCall = (prompt: ChatPrompt, signal: AbortSignal) => Promise<string | ModelReply>;

/**
 * Sends one prompt and streams the reply: each piece of text goes to `onText` as the provider
 * sends it (awaited); resolves at the end of the reply with the usage when the provider reported
 * it. Throws llmFailure for failures it understands, including a stream that breaks off.
 */
export type ModelStream = (
  prompt: ChatPrompt,
  signal: AbortSignal,
  onText: (text: string) => Promise<void>,
) => Promise<{ usage?: TokenUsage }>;

/** `{ usage }` when the provider reported it, otherwise nothing. */
export const usageField = (usage: TokenUsage | undefined): { usage?: TokenUsage } => (usage ? { usage } : {});

/**
 * What a ModelStream resolves with once the provider's stream has ended: the usage, when it was
 * reported; a stream that ended before the provider marked the end of the answer broke off.
 */
export const streamEnd = (
  provider: string,
  answerEnded: boolean,
  usage: TokenUsage | undefined,
): { usage?: TokenUsage } => {
  if (!answerEnded) {
    throw llmFailure(provider, 'UNAVAILABLE', 'the provider’s stream broke off before the answer ended');
  }
  return usageField(usage);
};

/** An answer written by a model is cut at this length (the stream is stopped there). */
export const MAX_ANSWER_LENGTH = 4_000;

export interface ModelEngineOptions {
  /** `Engine.name`, stored with each proposal's state. */
  name: string;
  /** Named in errors' details (`provider`). */
  provider: string;
  timeoutMs?: number;
  call: ModelCall;
  /** Gives the engine a streamed `compose`; without it the answer is composed deterministically. */
  stream?: ModelStream;
  prompt?: Partial<PromptOptions>;
}

/** Settles with `work`, or rejects with the signal's reason as soon as it aborts, whatever `work` does. */
const bounded = <T>(work: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });

const shortQuestion = (question: string): Proposal | undefined => {
  const trimmed = question.trim();
  if (trimmed === '') {
    return {
      kind: 'clarification',
      message: 'Ask me a question about your data, for example “How many orders were placed last month?”.',
    };
  }
  if (trimmed.length > MAX_QUESTION_LENGTH) {
    return {
      kind: 'clarification',
      message: 'That question is too long for me. Could you ask one thing at a time, in a sentence or two?',
    };
  }
  return undefined;
};

export const createModelEngine = (options: ModelEngineOptions): Engine & Required<Pick<Engine, 'repair'>> => {
  const { name, provider, call, stream } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const promptOptions: PromptOptions = { ...defaultPromptOptions, ...options.prompt };

  /** Any failure of a round as the error the caller gets. */
  const failure = (error: unknown, deadline: AbortSignal, input: EngineInput): unknown => {
    // The client went away: the orchestrator sees its own reason, not a provider failure.
    if (input.signal?.aborted) return input.signal.reason;
    if (deadline.aborted) {
      return llmFailure(provider, 'TIMEOUT', `no answer within ${timeoutMs} ms`, error);
    }
    if (error instanceof ServiceError) return error;
    return llmFailure(provider, 'UNAVAILABLE', 'the provider could not be reached', error);
  };

  const ask = async (prompt: ChatPrompt, input: EngineInput): Promise<Proposal> => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = input.signal ? AbortSignal.any([deadline, input.signal]) : deadline;
    const send = async (request: ChatPrompt) => {
      input.onModelCall?.();
      const reply = await bounded(call(request, signal), signal);
      if (typeof reply === 'string') return reply.slice(0, MAX_REPLY_LENGTH);
      if (reply.usage) input.onUsage?.(reply.usage);
      return reply.text.slice(0, MAX_REPLY_LENGTH);
    };
    try {
      const reply = await send(prompt);
      const proposal = extractProposal(reply);
      if (proposal) return proposal;
      logger.warn('model reply not in the requested format; asking once more', { engine: name });
      const retry = await send({
        system: prompt.system,
        messages: [
          ...prompt.messages,
          { role: 'assistant', content: reply.trim() || '(empty reply)' },
          { role: 'user', content: FORMAT_REMINDER },
        ],
      });
      const retried = extractProposal(retry);
      if (retried) return retried;
    } catch (error) {
      throw failure(error, deadline, input);
    }
    throw llmFailure(provider, 'BAD_RESPONSE', 'the reply was not in the requested format, twice');
  };

  /** The answer from the rows, streamed: each piece goes to `onPiece` as the model writes it. */
  const compose = async (
    writer: ModelStream,
    ...[proposal, result, input, onPiece]: Parameters<NonNullable<Engine['compose']>>
  ) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    // Aborted when the answer reached MAX_ANSWER_LENGTH: the rest is not wanted.
    const enough = new AbortController();
    const signal = AbortSignal.any([deadline, enough.signal, ...(input.signal ? [input.signal] : [])]);
    const pieces: string[] = [];
    let length = 0;
    const onText = async (text: string) => {
      if (enough.signal.aborted) return;
      const piece = (length === 0 ? text.trimStart() : text).slice(0, MAX_ANSWER_LENGTH - length);
      if (piece === '') return;
      pieces.push(piece);
      length += piece.length;
      if (length >= MAX_ANSWER_LENGTH) enough.abort(new Error('the answer reached its maximum length'));
      await onPiece(piece);
    };
    try {
      input.onModelCall?.();
      const { usage } = await bounded(
        writer(buildComposePrompt(input, proposal, result), signal, onText),
        signal,
      );
      if (usage) input.onUsage?.(usage);
    } catch (error) {
      const capped = enough.signal.aborted && !deadline.aborted && !input.signal?.aborted;
      if (!capped) throw failure(error, deadline, input);
    }
    const text = pieces.join('');
    if (text.trim() === '') throw llmFailure(provider, 'BAD_RESPONSE', 'the provider wrote an empty answer');
    return { text, pieces };
  };

  return {
    name,
    propose: async (input) =>
      shortQuestion(input.question) ?? ask(buildPrompt(input, name, promptOptions), input),
    repair: async (input, failed) =>
      shortQuestion(input.question) ?? ask(buildRepairPrompt(input, name, failed, promptOptions), input),
    ...(stream
      ? { compose: (...args: Parameters<NonNullable<Engine['compose']>>) => compose(stream, ...args) }
      : {}),
  };
};
