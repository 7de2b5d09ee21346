// Options offered with a clarification (lib/answer/builtin/options.ts): a question the engine asks
// back on carries, in `suggestions`, up to three complete questions it answers, each of which
// gives exactly its reading when asked after the clarification (the round trip). Every mechanism
// is checked on two schemas of different domains, none on one question alone.
import { describe, expect, it } from 'vitest';
import { lexiconFor } from '#lib/answer/builtin/lexicon.ts';
import { dateRewrites, distinctOptions, exampleRewrites, rewritesOf } from '#lib/answer/builtin/options.ts';
import type { EngineInput, Proposal } from '#lib/answer/engine.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { lettingsCatalog as lettings, libraryCatalog as library } from '../fixtures/catalogs/unseen.ts';

/** A haulage company: identifiers abbreviated as such schemas often are. */
const haulage = catalogOf([
  {
    name: 'depots',
    columns: [
      col('id', 'integer', 'integer'),
      col('company_id', 'integer', 'integer'),
      col('name', 'text', 'text'),
      col('cap_pallets', 'integer', 'integer'),
    ],
  },
  {
    name: 'incidents',
    columns: [
      col('id', 'integer', 'integer'),
      col('company_id', 'integer', 'integer'),
      col('depot_id', 'integer', 'integer', { references: 'depots' }),
      col('sev', 'integer', 'integer'),
      col('claim_amt', 'decimal', 'numeric(10,2)', { nullable: true }),
      col('reported_at', 'timestamp', 'timestamp'),
    ],
  },
]);

/** A college: abbreviated identifiers too, and invoices with no date that clearly dates them. */
const college = catalogOf([
  {
    name: 'courses',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('title', 'text', 'text'),
      col('cr_hrs', 'integer', 'integer'),
    ],
  },
  {
    name: 'exams',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('course_id', 'integer', 'integer', { references: 'courses' }),
      col('sat_on', 'date', 'date'),
      col('marked_on', 'date', 'date'),
      col('fee_amt', 'decimal', 'numeric(10,2)'),
    ],
  },
]);

/** A clinic: admissions with two dates, patients with a weight. */
const clinic = catalogOf([
  {
    name: 'patients',
    columns: [
      col('id', 'integer', 'integer'),
      col('clinic_id', 'integer', 'integer'),
      col('full_name', 'text', 'text'),
      col('ward', 'text', 'text', { samples: ['north', 'south'] }),
      col('weight_kg', 'decimal', 'numeric(10,2)'),
    ],
  },
  {
    name: 'admissions',
    columns: [
      col('id', 'integer', 'integer'),
      col('clinic_id', 'integer', 'integer'),
      col('patient_id', 'integer', 'integer', { references: 'patients' }),
      col('referred_on', 'date', 'date'),
      col('seen_on', 'date', 'date'),
    ],
  },
]);

/** A farming co-operative's fields, measured in hectares. */
const farm = catalogOf([
  {
    name: 'fields',
    columns: [
      col('id', 'integer', 'integer'),
      col('coop_id', 'integer', 'integer'),
      col('field_name', 'text', 'text'),
      col('soil_type', 'text', 'text', { samples: ['clay', 'loam'] }),
      col('hectares', 'decimal', 'numeric(10,2)'),
      col('drainage_index', 'decimal', 'numeric(10,2)'),
    ],
  },
]);

const schemas = { haulage, college, clinic, farm, lettings, library } satisfies Record<string, Catalog>;
const tenants: Record<keyof typeof schemas, string> = {
  farm: 'coop_id',
  haulage: 'company_id',
  college: 'institution_id',
  clinic: 'clinic_id',
  lettings: 'agency_id',
  library: 'library_id',
};
type Schema = keyof typeof schemas;
const askOf = (schema: Schema) => askOn(schemas[schema], tenants[schema]);

const suggestionsOf = (proposal: Proposal): string[] =>
  proposal.kind === 'clarification' ? (proposal.suggestions ?? []) : [];

/**
 * The round trip: each option, asked after the clarification (the conversation's next turn),
 * is answered; no two options give the same answer.
 */
const roundTrip = (schema: Schema, question: string, proposal: Proposal): string[] => {
  expect(proposal.kind, question).toBe('clarification');
  const options = suggestionsOf(proposal);
  const history: EngineInput['history'] = [{ question, kind: 'clarification', engine: 'builtin' }];
  const answers = options.map((option) => sqlOf(askOf(schema)(option, { history })));
  expect(new Set(answers).size).toBe(answers.length);
  return answers;
};

describe('a word that links to nothing: rewrites with the nearest schema names, kept when answered', () => {
  it.each([
    ['haulage', 'list incidents with severity over 2', 'list incidents with sev over 2', 'i.sev > 2'],
    ['college', 'courses with more than 3 credit hours', 'courses with more than 3 cr hrs', 'c.cr_hrs > 3'],
  ] as const)('an identifier that abbreviates the word (%s): %s', (schema, question, option, filter) => {
    const proposal = askOf(schema)(question);
    expect(suggestionsOf(proposal)).toContain(option);
    const answers = roundTrip(schema, question, proposal);
    expect(answers[suggestionsOf(proposal).indexOf(option)]).toContain(filter);
  });

  it.each([
    ['haulage', 'total claim in 2025', 'SUM(i.claim_amt)', '“claim” as claim amt'],
    ['college', 'average exam fee', 'AVG(e.fee_amt)', '“fee” as fee amt'],
  ] as const)(
    'a word of one column’s name before its last reads as that column, said in the interpretation (%s): %s',
    (schema, question, measure, reading) => {
      const proposal = askOf(schema)(question);
      expect(sqlOf(proposal)).toContain(measure);
      expect(proposal.kind === 'sql' && proposal.interpretation).toContain(reading);
    },
  );

  it.each([
    ['lettings', 'list the furnished homes', 'FROM properties'],
    ['library', 'how many borrowings in 2025', 'FROM loans'],
  ] as const)('a relation near in meaning (%s): %s', (schema, question, from) => {
    const proposal = askOf(schema)(question);
    expect(roundTrip(schema, question, proposal).some((sql) => sql.includes(from))).toBe(true);
  });

  it('rewrites a word by its evidence, cheapest first, a name never', () => {
    const rewrites = rewritesOf(lexiconFor(haulage, 'company_id'), 'list incidents with severity over 2', [
      'severity',
    ]);
    expect(rewrites[0]?.question).toBe('list incidents with sev over 2');
    expect(rewrites.map((rewrite) => rewrite.cost)).toEqual(
      [...rewrites.map((rewrite) => rewrite.cost)].sort((left, right) => left - right),
    );
    expect(
      rewritesOf(lexiconFor(lettings, 'agency_id'), 'properties of Gerald Whitcombe', ['gerald']),
    ).toEqual([]);
  });
});

describe('an ambiguity: one option per reading, phrased so that the engine reads exactly it', () => {
  it.each([
    ['clinic', 'how many admissions in 2024', ['a.referred_on >= ', 'a.seen_on >= ']],
    ['college', 'how many exams in 2025', ['e.sat_on >= ', 'e.marked_on >= ']],
  ] as const)('which date a period dates (%s): %s', (schema, question, dates) => {
    const proposal = askOf(schema)(question);
    const answers = roundTrip(schema, question, proposal);
    expect(answers).toHaveLength(2);
    for (const [index, date] of dates.entries()) expect(answers[index]).toContain(date);
  });

  it.each([
    ['lettings', 'rent by city', ['SUM(p.monthly_rent)', 'SUM(l.monthly_rent)']],
    ['library', 'fee by town', ['b.town', 'm.town']],
  ] as const)(
    'a word for several columns (%s): %s, and nothing beside the readings',
    (schema, question, parts) => {
      const proposal = askOf(schema)(question);
      const answers = roundTrip(schema, question, proposal);
      expect(answers).toHaveLength(parts.length);
      for (const part of parts) expect(answers.some((sql) => sql.includes(part))).toBe(true);
    },
  );

  it('names each date before the period, only when every candidate is a date', () => {
    const lexicon = lexiconFor(clinic, 'clinic_id');
    const both = [
      { table: 'admissions', column: 'referred_on' },
      { table: 'admissions', column: 'seen_on' },
    ];
    expect(dateRewrites(lexicon, 'admissions in 2024', both, ['in 2024'])).toEqual([
      'admissions referred on in 2024',
      'admissions seen on in 2024',
    ]);
    expect(
      dateRewrites(lexicon, 'admissions in 2024', [...both, { table: 'patients', column: 'ward' }], []),
    ).toEqual([]);
  });
});

describe('the clarification’s own examples, applied to the question', () => {
  it.each([
    // (Hectares, a unit, are added up without asking; an index is not.)
    ['farm', 'drainage index by soil type', 'SUM(f.drainage_index)', 'AVG(f.drainage_index)'],
    ['library', 'pages by genre', 'SUM(b.pages)', 'AVG(b.pages)'],
  ] as const)('%s: %s', (schema, question, total, average) => {
    const proposal = askOf(schema)(question);
    expect(suggestionsOf(proposal)).toEqual([`total ${question}`, `average ${question}`]);
    const answers = roundTrip(schema, question, proposal);
    expect(answers[0]).toContain(total);
    expect(answers[1]).toContain(average);
  });

  it('never brings a number the question does not say', () => {
    expect(
      exampleRewrites(
        'invoice totals by status',
        'I’m not sure what to do with “status” here: for example “status over 10” or “per status”.',
      ),
    ).toEqual(['invoice totals by per status']);
    expect(
      exampleRewrites(
        'hectares by soil',
        'Should I add up or average hectares? Say “total hectares” or “average hectares”.',
      ),
    ).toEqual(['total hectares by soil', 'average hectares by soil']);
  });
});

describe('with no option, the clarification says why', () => {
  it.each([
    ['lettings', 'list the properties of Gerald Whitcombe', /“Gerald Whitcombe” looks like a name/],
    ['library', 'books written by Harriet Oakes', /“Harriet Oakes” looks like a name/],
    ['haulage', 'how many quirky zany wobbly fluffy incidents of the grumpy sort', /Too many of its words/],
    ['clinic', 'how many happy cheerful jolly merry sunny patients', /Too many of its words/],
  ] as const)('%s: %s', (schema, question, why) => {
    const proposal = askOf(schema)(question);
    expect(proposal.kind).toBe('clarification');
    expect(suggestionsOf(proposal)).toEqual([]);
    expect(proposal.kind === 'clarification' ? proposal.message : '').toMatch(why);
    expect(proposal.kind === 'clarification' ? proposal.message : '').not.toMatch(/rephrase/);
  });
});

describe('a side of a ratio stopped at a word it does not know', () => {
  it.each([
    ['library', 'the ratio of open loans to glimmered loans', '“glimmered”', '“glimmered loans”'],
    ['haulage', 'the ratio of incidents to zorbly depots', '“zorbly”', '“zorbly depots”'],
  ] as const)('names the word and the side (%s): %s', (schema, question, word, side) => {
    const proposal = askOf(schema)(question);
    expect(proposal.kind).toBe('clarification');
    const message = proposal.kind === 'clarification' ? proposal.message : '';
    expect(message).toContain(`${word} means in ${side}`);
    expect(message).not.toMatch(/rephrase/);
  });
});

describe('options answered alike', () => {
  it('keeps one per answer, the first, or a later one that says it with words left out', () => {
    expect(
      distinctOptions([
        { question: 'total claim amt amount in 2025', sql: 'a' },
        { question: 'how many maintenance requests in 2025', sql: 'b' },
        { question: 'total claim amt in 2025', sql: 'a' },
        { question: 'how many cost in 2025', sql: 'b' },
        { question: 'c', sql: 'c' },
        { question: 'd', sql: 'd' },
      ]),
    ).toEqual(['total claim amt in 2025', 'how many maintenance requests in 2025', 'c']);
  });
});
