// The question sets of `npm run eval` (eval/run.ts, through the HTTP API) and of the in-process
// builtin runner (eval/direct.ts): where each set's questions and databases are, and each
// database's row policy, column descriptions and glossary.
//
// - demo, dev, held-out: the demo shop, a library network (written with the builtin engine's
//   rules) and a clinic schema (held out from those rules), as before issue 15.
// - fitness: a chain of fitness studios, written for issue 15 before any tuning and never used
//   for it (eval/fitness/), with column comments in its schema and an operator's glossary.
// - vet: a chain of veterinary practices (eval/vet/), 83 questions typed the way users type them
//   (filler, synonyms, values in words, typos) and 15 to decline, written by another author from
//   the shapes users ask in; used for tuning.
// - helpdesk: a customer-support helpdesk (eval/helpdesk/), a second set of the same kind by another
//   author; used for tuning.
// - lettings: lettings agencies (eval/lettings/), a set of the same kind written by someone who
//   had not seen the engine; its first run was its held-out figure, and it is used for tuning since.
// - freight, university, maintenance: three more sets of that kind (a haulage platform, colleges,
//   factory maintenance), each on a database of a domain unlike the others, written by people who
//   had not seen the engine; their first run was their held-out figure, and they are used for
//   tuning since.
// - claims, ticketing, harvest: three more of that kind (insurance brokerages, event promoters,
//   farm cooperatives), written the same way after those were opened; their first run was their
//   held-out figure, and they are used for tuning since.
// - staffing, energy, charity, brewery: four more of that kind (recruitment agencies, energy
//   retailers, charity fundraising, craft breweries), written the same way after those were
//   opened; their first run was their held-out figure, and they are used for tuning since.
// - lawfirm, carhire, restaurants: three more of that kind (law practices, car-hire operators,
//   restaurant groups), written the same way after those were opened; their first run was their
//   held-out figure, and they are used for tuning since.
// - telecom, museums, sportsclubs: three more of that kind (mobile operators, museums and
//   galleries, amateur sports clubs), written the same way after those were opened; their first
//   run was their held-out figure, and they are used for tuning since.
// - construction, coworking, solar: three more of that kind (building contractors, coworking
//   operators, solar installers), written the same way after those were opened; held out: their
//   first run is their held-out figure.
// - defog-tuning, defog-heldout: the external Defog sql-eval set (../shared/eval/defog, not part
//   of this repository), split once by database name in eval/defog/split.json before any of its
//   questions was read; the held-out part was not opened or run while the engine was tuned. The
//   sets are skipped, and say so, when that folder is absent (CI does not need it).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RowPolicy } from '#lib/core/row-policy.ts';
import { demoPolicy, demoSeedFile } from '../local/demo/seed.ts';
import { root } from '../local/stack.ts';

/** `conversational` (greetings, help) extends the three kinds; `decline`: anything but SQL. */
export type Expect = 'answer' | 'clarify' | 'refuse' | 'conversational' | 'decline';

export interface EvalItem {
  id: string;
  category: string;
  question: string;
  gold_sql: string | null;
  expect: Expect;
  follow_up_of?: string;
  /** Which database of the set the question is asked of (sets with several). */
  database?: string;
}

export interface EvalDatabase {
  key: string;
  label: string;
  seed: string;
  policy: RowPolicy;
  requiresScoping: boolean;
  tenantColumn?: string;
  /** A descriptions file (the Defog `table_metadata` format), as `database add --descriptions`. */
  descriptions?: string;
  /** A glossary file, as `database add --glossary`. */
  glossary?: string;
}

export const SET_NAMES = [
  'demo',
  'dev',
  'held-out',
  'fitness',
  'vet',
  'helpdesk',
  'lettings',
  'freight',
  'university',
  'maintenance',
  'claims',
  'ticketing',
  'harvest',
  'staffing',
  'energy',
  'charity',
  'brewery',
  'lawfirm',
  'carhire',
  'restaurants',
  'telecom',
  'museums',
  'sportsclubs',
  'construction',
  'coworking',
  'solar',
  'defog-tuning',
  'defog-heldout',
] as const;
export type SetName = (typeof SET_NAMES)[number];

export interface EvalSet {
  name: SetName;
  /** Where the questions are, for the report. */
  source: string;
  /** Whether the set was kept out of tuning (reported as held out). */
  heldOut: boolean;
  databases: EvalDatabase[];
  /** Undefined when the set's files are absent (the external set outside this repository). */
  items: () => EvalItem[] | undefined;
  /** Why the set cannot run, when it cannot. */
  missing?: string;
}

export const defogDir = join(root, '..', 'shared', 'eval', 'defog');

const jsonl = (file: string) => (): EvalItem[] =>
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as EvalItem);

interface DefogItem {
  id: string;
  database: string;
  question: string;
  gold_sql: string | null;
  category: string;
  expect: 'answer' | 'decline';
}

const split = JSON.parse(readFileSync(join(root, 'eval/defog/split.json'), 'utf8')) as {
  tuning: string[];
  heldout: string[];
};

/**
 * A held-out set of one multi-tenant database (eval/<name>/schema.sql with its column comments,
 * eval/<name>/glossary.json, eval/<name>.jsonl): every table carries the tenant column but the
 * registry of tenants, which is filtered on its id.
 */
const unseenSet = (
  name: SetName,
  label: string,
  tenantColumn: string,
  registry: string,
  heldOut = true,
): EvalSet => ({
  name,
  source: `eval/${name}.jsonl`,
  heldOut,
  databases: [
    {
      key: name,
      label,
      seed: join(root, `eval/${name}/schema.sql`),
      policy: { tenant_column: tenantColumn, tables: { [registry]: { tenant_column: 'id' } } },
      requiresScoping: true,
      tenantColumn,
      glossary: join(root, `eval/${name}/glossary.json`),
    },
  ],
  items: jsonl(`eval/${name}.jsonl`),
});

const defogSet = (name: SetName, databases: string[], heldOut: boolean): EvalSet => {
  const present = existsSync(join(defogDir, 'questions.json'));
  return {
    name,
    source: `../shared/eval/defog (${databases.join(', ')})`,
    heldOut,
    databases: databases.map((database) => ({
      key: database,
      label: `Defog ${database}`,
      seed: join(defogDir, 'databases', `${database}.sql`),
      descriptions: join(defogDir, 'databases', `${database}.descriptions.json`),
      policy: { tables: {} },
      requiresScoping: false,
    })),
    items: () => {
      if (!present) return undefined;
      const all = (
        JSON.parse(readFileSync(join(defogDir, 'questions.json'), 'utf8')) as { items: DefogItem[] }
      ).items;
      return all
        .filter((item) => databases.includes(item.database))
        .map((item) => ({
          id: item.id,
          category:
            item.expect === 'decline' ? item.category.replace(/^unanswerable:/, 'decline:') : item.category,
          question: item.question,
          gold_sql: item.gold_sql,
          expect: item.expect,
          database: item.database,
        }));
    },
    ...(present ? {} : { missing: `${defogDir} is absent (the external set is not part of the repository)` }),
  };
};

export const SETS: readonly EvalSet[] = [
  {
    name: 'demo',
    source: 'eval/demo.jsonl',
    heldOut: false,
    databases: [
      {
        key: 'demo',
        label: 'Demo shop',
        seed: demoSeedFile,
        policy: demoPolicy,
        requiresScoping: true,
        tenantColumn: 'org_id',
      },
    ],
    items: jsonl('eval/demo.jsonl'),
  },
  {
    name: 'dev',
    source: 'eval/dev.jsonl',
    heldOut: false,
    databases: [
      {
        key: 'dev',
        label: 'Libraries',
        seed: join(root, 'eval/dev/schema.sql'),
        policy: {
          tenant_column: 'org_id',
          tables: { organizations: { tenant_column: 'id' }, genres: { shared: true } },
        },
        requiresScoping: true,
        tenantColumn: 'org_id',
      },
    ],
    items: jsonl('eval/dev.jsonl'),
  },
  {
    name: 'held-out',
    source: 'eval/heldout.jsonl',
    heldOut: true,
    databases: [
      {
        key: 'held-out',
        label: 'Clinics',
        seed: join(root, 'eval/heldout/schema.sql'),
        policy: {
          tenant_column: 'clinic_id',
          tables: { clinics: { tenant_column: 'id' }, specialties: { shared: true } },
        },
        requiresScoping: true,
        tenantColumn: 'clinic_id',
      },
    ],
    items: jsonl('eval/heldout.jsonl'),
  },
  {
    name: 'fitness',
    source: 'eval/fitness.jsonl',
    heldOut: true,
    databases: [
      {
        key: 'fitness',
        label: 'Fitness studios',
        seed: join(root, 'eval/fitness/schema.sql'),
        policy: {
          tenant_column: 'company_id',
          tables: { companies: { tenant_column: 'id' }, class_types: { shared: true } },
        },
        requiresScoping: true,
        tenantColumn: 'company_id',
        glossary: join(root, 'eval/fitness/glossary.json'),
      },
    ],
    items: jsonl('eval/fitness.jsonl'),
  },
  {
    name: 'vet',
    source: 'eval/vet.jsonl',
    heldOut: false,
    databases: [
      {
        key: 'vet',
        label: 'Veterinary practices',
        seed: join(root, 'eval/vet/schema.sql'),
        policy: {
          tenant_column: 'practice_id',
          tables: { practices: { tenant_column: 'id' }, species: { shared: true } },
        },
        requiresScoping: true,
        tenantColumn: 'practice_id',
        glossary: join(root, 'eval/vet/glossary.json'),
      },
    ],
    items: jsonl('eval/vet.jsonl'),
  },
  {
    name: 'helpdesk',
    source: 'eval/helpdesk.jsonl',
    heldOut: false,
    databases: [
      {
        key: 'helpdesk',
        label: 'Helpdesk',
        seed: join(root, 'eval/helpdesk/schema.sql'),
        policy: {
          tenant_column: 'workspace_id',
          tables: { workspaces: { tenant_column: 'id' }, priorities: { shared: true } },
        },
        requiresScoping: true,
        tenantColumn: 'workspace_id',
        glossary: join(root, 'eval/helpdesk/glossary.json'),
      },
    ],
    items: jsonl('eval/helpdesk.jsonl'),
  },
  {
    name: 'lettings',
    source: 'eval/lettings.jsonl',
    heldOut: false,
    databases: [
      {
        key: 'lettings',
        label: 'Lettings agencies',
        seed: join(root, 'eval/lettings/schema.sql'),
        policy: {
          tenant_column: 'agency_id',
          tables: { agencies: { tenant_column: 'id' } },
        },
        requiresScoping: true,
        tenantColumn: 'agency_id',
      },
    ],
    items: jsonl('eval/lettings.jsonl'),
  },
  unseenSet('freight', 'Freight logistics', 'company_id', 'companies', false),
  unseenSet('university', 'Colleges', 'institution_id', 'institutions', false),
  unseenSet('maintenance', 'Plant maintenance', 'manufacturer_id', 'manufacturers', false),
  unseenSet('claims', 'Insurance claims', 'brokerage_id', 'brokerages', false),
  unseenSet('ticketing', 'Event ticketing', 'promoter_id', 'promoters', false),
  unseenSet('harvest', 'Farm cooperatives', 'coop_id', 'cooperatives', false),
  unseenSet('staffing', 'Recruitment agencies', 'firm_id', 'staffing_firms', false),
  unseenSet('energy', 'Energy retailers', 'retailer_id', 'retailers', false),
  unseenSet('charity', 'Charity fundraising', 'charity_id', 'charities', false),
  unseenSet('brewery', 'Craft breweries', 'brewery_id', 'breweries', false),
  unseenSet('lawfirm', 'Law firms', 'firm_id', 'law_firms', false),
  unseenSet('carhire', 'Car hire operators', 'operator_id', 'operators', false),
  unseenSet('restaurants', 'Restaurant groups', 'group_id', 'restaurant_groups', false),
  unseenSet('telecom', 'Mobile operators', 'mvno_id', 'mvnos', false),
  unseenSet('museums', 'Museums and galleries', 'museum_id', 'museums', false),
  unseenSet('sportsclubs', 'Amateur sports clubs', 'club_id', 'clubs', false),
  unseenSet('construction', 'Building contractors', 'contractor_id', 'contractors'),
  unseenSet('coworking', 'Coworking operators', 'operator_id', 'space_operators'),
  unseenSet('solar', 'Solar installers', 'installer_id', 'installers'),
  defogSet('defog-tuning', split.tuning, false),
  defogSet('defog-heldout', split.heldout, true),
];
