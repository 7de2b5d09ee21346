// What an organization has used (the control plane's GET /organization/usage), beside the
// limiter's items in the organization's LIMITS# partition (lib/store/limit-counters.ts):
//   PK LIMITS#<org>  SK ANSWERS#<yyyy-mm>   answers of one month by who answered: builtin,
//                                           model, pattern, cache (one ADD per answer), and
//                                           the model calls, input and output tokens and
//                                           repairs those answers cost (same UpdateItem)
// Reading is one BatchGetItem of the COUNTERS item (the current windows), the month's indexing
// item and the month's answers item.
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, type TransactionUpdate, tableName } from './client.ts';
import {
  type CounterState,
  counterStateOf,
  countersKey,
  indexingKey,
  limitsPartition,
} from './limit-counters.ts';

/** Who answered (docs/design.md "Answers people can check": `data.answered_by`). */
export const ANSWER_SOURCES = ['builtin', 'model', 'pattern', 'cache'] as const;
export type AnswerSource = (typeof ANSWER_SOURCES)[number];

/** A month's answer counts are kept this long after it (TTL), like the indexing counts. */
const KEEP_SECONDS = 70 * 86_400;

export const answersKey = (organizationId: number, month: string) => ({
  PK: limitsPartition(organizationId),
  SK: `ANSWERS#${month}`,
});

/** What an answer cost in model work (docs/model-engines.md "Usage"). */
export interface ModelWork {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Repair rounds (0 or 1). */
  repairs: number;
}

const MODEL_WORK_FIELDS = {
  calls: 'modelCalls',
  inputTokens: 'inputTokens',
  outputTokens: 'outputTokens',
  repairs: 'repairs',
} as const;

/**
 * The update that counts one answer of the month and the model work it cost (exact under
 * concurrency). The answering flow writes it in the transaction that stores the answer
 * (lib/store/messages.ts appendMessage), so an answer is counted exactly when it is stored,
 * without a round trip of its own.
 */
export const answerCountUpdate = (
  organizationId: number,
  source: AnswerSource,
  now = new Date(),
  work?: ModelWork,
): TransactionUpdate => {
  const names: Record<string, string> = { '#ttl': 'expiresAt', '#source': source };
  const values: Record<string, number> = {
    ':one': 1,
    ':ttl': Math.floor(now.getTime() / 1000) + KEEP_SECONDS,
  };
  const adds = ['#source :one'];
  for (const [key, field] of Object.entries(MODEL_WORK_FIELDS)) {
    const amount = work?.[key as keyof ModelWork] ?? 0;
    if (amount <= 0) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = amount;
    adds.push(`#${field} :${field}`);
  }
  return {
    TableName: tableName(),
    Key: answersKey(organizationId, now.toISOString().slice(0, 7)),
    UpdateExpression: `SET #ttl = if_not_exists(#ttl, :ttl) ADD ${adds.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

/** Counts one answer of the month and its model work on its own (one UpdateItem). */
export const countAnswer = async (
  organizationId: number,
  source: AnswerSource,
  now = new Date(),
  work?: ModelWork,
): Promise<void> => {
  await documents().send(new UpdateCommand(answerCountUpdate(organizationId, source, now, work)));
};

export interface UsageItems {
  counters: CounterState | undefined;
  indexingUsed: number;
  answers: Record<AnswerSource, number>;
  model: { calls: number; input_tokens: number; output_tokens: number; repairs: number };
}

/** The organization's counters, the month's indexing count and answers: one BatchGetItem. */
export const readUsageItems = async (organizationId: number, month: string): Promise<UsageItems> => {
  const keys = [
    countersKey(organizationId),
    indexingKey(organizationId, month),
    answersKey(organizationId, month),
  ];
  const found = new Map<string, Record<string, unknown>>();
  let pending: Record<string, unknown>[] = keys;
  for (let attempt = 0; pending.length > 0 && attempt < 5; attempt += 1) {
    const { Responses, UnprocessedKeys } = await documents().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }),
    );
    for (const item of Responses?.[tableName()] ?? []) found.set(String(item.SK), item);
    pending = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
  }
  const number = (value: unknown) => (typeof value === 'number' ? value : 0);
  const counters = found.get('COUNTERS');
  const answers = found.get(answersKey(organizationId, month).SK);
  return {
    counters: counters ? counterStateOf(counters) : undefined,
    indexingUsed: number(found.get(indexingKey(organizationId, month).SK)?.used),
    answers: Object.fromEntries(
      ANSWER_SOURCES.map((source) => [source, number(answers?.[source])]),
    ) as Record<AnswerSource, number>,
    model: {
      calls: number(answers?.modelCalls),
      input_tokens: number(answers?.inputTokens),
      output_tokens: number(answers?.outputTokens),
      repairs: number(answers?.repairs),
    },
  };
};
