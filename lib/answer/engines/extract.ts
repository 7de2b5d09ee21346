// Reading a model's reply (lib/answer/engines/prompt.ts asks for one JSON object): the object
// may come bare, in a code fence, or after some prose. What comes out is a Proposal of the
// engine contract, or undefined when the reply is not in the format (the caller asks once more).
// The SQL is taken as the model wrote it, trimmed: whether it is one statement, a SELECT, or
// anything else is the guard's decision (docs/design.md "Tenant filtering and the SQL guard"), never
// this module's, so nothing here can make a query more or less acceptable.
import * as v from 'valibot';
import type { Proposal, RefusalReason } from '../engine.ts';

const text = v.pipe(v.string(), v.trim());

/** The reply object as prompt.ts describes it; unknown fields are ignored. */
export const ModelReply = v.object({
  kind: v.picklist(['sql', 'clarification', 'conversational', 'refused']),
  sql: v.optional(v.nullable(text)),
  message: v.optional(v.nullable(text)),
  description: v.optional(v.nullable(text)),
  reason: v.optional(v.nullable(v.string())),
});
export type ModelReply = v.InferOutput<typeof ModelReply>;

const refusalReasons: readonly RefusalReason[] = ['write', 'injection', 'other_tenant', 'raw_sql'];

/** Longest message kept from a model (a clarification is a sentence or two, not an essay). */
export const MAX_MESSAGE_LENGTH = 2_000;

const bounded = (message: string): string =>
  message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1).trimEnd()}…` : message;

/** A whole reply that is only a fenced block: its body (models wrap SQL and JSON alike). */
const fenced = /^\s*```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```\s*$/;

export const stripFence = (value: string): string => fenced.exec(value)?.[1]?.trim() ?? value.trim();

/**
 * Every balanced `{...}` span of the text, outermost first, in order: strings are skipped so a
 * brace inside `"sql": "... '}' ..."` does not end the object early.
 */
const objectSpans = (reply: string): string[] => {
  const spans: string[] = [];
  for (let start = reply.indexOf('{'); start !== -1; start = reply.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let index = start; index < reply.length; index++) {
      const char = reply[index];
      if (inString) {
        if (char === '\\') index++;
        else if (char === '"') inString = false;
        continue;
      }
      if (char === '"') inString = true;
      else if (char === '{') depth++;
      else if (char === '}' && --depth === 0) {
        spans.push(reply.slice(start, index + 1));
        break;
      }
    }
  }
  return spans;
};

const parseJson = (candidate: string): unknown => {
  try {
    return JSON.parse(candidate);
  } catch {
    return undefined;
  }
};

/** The first JSON object in the reply that has the reply's fields, or undefined. */
export const findReplyObject = (reply: string): ModelReply | undefined => {
  const candidates = [stripFence(reply), ...objectSpans(reply)];
  for (const candidate of candidates) {
    const result = v.safeParse(ModelReply, parseJson(candidate));
    if (result.success) return result.output;
  }
  return undefined;
};

const nonEmpty = (value: string | null | undefined): string | undefined =>
  value === null || value === undefined || value === '' ? undefined : value;

/** The state a SQL proposal of a model engine saves for follow-ups (`PriorTurn.state`). */
export interface ModelState {
  v: 1;
  sql: string;
  description: string;
}

export const ModelStateSchema = v.object({
  v: v.literal(1),
  sql: v.pipe(v.string(), v.maxLength(20_000)),
  description: v.pipe(v.string(), v.maxLength(MAX_MESSAGE_LENGTH)),
});

/** The SQL and description a turn of this engine saved, if the state is readable. */
export const readModelState = (state: unknown): ModelState | undefined => {
  const result = v.safeParse(ModelStateSchema, state);
  return result.success ? result.output : undefined;
};

/**
 * The proposal in a model's reply, or undefined when the reply is not in the format. A reply
 * that is nothing but a fenced SQL block is read as a SQL proposal (some models ignore the
 * format for plain queries); prose without an object is malformed.
 */
export const extractProposal = (reply: string): Proposal | undefined => {
  const object = findReplyObject(reply);
  if (!object) {
    const block = /^\s*```sql[ \t]*\r?\n([\s\S]*?)\r?\n?```\s*$/i.exec(reply)?.[1]?.trim();
    if (!block) return undefined;
    const description = 'Running the query the model wrote';
    return { kind: 'sql', sql: block, description, state: { v: 1, sql: block, description } };
  }
  const message = nonEmpty(object.message);
  switch (object.kind) {
    case 'sql': {
      const sql = nonEmpty(
        object.sql === undefined || object.sql === null ? undefined : stripFence(object.sql),
      );
      if (!sql) return undefined;
      const description = bounded(
        nonEmpty(object.description) ?? message ?? 'Running the query the model wrote',
      );
      const state: ModelState = { v: 1, sql, description };
      return { kind: 'sql', sql, description, state };
    }
    case 'refused': {
      const reason = refusalReasons.find((known) => known === object.reason);
      return {
        kind: 'refused',
        message: bounded(message ?? 'I can only answer questions by reading your data.'),
        ...(reason ? { reason } : {}),
      };
    }
    case 'clarification':
    case 'conversational':
      return message ? { kind: object.kind, message: bounded(message) } : undefined;
  }
};
