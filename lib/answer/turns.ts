// A conversation's earlier exchanges as the engines read them (lib/answer/engine.ts
// `PriorTurn`), rebuilt from the stored messages, and the metadata the orchestrator stores with
// each assistant message so that it can be rebuilt: `query_type` and `execution_time_ms` (the
// spec's history fields), `sql` as generated, `row_count`, the engine's name and `state`, and
// `reply_to`, the id of the user message it answers. Pairing by `reply_to` keeps follow-ups right
// when two messages to one conversation were answered at once (user, user, assistant, assistant).
import * as v from 'valibot';
import type { MessageRecord } from '#lib/store/messages.ts';
import type { PriorTurn, ProposalKind } from './engine.ts';

/** Messages read back for follow-ups: about five exchanges. */
export const HISTORY_MESSAGES = 10;

export interface AssistantMetadata {
  query_type: ProposalKind | 'error';
  execution_time_ms: number;
  /** The query as the engine generated it, before the tenant rewrite. */
  sql?: string;
  row_count: number;
  results_truncated?: boolean;
  sources: string[];
  /** The engine that answered (`Engine.name`) and its model, when it has one. */
  engine: string;
  model?: string;
  /** The engine's state for follow-ups (`SqlProposal.state`); JSON. */
  state?: unknown;
  /** The user message this answers. */
  reply_to: string;
  /** The engine's one-sentence reading of the question. */
  description?: string;
  personality_id?: string;
  /** Why the guard refused the generated SQL (a RefusalCode) or why the engine refused. */
  refusal?: string;
  /** The database rejected the engine's first query and this answer comes from its repair. */
  repaired?: boolean;
  /** Set when answering failed after the question was stored: the error's code and detail. */
  error?: { code: string; detail?: string };
  /** A streamed answer whose reader went away: the content is what was sent before that. */
  incomplete?: boolean;
  /** Calls to a model provider this answer cost, and their tokens as the provider reported them. */
  model_calls?: number;
  tokens?: { input: number; output: number };
}

const kinds = ['sql', 'clarification', 'conversational', 'refused'] as const;

/** What is read back: untrusted (history can also be appended by integrators), so checked. */
const StoredMetadata = v.object({
  query_type: v.picklist(kinds),
  engine: v.optional(v.string()),
  state: v.optional(v.unknown()),
  reply_to: v.optional(v.string()),
});

const metadataOf = (message: MessageRecord): v.InferOutput<typeof StoredMetadata> | undefined => {
  if (!message.metadataJson) return undefined;
  try {
    const parsed = v.safeParse(StoredMetadata, JSON.parse(message.metadataJson));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Prior turns, oldest first, from a conversation's latest messages (oldest first). Each
 * assistant message that carries a `query_type` is one turn; its question is the user message it
 * names in `reply_to`, or else the closest earlier user message not yet paired. A turn whose
 * question fell outside the window is left out.
 */
export const priorTurns = (messages: readonly MessageRecord[]): PriorTurn[] => {
  const users = new Map(messages.filter((m) => m.role === 'user').map((m) => [m.id, m]));
  const paired = new Set<string>();
  const turns: PriorTurn[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const metadata = metadataOf(message);
    if (!metadata) return;
    let question = metadata.reply_to ? users.get(metadata.reply_to) : undefined;
    if (!question) {
      for (let earlier = index - 1; earlier >= 0; earlier -= 1) {
        const candidate = messages[earlier]!;
        if (candidate.role === 'user' && !paired.has(candidate.id)) {
          question = candidate;
          break;
        }
      }
    }
    if (!question) return;
    paired.add(question.id);
    turns.push({
      question: question.content,
      kind: metadata.query_type,
      ...(metadata.engine !== undefined ? { engine: metadata.engine } : {}),
      ...(metadata.state !== undefined ? { state: metadata.state } : {}),
    });
  });
  return turns;
};
