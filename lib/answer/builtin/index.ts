// The builtin engine: natural language to SQL with no model and no network, so the
// service answers out of the box and in tests. The pipeline is `readQuestion` and
// `proposeBuiltin` below, each stage in its own module and each returning a value:
//   converse.ts   refusals (writes, prompt injection, typed SQL, other tenants), greetings, help
//   tokens.ts     question → tokens
//   lexicon.ts    catalog → phrases, samples, join graph (built once per catalog)
//   scan.ts       tokens → mentions (schema phrases, periods, numbers, aggregates, rankings…)
//   analyse.ts    mentions → the analysis (items, modifiers bound), or a clarification
//   interpret.ts  analysis (+ the previous intent) → intent checked by check.ts, or a clarification
//   readings.ts   a question stopped by words that link to nothing → its readings, weighed
//   render.ts     intent → one SELECT for the dialect
//   describe.ts   intent → description and answer shape
//   spans.ts      the unit a duration is asked in, and a "how long" that names no rows
// The types that cross the stages are in types.ts. What it deliberately does not handle is
// listed in README.md beside this file.
import type { Engine, EngineInput, PriorTurn, Proposal } from '../engine.ts';
import { adviceRequest } from './advice.ts';
import { analyse } from './analyse.ts';
import { checkIntent } from './check.ts';
import { isClarification, mainTables, quoted } from './clarify.ts';
import { conversation, refusal } from './converse.ts';
import { describeIntent, interpretationOf, shapeOf } from './describe.ts';
import { prepareGlossarySql } from './glossary-sql.ts';
import { printable } from './glossary-use.ts';
import { BUILTIN_ENGINE, type DurationUnit, type Intent, readState, stateOf } from './intent.ts';
import { interpret } from './interpret.ts';
import { columnOf, lexiconFor, relationOf } from './lexicon.ts';
import {
  dateRewrites,
  distinctOptions,
  exampleRewrites,
  MAX_OPTIONS,
  MAX_REWRITES,
  optionsFor,
  quotedIn,
  unknownWithoutOptions,
} from './options.ts';
import { ratioProposal, ratioQuestion, sideQuestion } from './ratio.ts';
import {
  alternativesOf,
  candidateReadings,
  clearBest,
  orAcrossColumns,
  rankedAggregate,
} from './readings.ts';
import { renderSql } from './render.ts';
import { scan } from './scan.ts';
import { durationUnitIn, hasDuration, inUnit, spanRelations, vagueSpan } from './spans.ts';
import { tokenize } from './tokens.ts';
import type { Interpretation, Lexicon, Mention, Note } from './types.ts';
import { type KnownValues, proposeWithValues, type ValuesWanted } from './value-pass.ts';
import { valueProbeOf } from './values.ts';
import { joinAnd, singular } from './words.ts';

export const MAX_QUESTION_LENGTH = 1000;
/** How far back a follow-up may reach past clarifications and small talk. */
const FOLLOW_UP_REACH = 4;

/** Whether every relation and column a saved intent names still exists in the catalog. */
const fits = (lexicon: Lexicon, intent: Intent): boolean => {
  const refs = [
    ...intent.filters.map((filter) => filter.ref),
    ...(intent.metric && intent.metric.fn !== 'count'
      ? 'ref' in intent.metric.measure
        ? [intent.metric.measure.ref]
        : [intent.metric.measure.left, intent.metric.measure.right]
      : []),
    ...(intent.group && intent.group.kind !== 'entity' ? [intent.group.ref] : []),
    ...(intent.order?.by === 'column' ? [intent.order.ref] : []),
    ...(intent.order?.by === 'duration' ? [intent.order.measure.left, intent.order.measure.right] : []),
  ];
  const tables = [intent.subject, ...(intent.group?.kind === 'entity' ? [intent.group.table] : [])];
  return (
    tables.every((table) => lexicon.relations.has(table)) &&
    refs.every((ref) => columnOf(lexicon, ref) !== undefined) &&
    printable(lexicon.definitions, intent, lexicon.catalog.dialect)
  );
};

/** The intent of the latest answer this engine gave in the conversation, if it can still be used. */
export const priorIntent = (history: readonly PriorTurn[], lexicon: Lexicon): Intent | undefined => {
  for (let index = history.length - 1; index >= Math.max(0, history.length - FOLLOW_UP_REACH); index -= 1) {
    const turn = history[index]!;
    if (turn.kind !== 'sql') continue;
    if (turn.engine !== undefined && turn.engine !== BUILTIN_ENGINE) return undefined;
    const state = readState(turn.state);
    return state && fits(lexicon, state.intent) && checkIntent(lexicon, state.intent).kind === 'intent'
      ? state.intent
      : undefined;
  }
  return undefined;
};

const leadingCourtesy =
  /^\s*(?:(?:hi|hello|hey|good (?:morning|afternoon|evening))\b[\s,!.]*)?(?:(?:please|pls|kindly)\b[\s,]*)?/i;
const courtesyWords = ['thank you', 'thanks', 'please', 'pls', 'thx'] as const;

/**
 * The question without a closing "please"/"thanks" and the punctuation around it. A scan from the
 * end, not a regular expression: `/[\s,]*(?:please|…)?[\s?!.]*$/` backtracks cubically on a
 * long run of spaces (≈ 157 ms per request at the 1,000-character cap).
 */
export const withoutTrailingCourtesy = (text: string): string => {
  let end = text.length;
  const skip = (chars: RegExp): void => {
    while (end > 0 && chars.test(text[end - 1] ?? '')) end--;
  };
  skip(/[\s?!.]/);
  const tail = text.slice(Math.max(0, end - 9), end).toLowerCase();
  const word = courtesyWords.find(
    (candidate) =>
      tail.endsWith(candidate) &&
      (end === candidate.length || /[\s,]/.test(text[end - candidate.length - 1] ?? '')),
  );
  if (word) end -= word.length;
  skip(/[\s,]/);
  return text.slice(0, end);
};

/**
 * One question read through the stages: tokenise, scan (with linking), analyse, interpret (with
 * the checks). Each stage returns a value; analysing or interpreting may return a clarification.
 */
const readQuestion = (
  lexicon: Lexicon,
  text: string,
  now: Date,
  prior?: Intent,
): { mentions: Mention[]; interpretation: Interpretation } => {
  const tokens = tokenize(text);
  const mentions = scan(lexicon, tokens, now);
  const words = tokens.flatMap((token) => (token.kind === 'word' ? [token.text.toLowerCase()] : []));
  const analysis = analyse(lexicon, mentions, words);
  if (isClarification(analysis)) return { mentions, interpretation: analysis };
  return { mentions, interpretation: interpret({ lexicon, analysis, ...(prior ? { prior } : {}) }) };
};

/**
 * The question read as one answer; the second pass of the value lookup passes `known`. A
 * clarification offers options (`offer`); a rewrite checked for an option is read as it is
 * (`weigh` false: no readings weighed, no options), so that it is offered only when asking it
 * is answered at once.
 */
export const proposeBuiltin = (
  input: EngineInput,
  known?: KnownValues,
  wanted?: ValuesWanted,
  offer = true,
  weigh = true,
): Proposal => {
  const lexicon = known?.lexicon ?? lexiconFor(input.catalog, input.tenantColumn, input.glossary);
  const question = input.question.trim();
  if (question.length === 0) {
    return {
      kind: 'clarification',
      message: 'Ask me a question about your data, for example “How many orders were placed last month?”.',
    };
  }
  if (question.length > MAX_QUESTION_LENGTH) {
    return {
      kind: 'clarification',
      message: 'That question is too long for me. Could you ask one thing at a time, in a sentence or two?',
    };
  }
  const refused = refusal(question, lexicon);
  if (refused) return refused;
  const talk = conversation(question, lexicon);
  if (talk) return talk;
  const advice = adviceRequest(question);
  if (advice) return advice;

  let core = withoutTrailingCourtesy(question.replace(leadingCourtesy, ''));
  const ratio = ratioQuestion(core);
  if (ratio) {
    // Each side read on its own; when both are one value each, their ratio (ratio.ts).
    // A side stopped at words that link to nothing says which, and that it stops the ratio.
    const read = (side: string) => {
      const { interpretation } = readQuestion(lexicon, sideQuestion(side), input.now);
      if (interpretation.kind !== 'clarify' || interpretation.reason !== 'unknown-words')
        return interpretation;
      // (The words as the clarification names them.)
      const words = [...new Set(interpretation.message.match(/“[^”]+”/g) ?? [])];
      return {
        ...interpretation,
        message: `I'm not sure what ${joinAnd(words)} ${words.length === 1 ? 'means' : 'mean'} in ${quoted(side.trim())}, so I cannot work out that side of the ratio. I can answer questions about ${mainTables(lexicon)}.`,
      };
    };
    const left = read(ratio.left);
    const right = read(ratio.right);
    if (left.kind === 'clarify') return { kind: 'clarification', message: left.message };
    if (right.kind === 'clarify') return { kind: 'clarification', message: right.message };
    const proposal = ratioProposal(lexicon, left.intent, right.intent, input.dialect, ratio.percent);
    if (proposal) return proposal;
    return {
      kind: 'clarification',
      message:
        'I can divide one count or total by another, not lists or groups. Could you ask for the two numbers one at a time?',
    };
  }
  const prior = priorIntent(input.history, lexicon);
  const read = (text: string) => readQuestion(lexicon, text, input.now, prior);
  /** The intent a question reads as, when it reads as one the engine can answer. */
  const readIntent = (text: string): Intent | undefined => {
    const reading = read(text).interpretation;
    return reading.kind === 'intent' &&
      !orAcrossColumns(text, reading.intent) &&
      renderSql(lexicon, reading.intent, input.dialect).kind === 'sql'
      ? reading.intent
      : undefined;
  };
  // A duration asked in a unit: the question read without the unit, the unit applied after.
  const unitAsked = durationUnitIn(lexicon, core);
  let durationUnit: DurationUnit | undefined;
  if (unitAsked && hasDuration(read(unitAsked.text).interpretation)) {
    core = unitAsked.text;
    durationUnit = unitAsked.unit;
  }
  const first = read(core);
  let { mentions, interpretation } = first;
  // Words that link to nothing in a question asked back may name values (value-pass.ts).
  if (wanted && !known && interpretation.kind === 'clarify')
    Object.assign(wanted, { question: core, probe: valueProbeOf(lexicon, core, mentions) });
  let notes: Note[] = [];
  const ranked = interpretation.kind === 'clarify' ? rankedAggregate(core, readIntent) : undefined;
  if (ranked) interpretation = checkIntent(lexicon, ranked);
  /**
   * A rewrite of the question asked as the user would ask it after this clarification (options.ts):
   * the SQL it is answered with, if it is answered.
   */
  let budget = MAX_REWRITES;
  const answerAfter = (text: string): string | undefined => {
    // At most MAX_REWRITES per clarification, over all its kinds of options (each is a run).
    if (budget <= 0) return undefined;
    budget -= 1;
    const history = [...input.history, { question, kind: 'clarification' as const, engine: BUILTIN_ENGINE }];
    const proposal = proposeBuiltin({ ...input, question: text, history }, known, undefined, false, false);
    return proposal.kind === 'sql' ? proposal.sql : undefined;
  };
  if (interpretation.kind === 'clarify' && !weigh)
    return { kind: 'clarification', message: interpretation.message };
  if (interpretation.kind === 'clarify' && interpretation.reason === 'unknown-words') {
    // Readings with evidence (readings.ts): the words that link to nothing read every other way.
    const words = mentions.flatMap((mention) => (mention.kind === 'unknown' ? [mention.text] : []));
    if (wanted && !known)
      Object.assign(wanted, { question: core, probe: valueProbeOf(lexicon, core, mentions) });
    const alternatives = alternativesOf(lexicon, core, words, readIntent);
    // A name read as a value no sample holds waits for the lookup, which may find what it is.
    const clear = clearBest(alternatives);
    const best = clear?.guessed && wanted?.probe ? undefined : clear;
    if (best) {
      ({ mentions, interpretation } = read(best.question));
      notes = best.notes;
    } else if (offer || alternatives.length > 0) {
      // The readings with evidence first, then rewrites with the schema's nearest names (options.ts),
      // each asked again as after this clarification.
      let offered = alternatives.slice(0, MAX_OPTIONS).map((alternative) => alternative.question);
      if (offer) {
        // (A reading with evidence was read as it is offered: its SQL is its intent's.)
        const asked = alternatives.slice(0, MAX_OPTIONS).flatMap((alternative) => {
          const rendered = renderSql(lexicon, alternative.intent, input.dialect);
          return rendered.kind === 'sql'
            ? [{ question: alternative.question, sql: rendered.rendered.sql }]
            : [];
        });
        const tried = new Set(alternatives.map((alternative) => alternative.question));
        offered = distinctOptions([...asked, ...optionsFor(lexicon, core, words, answerAfter, tried)]);
      }
      return offered.length > 0
        ? {
            kind: 'clarification',
            message: `${interpretation.message.replace(/ I can answer questions about .*$/, '')} Did you mean one of these?`,
            suggestions: offered,
          }
        : { kind: 'clarification', message: unknownWithoutOptions(lexicon, core, words) };
    }
  }
  if (interpretation.kind === 'clarify') {
    // A phrase that could mean two things: each meaning, named, as a question to pick; then
    // rewrites around the phrases the clarification names (options.ts).
    const readings = candidateReadings(lexicon, core, interpretation, readIntent).slice(0, MAX_OPTIONS);
    const offered = readings.map((reading) => reading.question);
    if (offer && offered.length < MAX_OPTIONS) {
      // Which date a period dates; the message's own examples applied to the question.
      const periods = mentions.flatMap((mention) =>
        mention.kind === 'period' ? [mention.period.label] : [],
      );
      const answers = new Set<string>();
      for (const rewritten of [
        ...dateRewrites(lexicon, core, interpretation.candidates, periods),
        ...exampleRewrites(core, interpretation.message),
      ].slice(0, MAX_REWRITES)) {
        const sql = offered.length < MAX_OPTIONS ? answerAfter(rewritten) : undefined;
        if (sql !== undefined && !answers.has(sql) && !offered.includes(rewritten)) {
          answers.add(sql);
          offered.push(rewritten);
        }
      }
      // Rewrites around the phrases the message names, or else the words skipped as verbs.
      const named = quotedIn(core, interpretation.message);
      const skipped = mentions.flatMap((mention) => (mention.kind === 'verb' ? [mention.text] : []));
      const words = named.length > 0 ? named : skipped;
      // (An ambiguity read each way is answered by its readings: nothing else is offered beside them.)
      if (words.length > 0 && readings.length === 0 && offered.length < MAX_OPTIONS)
        offered.push(
          ...optionsFor(lexicon, core, words, answerAfter, new Set(offered), MAX_OPTIONS - offered.length)
            .filter((option) => !answers.has(option.sql))
            .map((option) => option.question),
        );
    }
    return {
      kind: 'clarification',
      message: interpretation.message,
      ...(interpretation.candidates ? { candidates: interpretation.candidates } : {}),
      ...(offered.length > 0 ? { suggestions: offered } : {}),
    };
  }
  const intent = inUnit(interpretation.intent, durationUnit);
  // "which customers have been billed more than $10,000 in total": rows of a relation asked for,
  // one number over all of them read; not an answer to the question.
  const asked = /^\W*(?:which|who)\b/i.test(core)
    ? mentions.find((mention) => mention.kind === 'schema')
    : undefined;
  const askedRows =
    asked?.kind === 'schema' &&
    asked.entries.some((entry) => entry.kind === 'relation' && entry.rank === 3) &&
    intent.metric !== undefined &&
    intent.group === undefined;
  if (askedRows) {
    return {
      kind: 'clarification',
      message: `I read one number over all the ${asked.text} rather than which ${asked.text}. Could you ask for it per ${singular(asked.text)}, for example “total per ${singular(asked.text)}”, or for the total alone?`,
    };
  }
  const spanNamed = mentions.some(
    (mention) =>
      mention.kind === 'schema' &&
      mention.entries.some(
        (entry) => entry.kind === 'measure' && lexicon.metrics.get(entry.name)?.kind === 'duration',
      ),
  );
  if (spanNamed && !hasDuration(interpretation)) {
    // "average maintenance request duration" where only leases have a span: not another measure.
    return {
      kind: 'clarification',
      message: `I know how long ${joinAnd(spanRelations(lexicon), 'and')} take, not what else the question names. Could you ask about those?`,
    };
  }
  if (vagueSpan(lexicon, core, interpretation.intent)) {
    const relation = relationOf(lexicon, interpretation.intent.subject);
    return {
      kind: 'clarification',
      message: `“How long” reads as the time ${relation.other} take. Could you name them and say how to sum it up, for example “the average ${relation.one} duration” or “the longest ${relation.one}”?`,
    };
  }
  // "list their properties", "how many hectares is that altogether" after a question that was
  // asked back: "their", "that" have nothing to refer to, and all the rows would be a confident
  // wrong answer.
  const refersBack =
    mentions.some((mention) => mention.kind === 'anaphora' || mention.kind === 'followup') ||
    /^\W*(?:\w+\s+){0,3}(?:their|its)\b/i.test(core) ||
    /\b(?:is|was)\s+(?:that|this|it)\b/i.test(core);
  // "and public liability?", "split that by silo", "how does that break down by channel": a
  // question that goes on from one before it, when nothing before it was answered.
  const continues =
    /^\W*and\b/i.test(core) ||
    /\b(?:that|this|it)\s+(?:by|per)\b/i.test(core) ||
    /\b(?:does|do|did|can|could|would|is|was|split|break|group|sort)\s+(?:that|this|it)\b/i.test(core);
  const lastTurn = input.history.at(-1);
  if (
    lastTurn !== undefined &&
    ((refersBack && (lastTurn.kind === 'clarification' || !prior)) || (continues && !prior))
  ) {
    return {
      kind: 'clarification',
      message:
        'What are you referring to? I could not answer the question before, so please ask the whole question, for example “How many orders were placed last month?”.',
    };
  }
  if (orAcrossColumns(core, intent)) {
    return {
      kind: 'clarification',
      message:
        'I can combine conditions on one column with “or” (“in Spain or France”), not conditions on different columns. Could you ask for each condition separately?',
    };
  }
  const rendered = renderSql(lexicon, intent, input.dialect);
  if (rendered.kind === 'problem') {
    return {
      kind: 'clarification',
      message:
        'I understood the question but could not build a safe query for it. Could you ask it in a simpler way?',
    };
  }
  return {
    kind: 'sql',
    sql: rendered.rendered.sql,
    description: describeIntent(lexicon, intent),
    interpretation: interpretationOf(lexicon, intent, mentions, [...(known?.notes ?? []), ...notes]),
    state: stateOf(intent),
    shape: shapeOf(lexicon, intent, rendered.rendered),
  };
};

export const builtinEngine: Engine = {
  name: BUILTIN_ENGINE,
  propose: async (input) => {
    // Glossary metrics and filters are read with PostgreSQL's parser, loaded on first need.
    const { metrics = {}, filters = {} } = input.glossary ?? {};
    if (Object.keys(metrics).length + Object.keys(filters).length > 0) await prepareGlossarySql();
    return proposeWithValues(input, proposeBuiltin);
  },
};
