// The chat answer (docs/design.md "Chat answers: one superset shape"): one valibot schema, the
// answer's only declaration. The orchestrator builds values of its inferred type, the answering
// routes document it (lib/routes/schemas.ts re-exports it as the ChatAnswer component), so the
// code and the document cannot drift apart.
import * as v from 'valibot';

const uuid = v.pipe(v.string(), v.uuid());

export const QueryType = v.pipe(
  v.picklist(['sql', 'clarification', 'conversational', 'refused']),
  v.description(
    'sql: a query ran; clarification: the question needs to be more precise; conversational: ' +
      'greeting, help or capabilities; refused: the request cannot be answered safely',
  ),
);

/** One axis of the chart (lib/answer/chart.ts). */
const chartField = v.object({
  field: v.string(),
  type: v.picklist(['temporal', 'ordinal', 'quantitative', 'nominal']),
  title: v.string(),
  sort: v.optional(v.picklist(['ascending', '-y'])),
});

/** The fields of both documented shapes. */
export const ChatAnswer = v.pipe(
  v.object({
    message: v.pipe(v.string(), v.description('the answer in words')),
    conversation_id: uuid,
    session_id: v.pipe(uuid, v.description('a session is a conversation: always equals conversation_id')),
    sources: v.pipe(
      v.array(v.string()),
      v.description('["database"] when rows came from the database, [] otherwise'),
    ),
    query_type: QueryType,
    execution_time_ms: v.pipe(v.number(), v.integer(), v.minValue(0)),
    results: v.pipe(
      v.array(v.record(v.string(), v.unknown())),
      v.description('result rows (at most 100); keys depend on the query'),
    ),
    row_count: v.pipe(v.number(), v.integer(), v.minValue(0)),
    results_truncated: v.pipe(v.boolean(), v.description('true when more rows existed than results holds')),
    sql: v.pipe(
      v.nullable(v.string()),
      v.description('the query as generated, before the tenant rewrite; null when none was proposed'),
    ),
    interpretation: v.pipe(
      v.nullable(v.string()),
      v.description(
        'what the engine understood, in plain words ("Counting orders with status \'cancelled\'"), so that a misreading can be caught; null when no query was proposed',
      ),
    ),
    message_id: v.pipe(uuid, v.description('the stored answer, as history lists it; feedback names it')),
    answered_by: v.pipe(
      v.picklist(['builtin', 'pattern', 'cache', 'model']),
      v.description(
        'who answered: the builtin engine, an approved query pattern, the shared SQL cache, or a model',
      ),
    ),
    chart: v.pipe(
      v.nullable(
        v.object({
          $schema: v.literal('https://vega.github.io/schema/vega-lite/v5.json'),
          title: v.string(),
          description: v.string(),
          data: v.object({ values: v.array(v.record(v.string(), v.unknown())) }),
          mark: v.object({ type: v.picklist(['line', 'bar', 'point']) }),
          encoding: v.object({ x: chartField, y: chartField }),
        }),
      ),
      v.description(
        'a Vega-Lite v5 spec of the rows chosen by rules (time and measure: line; up to 20 categories: bar; two measures: point), values inline; null when no chart fits',
      ),
    ),
    suggestions: v.pipe(
      v.array(v.string()),
      v.maxLength(3),
      v.description(
        'up to three questions the builtin engine answers on this database, as buttons to ask them. After an answer: follow-up questions. After a clarification (query_type `clarification`) that found readings of the question: the likeliest readings, best first, each a complete question ("Did you mean …"); asking one answers exactly that reading',
      ),
    ),
  }),
  v.description('An answer, in the superset of both documented response shapes'),
);
export type ChatAnswer = v.InferOutput<typeof ChatAnswer>;
