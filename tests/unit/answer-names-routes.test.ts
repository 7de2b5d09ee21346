// Names spelled out, verbs that say a state, and joins a question's words route
// (docs/design.md "Answering on unseen databases"): a looked-up name takes in the words the
// question goes on to spell of it (values.ts `phraseValues`); a name joined by "or" to a value is
// looked up too (`nameRuns`); an inflected verb reads as the state value a column holds in another
// form (link.ts, "voided" → 'void'); of two ways to join, the one a word of the question names
// (check.ts `routedByWords`), else the one that only follows keys up (joins.ts). Each mechanism on
// two schemas of different domains.
import { describe, expect, it } from 'vitest';
import { nameRuns, phraseValues } from '#lib/answer/builtin/values.ts';
import type { FoundValue } from '#lib/answer/engine.ts';
import { askFinding, askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';

/** A recruitment agency: candidates apply to vacancies and are placed in them; clients are invoiced. */
const staffing = catalogOf([
  {
    name: 'clients',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('client_nm', 'text', 'text'),
      col('industry', 'text', 'text', { samples: ['Logistics', 'Finance', 'Retail'] }),
      col('city', 'text', 'text', { samples: ['Manchester', 'Leeds'] }),
    ],
  },
  {
    name: 'candidates',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('first_nm', 'text', 'text'),
      col('last_nm', 'text', 'text'),
      col('city', 'text', 'text', { samples: ['Manchester', 'Leeds'] }),
    ],
  },
  {
    name: 'vacancies',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('client_id', 'integer', 'integer', { references: 'clients' }),
      col('job_title', 'text', 'text'),
    ],
  },
  {
    name: 'applications',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('candidate_id', 'integer', 'integer', { references: 'candidates' }),
      col('vacancy_id', 'integer', 'integer', { references: 'vacancies' }),
    ],
  },
  {
    name: 'placements',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('candidate_id', 'integer', 'integer', { references: 'candidates' }),
      col('vacancy_id', 'integer', 'integer', { references: 'vacancies' }),
      col('fee_amt', 'decimal', 'numeric(12,2)'),
    ],
  },
  {
    name: 'client_invoices',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('client_id', 'integer', 'integer', { references: 'clients' }),
      col('placement_id', 'integer', 'integer', { references: 'placements' }),
      col('net_amt', 'decimal', 'numeric(12,2)'),
      col('status', 'text', 'text', { samples: ['paid', 'void', 'overdue'] }),
    ],
  },
]);

/** A college: students apply for courses and enrol on them; courses belong to departments. */
const college = catalogOf([
  {
    name: 'departments',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('dept_name', 'text', 'text', { samples: ['Sciences', 'Humanities'] }),
    ],
  },
  {
    name: 'courses',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('department_id', 'integer', 'integer', { references: 'departments' }),
      col('title', 'text', 'text', { samples: ['Chemistry', 'History'] }),
    ],
  },
  {
    name: 'students',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('full_name', 'text', 'text'),
    ],
  },
  {
    name: 'course_applications',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('student_id', 'integer', 'integer', { references: 'students' }),
      col('course_id', 'integer', 'integer', { references: 'courses' }),
    ],
  },
  {
    name: 'enrolments',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('student_id', 'integer', 'integer', { references: 'students' }),
      col('course_id', 'integer', 'integer', { references: 'courses' }),
      col('status', 'text', 'text', { samples: ['cancelled', 'active', 'completed'] }),
    ],
  },
  {
    name: 'fee_payments',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('enrolment_id', 'integer', 'integer', { references: 'enrolments' }),
      col('department_id', 'integer', 'integer', { references: 'departments' }),
      col('amount', 'decimal', 'numeric(10,2)'),
    ],
  },
  {
    name: 'equipment',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('equip_type', 'text', 'text', { samples: ['drill', 'microscope'] }),
      col('acquired_dt', 'date', 'date'),
    ],
  },
]);

const askStaffing = askOn(staffing, 'firm_id');
const askCollege = askOn(college, 'institution_id');

const found = (relation: string, column: string, value: string, phrase: string): FoundValue => ({
  schema: 'public',
  relation,
  column,
  value,
  phrase,
  exact: false,
});

describe('a looked-up name takes in the words the question goes on to spell of it', () => {
  it.each([
    [
      'which candidates have we placed at northwind logistics',
      'northwind',
      [
        found('clients', 'client_nm', 'Northwind Construction', 'northwind'),
        found('clients', 'client_nm', 'Northwind Logistics', 'northwind'),
      ],
      'northwind logistics',
      'Northwind Logistics',
    ],
    [
      'how many loans at kestrel reading room',
      'kestrel',
      [
        found('rooms', 'name', 'Kestrel Study Room', 'kestrel'),
        found('rooms', 'name', 'Kestrel Reading Room', 'kestrel'),
      ],
      'kestrel reading room',
      'Kestrel Reading Room',
    ],
  ] as const)('%s', (question, unknown, values, phrase, value) => {
    const runs = nameRuns(question, new Set([unknown]));
    const [read] = phraseValues(question, runs, values);
    expect(read?.phrase).toBe(phrase);
    expect(read?.values.map((found) => found.value)).toEqual([value]);
  });

  it('stays with the shorter phrase when the question spells none of the values, and then finds none', () => {
    const question = 'which candidates have we placed at northwind';
    const values = [
      found('clients', 'client_nm', 'Northwind Construction', 'northwind'),
      found('clients', 'client_nm', 'Northwind Logistics', 'northwind'),
    ];
    expect(phraseValues(question, nameRuns(question, new Set(['northwind'])), values)).toEqual([]);
  });

  it('answers with the spelled value through the lookup', async () => {
    const { ask } = askFinding(staffing, 'firm_id', [
      { schema: 'public', relation: 'clients', column: 'client_nm', value: 'Northwind Construction' },
      { schema: 'public', relation: 'clients', column: 'client_nm', value: 'Northwind Logistics' },
    ]);
    const sql = sqlOf(await ask('how many placements have we made at northwind logistics'));
    expect(sql).toContain("client_nm = 'Northwind Logistics'");
    expect(sql).not.toContain("'Logistics'");
  });
});

describe('a name joined by "or" to a value or a name is looked up', () => {
  it.each([
    ['clients in manchester or liverpool', 'liverpool', (word: string) => word === 'manchester'],
    ['members from bath, or wells', 'wells', (word: string) => word === 'bath'],
  ])('%s', (question, name, namesValue) => {
    const runs = nameRuns(question, new Set([name]), new Set(), () => false, namesValue);
    expect(runs.flatMap((run) => run.phrases)).toContain(name);
  });

  it('not when what comes before "or" is no value', () => {
    const runs = nameRuns(
      'clients in debt or liverpool',
      new Set(['liverpool']),
      new Set(),
      () => false,
      () => false,
    );
    expect(runs).toEqual([]);
  });
});

describe('an inflected verb reads as the state value a column holds in another form', () => {
  it.each([
    [askStaffing, 'list the invoices we voided', "status = 'void'"],
    [askCollege, 'how many enrolments were canceled', "status = 'cancelled'"],
  ])('%#', (ask, question, filter) => {
    expect(sqlOf(ask(question))).toContain(filter);
  });

  const kitchen = askOn(
    catalogOf([
      {
        name: 'deliveries',
        columns: [
          col('id', 'integer', 'integer'),
          col('group_id', 'integer', 'integer'),
          col('status', 'text', 'text', { samples: ['received', 'rejected', 'short'] }),
        ],
      },
    ]),
    'group_id',
  );
  it.each([
    // Through a WordNet synonym of the verb, and as a phrasal verb.
    [kitchen, 'how many deliveries were refused', "status = 'rejected'"],
    [kitchen, 'how many deliveries got turned away', "status = 'rejected'"],
    [askCollege, 'how many enrolments were called off', "status = 'cancelled'"],
    [askCollege, 'how many enrolments were finished', "status = 'completed'"],
  ])('through a synonym or a phrasal verb: %#', (ask, question, filter) => {
    expect(sqlOf(ask(question))).toContain(filter);
  });

  it.each([
    // A bare verb asks about the action, not a state ("pay", "cancel" of a prediction).
    [askStaffing, 'how much do we pay per client', "'paid'"],
    // A value that names a thing ('drill') is not what "drilled" says happened.
    [askCollege, 'what got drilled in october 2025', "'drill'"],
  ])('not for a bare verb or a thing: %#', (ask, question, value) => {
    const proposal = ask(question);
    if (proposal.kind === 'sql') expect(proposal.sql).not.toContain(value);
  });
});

describe('of two ways to join, the one the question names, else the one that follows keys up', () => {
  it.each([
    [askStaffing, 'how many candidates have we placed in the finance industry', 'JOIN placements'],
    [askCollege, 'how many students enrolled on chemistry', 'JOIN enrolments'],
  ])('%#', (ask, question, join) => {
    expect(sqlOf(ask(question))).toContain(join);
  });

  it('still asks when no word names either way', () => {
    const proposal = askStaffing('how many candidates in the finance industry');
    expect(proposal.kind).toBe('clarification');
    expect(proposal.kind === 'clarification' && proposal.message).toMatch(/more than one way/);
  });

  it.each([
    // placements → vacancies → clients, not placements ← client invoices → clients
    [askStaffing, 'total fee amt of placements per client', 'JOIN vacancies'],
    // fee payments → departments directly is one step; enrolments → courses → departments, not
    // enrolments ← fee payments → departments
    [askCollege, 'how many enrolments per department', 'JOIN courses'],
  ])('keys up: %#', (ask, question, join) => {
    expect(sqlOf(ask(question))).toContain(join);
  });
});
