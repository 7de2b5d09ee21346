// Step 3 of the builtin pipeline: tokens become mentions, left to right. At each position the
// scanner tries, in order: a schema phrase of two words or more, a period, a comparison, a
// top-N or superlative, an aggregate word, a grouping or sorting word, the small words of
// follow-ups, a one-word schema phrase; then skips function words and fillers. Whatever is left
// is reported as not understood, so that the engine never answers a question it half read.

import { compoundLink, joinedLink, linkWord, misspelledFiller, phrasalLink, roleOf } from './link.ts';
import {
  abbreviatedColumnAt,
  comparisonAt,
  firstPhraseAt,
  groupAt,
  longestSchemaAt,
  rankingAt,
} from './markers.ts';
import { periodAt } from './periods.ts';
import {
  aggregateOf,
  aggregatePhrases,
  directionOf,
  directionPhrases,
  directionWords,
  followupPhrases,
  GROUPING_REQUESTS,
  listPhrases,
  negationPhrases,
  RATE_UNITS,
  timeAdverbs,
  unitWords,
  VERB_PARTICLES,
} from './phrases.ts';
import { lightVerbAt } from './roles.ts';
import type { Entry, Lexicon, Mention, MentionOf, Token } from './types.ts';
import { lexicalDatabase } from './wordnet.ts';
import { anaphora, fillers, phraseKey, stopwords } from './words.ts';

// ---- the scanner -------------------------------------------------------------------------------

/** A quoted literal: the sample values it equals, whatever their column. */
const quotedEntries = (lexicon: Lexicon, text: string): Entry[] => {
  const folded = text.toLowerCase();
  const entries: Entry[] = [];
  for (const relation of lexicon.relations.values()) {
    for (const column of relation.columns) {
      for (const value of column.samples) {
        if (value.toLowerCase() === folded)
          entries.push({ kind: 'value', table: relation.key, column: column.name, value });
      }
    }
  }
  return entries;
};

const isNumericColumnMention = (lexicon: Lexicon, mention: Mention | undefined): boolean =>
  mention?.kind === 'schema' &&
  mention.entries.some(
    (entry) =>
      entry.kind === 'column' &&
      (lexicon.relations.get(entry.table)?.byName.get(entry.column)?.numeric ?? false),
  );

/**
 * "unpaid", "inactive", "nonrefundable": a yes/no column's word behind un-, in- or non-, read as
 * that column negated. Only boolean columns: "unknown" or "invalid" stay unknown otherwise.
 */
export const negatedFlag = (
  lexicon: Lexicon,
  word: string,
): { text: string; entries: Entry[] } | undefined => {
  const match = /^(?:un|in|non-?)([a-z]{3,})$/.exec(word);
  if (!match) return undefined;
  const text = match[1]!;
  const entries = (lexicon.phrases.get(phraseKey([text])) ?? []).filter(
    (entry) =>
      entry.kind === 'column' &&
      lexicon.relations.get(entry.table)?.byName.get(entry.column)?.kind === 'boolean',
  );
  if (entries.length > 0) return { text, entries };
  // "unassigned tickets": a key that may be empty, named like the participle (assignee_id).
  const stem = /^([a-z]{4,}?)(?:ed)$/.exec(text)?.[1];
  const keys = stem
    ? [...lexicon.relations.values()].flatMap((relation) =>
        relation.columns
          .filter((column) => column.key && column.nullable && (column.words[0] ?? '').startsWith(stem))
          .map((column): Entry => ({ kind: 'column', table: relation.key, column: column.name, rank: 2 })),
      )
    : [];
  return keys.length > 0 ? { text, entries: keys } : undefined;
};

/**
 * "never ordered", "never booked": after a negation, a verb whose base form names a relation
 * ("order" → orders) stands for that relation's rows.
 */
const verbRelation = (lexicon: Lexicon, word: string): Entry[] | undefined => {
  if (!/(ed|ing)$/.test(word)) return undefined;
  const lemmas = new Set(
    (lexicalDatabase()?.readings(word) ?? [])
      .filter((reading) => reading.wordClass === 'v')
      .map((reading) => reading.lemma),
  );
  for (const lemma of lemmas) {
    const entries = (lexicon.phrases.get(phraseKey([lemma])) ?? []).filter(
      (entry) => entry.kind === 'relation',
    );
    if (entries.length > 0) return entries;
  }
  return undefined;
};

/**
 * The tokens without a request for a grouping ("break that down by month", "split revenue up by
 * store", "a breakdown of tickets by channel") when a grouping marker follows: the marker says it.
 */
const withoutGroupingRequests = (tokens: readonly Token[]): readonly Token[] => {
  const words = tokens.map((token) => (token.kind === 'word' ? token.text : ''));
  const drop = new Set<number>();
  words.forEach((word, index) => {
    const particles = GROUPING_REQUESTS[word];
    if (!particles || !words.slice(index + 1).some((later) => later === 'by' || later === 'per')) return;
    drop.add(index);
    if (word === 'breakdown' && words[index + 1] === 'of') drop.add(index + 1);
    const particle = words.slice(index + 1, index + 4).findIndex((later) => particles.includes(later));
    if (particle >= 0) drop.add(index + 1 + particle);
  });
  return drop.size === 0 ? tokens : tokens.filter((_, index) => !drop.has(index));
};

/**
 * The tokens without the rate after an amount of money ("studios under $900 a month", "£20 an
 * hour"): the amount is compared with the column as it is; the rate says how it is quoted.
 */
const withoutRates = (tokens: readonly Token[]): readonly Token[] =>
  tokens.filter((token, index) => {
    const at = (offset: number) => tokens[index + offset];
    const word = (candidate: Token | undefined) => (candidate?.kind === 'word' ? candidate.text : undefined);
    const moneyBefore = (offset: number) => {
      const before = at(offset);
      return before?.kind === 'number' && before.money;
    };
    if (/^an?$/.test(word(token) ?? '')) return !(moneyBefore(-1) && RATE_UNITS.has(word(at(1)) ?? ''));
    if (RATE_UNITS.has(word(token) ?? '')) return !(moneyBefore(-2) && /^an?$/.test(word(at(-1)) ?? ''));
    return true;
  });

export const scan = (lexicon: Lexicon, given: readonly Token[], now: Date): Mention[] => {
  const tokens = withoutRates(withoutGroupingRequests(given));
  const mentions: Mention[] = [];
  let index = 0;
  const push = (mention: Mention): void => {
    mentions.push(mention);
    index = mention.end;
  };
  while (index < tokens.length) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    if (token.kind === 'break') {
      index += 1;
      continue;
    }
    if (token.kind === 'quoted') {
      push({
        kind: 'quoted',
        text: token.text,
        entries: quotedEntries(lexicon, token.text),
        at: index,
        end: index + 1,
      });
      continue;
    }
    const multiword =
      longestSchemaAt(lexicon, tokens, index, 2) ?? abbreviatedColumnAt(lexicon, tokens, index);
    if (multiword) {
      push(multiword);
      continue;
    }
    // "salary between 2000 and 3000" is a comparison, not a period of years.
    const previous = mentions[mentions.length - 1];
    const numericBefore = isNumericColumnMention(lexicon, previous) || previous?.kind === 'cost';
    const comparison = comparisonAt(tokens, index);
    if (numericBefore && comparison) {
      push(comparison);
      continue;
    }
    const period = periodAt(tokens, index, now);
    // "for spring 2025" where a column holds 'Spring 2025' (a term): the value, not the season.
    const named = period ? longestSchemaAt(lexicon, tokens, index + 1, 2) : undefined;
    if (period && named?.end === period.end && named.entries.some((entry) => entry.kind === 'value')) {
      index += 1;
      continue;
    }
    if (period) {
      push({ kind: 'period', period: period.period, at: index, end: period.end });
      continue;
    }
    if (comparison) {
      push(comparison);
      continue;
    }
    const ranking = rankingAt(tokens, index);
    if (ranking) {
      push(ranking);
      continue;
    }
    const aggregate = firstPhraseAt(tokens, index, aggregatePhrases);
    if (aggregate) {
      push({
        kind: 'aggregate',
        fn: aggregateOf.get(aggregate.phrase)!,
        word: aggregate.phrase,
        at: index,
        end: aggregate.end,
      });
      continue;
    }
    const grouping = groupAt(lexicon, tokens, index);
    if (grouping) {
      push(grouping);
      continue;
    }
    const followup = firstPhraseAt(tokens, index, followupPhrases);
    if (followup && (index === 0 || followup.phrase === 'what about' || followup.phrase === 'how about')) {
      push({ kind: 'followup', at: index, end: followup.end });
      continue;
    }
    const single = longestSchemaAt(lexicon, tokens, index, 1);
    if (single) {
      push(single);
      continue;
    }
    const negation = firstPhraseAt(tokens, index, negationPhrases);
    if (negation) {
      push({ kind: 'negation', at: index, end: negation.end });
      continue;
    }
    const list = firstPhraseAt(tokens, index, listPhrases);
    if (list) {
      push({ kind: 'list', at: index, end: list.end });
      continue;
    }
    if (token.kind === 'number') {
      push({ kind: 'number', value: token.value, money: token.money, at: index, end: index + 1 });
      continue;
    }
    if (token.kind === 'date') {
      push({ kind: 'unknown', text: token.iso, at: index, end: index + 1 });
      continue;
    }
    // "in descending order", "from highest to lowest": how to sort, in words.
    const direction = firstPhraseAt(tokens, index, directionPhrases);
    if (direction) {
      push({ kind: 'direction', dir: directionOf.get(direction.phrase)!, at: index, end: direction.end });
      continue;
    }
    if (token.kind === 'symbol') {
      // "#42" reads as a number, brackets and slashes ("he/she") as punctuation; other symbols are
      // not English.
      if (!/^[#()/]$/.test(token.text))
        push({ kind: 'unknown', text: token.text, at: index, end: index + 1 });
      else index += 1;
      continue;
    }
    const word = token.text;
    const negatedVerb =
      mentions[mentions.length - 1]?.kind === 'negation' ? verbRelation(lexicon, word) : undefined;
    if (negatedVerb) {
      push({ kind: 'schema', text: word, entries: negatedVerb, at: index, end: index + 1 });
    } else if (unitWords.has(word) && tokens[index - 1]?.kind === 'number') {
      // "more than 38 kg": the unit of the number before it names the columns measured in it
      // (weight_kg), or nothing.
      const measured = [...lexicon.relations.values()].flatMap((relation) =>
        relation.columns
          .filter((column) => column.numeric && column.words[column.words.length - 1] === word)
          .map((column): Entry => ({ kind: 'column', table: relation.key, column: column.name, rank: 2 })),
      );
      if (measured.length > 0)
        push({ kind: 'schema', text: word, entries: measured, at: index, end: index + 1 });
      else index += 1;
    } else if (directionWords[word]) {
      push({ kind: 'direction', dir: directionWords[word], at: index, end: index + 1 });
    } else if (anaphora.has(word)) {
      push({ kind: 'anaphora', word, at: index, end: index + 1 });
    } else if (
      /^(named|called|titled)$/.test(word) &&
      // ("called off", "called in": a phrasal verb, not a name after it.)
      !(next?.kind === 'word' && VERB_PARTICLES.has(next.text))
    ) {
      push({ kind: 'named', at: index, end: index + 1 });
    } else if (/^(cost|costs|costing|priced|pricing)$/.test(word)) {
      push({ kind: 'cost', at: index, end: index + 1 });
    } else if (
      stopwords.has(word) ||
      (fillers.has(word) &&
        !(
          mentions[mentions.length - 1]?.kind === 'aggregate' &&
          (mentions[mentions.length - 1] as MentionOf<'aggregate'>).fn !== 'count'
        ))
    ) {
      index += 1;
    } else {
      const flag = negatedFlag(lexicon, word);
      const joined =
        next?.kind === 'word'
          ? (joinedLink(lexicon, word, next.text) ?? phrasalLink(lexicon, word, next.text.toLowerCase()))
          : undefined;
      // A capitalized word inside a sentence is a name: it is never read as a synonym of another.
      const link = joined ?? (token.cased === undefined || index === 0 ? linkWord(lexicon, word) : undefined);
      if (flag) {
        // "unpaid fines", "inactive members": not, and the yes/no column.
        mentions.push({ kind: 'negation', at: index, end: index });
        push({ kind: 'schema', text: flag.text, entries: flag.entries, at: index, end: index + 1 });
      } else if (link) {
        // "machine hires": the linked relation's name and the next word make another name.
        const compound =
          link.span === undefined && next?.kind === 'word'
            ? compoundLink(lexicon, link, next.text)
            : undefined;
        if (compound && next?.kind === 'word') {
          push({
            kind: 'schema',
            text: `${word} ${next.text}`,
            entries: compound,
            link: { ...link, entries: compound },
            at: index,
            end: index + 2,
          });
        } else {
          const end = index + (link.span ?? 1);
          const said = tokens
            .slice(index, end)
            .flatMap((taken) => (taken.kind === 'word' ? [taken.text] : []));
          push({
            kind: 'schema',
            text: link.source === 'joined' ? link.phrase : said.join(' ').toLowerCase(),
            entries: link.entries,
            link,
            at: index,
            end,
          });
        }
      } else if (
        (token.cased === undefined || index === 0) &&
        (roleOf(word) === 'filler' || misspelledFiller(word) || lightVerbAt(lexicon, tokens, index)) &&
        // "total spend of customers": right after a total or an average, a word names the measure
        // (an adverb does not: "how much is still owed").
        !(
          !timeAdverbs.has(word) &&
          mentions[mentions.length - 1]?.kind === 'aggregate' &&
          (mentions[mentions.length - 1] as MentionOf<'aggregate'>).fn !== 'count'
        )
      ) {
        if (lexicalDatabase()?.dominantClass(word) === 'v' || lightVerbAt(lexicon, tokens, index))
          mentions.push({ kind: 'verb', text: word, at: index, end: index + 1 });
        index += 1;
      } else {
        push({
          kind: 'unknown',
          text: word,
          ...(token.cased ? { raw: token.cased } : {}),
          at: index,
          end: index + 1,
        });
      }
    }
  }
  return properNames(lexicon, tokens, mentions);
};

/**
 * "the Central Branch", "the Harbor clinic": capitalized words the index does not know, right
 * before the name of a relation with one label column, name a row of it (`name = 'Central
 * Branch'`; the relation's word is part of the name when it is capitalized too). Such names are
 * never sampled when each tenant has its own.
 */
const properNames = (lexicon: Lexicon, tokens: readonly Token[], mentions: Mention[]): Mention[] => {
  const result: Mention[] = [];
  for (let index = 0; index < mentions.length; index += 1) {
    let end = index;
    const words: string[] = [];
    for (
      let current = mentions[end];
      current?.kind === 'unknown' && current.raw !== undefined;
      current = mentions[end]
    ) {
      words.push(current.raw);
      end += 1;
    }
    const next = mentions[end];
    // "the Riverside Hospital's pets": a possessive names whose rows, not a row by its name.
    const last = mentions[end - 1];
    const possessive =
      last !== undefined &&
      end > index &&
      tokens[last.at]?.kind === 'word' &&
      (tokens[last.at] as Extract<Token, { kind: 'word' }>).possessive === true;
    const tables =
      next?.kind === 'schema' && !possessive
        ? next.entries.flatMap((entry) =>
            entry.kind === 'relation' && entry.rank === 3 ? [entry.table] : [],
          )
        : [];
    const relation = tables.length === 1 ? lexicon.relations.get(tables[0]!) : undefined;
    const label = relation?.labels.length === 1 ? relation.byName.get(relation.labels[0]!) : undefined;
    if (words.length === 0 || !next || !relation || label?.kind !== 'text' || words.length > 5) {
      result.push(mentions[index]!);
      continue;
    }
    // The relation's word may belong to the name or not ("the Lake branch" of 'Lake Branch'):
    // both are looked for, and a capitalized relation word is part of the name.
    const nameWord = next.end - next.at === 1 ? tokens[next.at] : undefined;
    const written = nameWord?.kind === 'word' ? nameWord.text : undefined;
    const ownWord = nameWord?.kind === 'word' ? nameWord.cased : undefined;
    const run = words.join(' ');
    const values = ownWord
      ? [`${run} ${ownWord}`]
      : [
          run,
          ...(written
            ? [`${run} ${written}`, `${run} ${written.charAt(0).toUpperCase()}${written.slice(1)}`]
            : []),
        ];
    result.push({
      kind: 'schema',
      text: run.toLowerCase(),
      entries: [...new Set(values)].map((value) => ({
        kind: 'value',
        table: relation.key,
        column: label.name,
        value,
      })),
      at: mentions[index]!.at,
      end: ownWord ? next.end : mentions[end - 1]!.end,
    });
    if (!ownWord) result.push(next);
    index = end;
  }
  return result;
};
