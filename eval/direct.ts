import { prepareGlossarySql } from '#lib/answer/builtin/glossary-sql.ts';
import { builtinEngine } from '#lib/answer/builtin/index.ts';
import type { EngineInput, PriorTurn } from '#lib/answer/engine.ts';
import { lookUpValues } from '#lib/answer/values.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { goldQueries, sameRows } from './judge.ts';
import { type LoadedDatabase, loadEvalDatabase } from './load.ts';
import { type EvalItem, SET_NAMES, SETS, type SetName } from './sets.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const verbose = args.includes('--verbose') || args.includes('-v');
const only = option('--only');
const asked = args.flatMap((arg, index) => (arg === '--ask' && args[index + 1] ? [args[index + 1]!] : []));
const askDatabase = option('--database');
const requested = (option('--sets') ?? 'demo,dev,vet,helpdesk,defog-tuning').split(',') as SetName[];
for (const name of requested) if (!SET_NAMES.includes(name)) throw new Error(`unknown set ${name}`);

type Outcome = 'correct' | 'wrong' | 'asked' | 'error';

/** A proposed query guarded as tenant 1, run, and compared with the item's gold rows. */
const judge = async (
  loaded: LoadedDatabase,
  item: EvalItem,
  proposal: { sql: string; description: string },
): Promise<{ outcome: Outcome; note: string }> => {
  const guarded = await guardPostgres({
    sql: proposal.sql,
    catalog: loaded.full,
    policy: loaded.policy,
    ...(loaded.policy.requiresScoping ? { tenant: '1' } : {}),
    rowCap: 100,
  });
  if (!guarded.allowed) {
    return {
      outcome: 'asked',
      note: `guard refused (${guarded.code}): ${proposal.sql.replace(/\s+/g, ' ')}`,
    };
  }
  const got = (await loaded.db.query<Record<string, unknown>>(guarded.sql, guarded.params)).rows.slice(
    0,
    100,
  );
  let matched = false;
  let gold: Record<string, unknown>[] = [];
  for (const sql of goldQueries(item.gold_sql ?? '')) {
    try {
      gold = (await loaded.db.query<Record<string, unknown>>(sql)).rows;
    } catch {
      continue;
    }
    if (sameRows(gold, got)) {
      matched = true;
      break;
    }
  }
  return {
    outcome: matched ? 'correct' : 'wrong',
    note: `${proposal.description} | ${(args.includes('--guarded') ? guarded.sql : proposal.sql).replace(/\s+/g, ' ')}${matched ? '' : ` | got ${JSON.stringify(got.slice(0, 3))} | gold ${JSON.stringify(gold.slice(0, 3))}`}`,
  };
};

/**
 * The engine's value lookup (lib/answer/values.ts) as the service runs it: through the same guard
 * as tenant 1, on the set's database.
 */
const findValuesOn =
  (loaded: LoadedDatabase): NonNullable<EngineInput['findValues']> =>
  (probe) =>
    lookUpValues(
      {
        dialect: 'postgres',
        visible: loaded.visible,
        guard: async (sql, rowCap) =>
          guardPostgres({
            sql,
            catalog: loaded.full,
            policy: loaded.policy,
            ...(loaded.policy.requiresScoping ? { tenant: '1' } : {}),
            rowCap,
          }),
        run: async (sql, params) => (await loaded.db.query<Record<string, unknown>>(sql, [...params])).rows,
      },
      probe,
    );

/** The `--ask` questions as a chain of follow-ups to one database, with no gold to judge by. */
const askedItems = (set: (typeof SETS)[number]): EvalItem[] =>
  asked.map((question, index) => ({
    id: `ask-${index + 1}`,
    category: 'ask',
    question,
    gold_sql: null,
    expect: 'answer',
    ...(index > 0 && args.includes('--chain') ? { follow_up_of: `ask-${index}` } : {}),
    database: askDatabase ?? set.databases[0]!.key,
  }));
// The engine reads glossary metrics and filters with PostgreSQL's parser (loaded by the engine's
// `propose`; this runner calls `proposeBuiltin` itself).
await prepareGlossarySql();
const now = new Date();
const started = performance.now();
const totals: string[] = [];
for (const name of requested) {
  const set = SETS.find((candidate) => candidate.name === name)!;
  const items = asked.length > 0 ? askedItems(set) : set.items();
  if (!items) {
    console.log(`${name}: skipped (${set.missing})`);
    continue;
  }
  const databases = new Map<string, LoadedDatabase>();
  for (const spec of set.databases) databases.set(spec.key, await loadEvalDatabase(spec));
  const histories = new Map<string, PriorTurn[]>();
  const outcomes: { item: EvalItem; outcome: Outcome }[] = [];
  /** Per answerable question asked back with options: whether one of them was right. */
  const options: boolean[] = [];
  for (const item of items) {
    if (only && !item.id.startsWith(only)) continue;
    const key = item.database ?? set.databases[0]!.key;
    const loaded = databases.get(key)!;
    const history = item.follow_up_of ? (histories.get(item.follow_up_of) ?? []) : [];
    let outcome: Outcome;
    let note = '';
    try {
      const proposal = await builtinEngine.propose({
        question: item.question,
        findValues: findValuesOn(loaded),
        catalog: loaded.visible,
        dialect: 'postgres',
        history,
        now,
        ...(loaded.policy.tenantColumn ? { tenantColumn: loaded.policy.tenantColumn } : {}),
        ...(loaded.glossary ? { glossary: loaded.glossary } : {}),
      });
      histories.set(item.id, [
        ...history,
        {
          question: item.question,
          kind: proposal.kind,
          engine: 'builtin',
          ...(proposal.kind === 'sql' ? { state: proposal.state } : {}),
        },
      ]);
      if (proposal.kind !== 'sql') {
        const wanted = {
          answer: 'none',
          clarify: 'clarification',
          refuse: 'refused',
          conversational: 'conversational',
          decline: proposal.kind,
        }[item.expect];
        outcome = proposal.kind === wanted ? 'correct' : 'asked';
        note = `${proposal.kind}: ${proposal.message}`;
      } else if (item.expect !== 'answer') {
        outcome = 'wrong';
        note = `SQL for a question to ${item.expect}: ${proposal.sql.replace(/\s+/g, ' ')}`;
      } else {
        ({ outcome, note } = await judge(loaded, item, {
          sql: proposal.sql,
          description: proposal.interpretation ?? proposal.description,
        }));
      }
      // A clarification of an answerable question: is the right reading among its options?
      if (proposal.kind === 'clarification' && proposal.suggestions?.length) {
        note += ` | options: ${proposal.suggestions.join(' / ')}`;
        if (item.expect === 'answer') {
          let found = false;
          for (const suggestion of proposal.suggestions) {
            const picked = await builtinEngine.propose({
              question: suggestion,
              findValues: findValuesOn(loaded),
              catalog: loaded.visible,
              dialect: 'postgres',
              history: histories.get(item.id) ?? [],
              now,
              ...(loaded.policy.tenantColumn ? { tenantColumn: loaded.policy.tenantColumn } : {}),
              ...(loaded.glossary ? { glossary: loaded.glossary } : {}),
            });
            if (picked.kind === 'sql' && (await judge(loaded, item, picked)).outcome === 'correct')
              found = true;
          }
          options.push(found);
        }
      }
    } catch (error) {
      outcome = 'error';
      note = error instanceof Error ? (error.stack ?? error.message) : String(error);
    }
    outcomes.push({ item, outcome });
    if (asked.length > 0) {
      console.log(`[${name}] ${item.question}\n    ${note.slice(0, 1200)}`);
    } else if (verbose || outcome === 'wrong' || outcome === 'error') {
      console.log(`[${name}] ${item.id} ${outcome} — ${item.question}\n    ${note.slice(0, 600)}`);
    }
  }
  for (const loaded of databases.values()) await loaded.db.close();
  const answerable = outcomes.filter((o) => o.item.expect === 'answer');
  const right = answerable.filter((o) => o.outcome === 'correct').length;
  const correct = outcomes.filter((o) => o.outcome === 'correct').length;
  const wrong = outcomes.filter((o) => o.outcome === 'wrong').length;
  const declines = outcomes.filter((o) => o.item.expect !== 'answer');
  const declined = declines.filter((o) => o.outcome === 'correct').length;
  const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
  const askedBack = answerable.filter((o) => o.outcome === 'asked').length;
  const amongOptions = options.filter(Boolean).length;
  totals.push(
    `${name}: coverage ${pct(right, answerable.length)} (${right}/${answerable.length}), precision ${pct(correct, correct + wrong)} (${wrong} wrong), declined ${pct(declined, declines.length)} (${declined}/${declines.length}), right reading among the options ${pct(amongOptions, askedBack)} (${amongOptions}/${askedBack} asked back, ${options.length} with options)`,
  );
}
console.log(`\n${totals.join('\n')}\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
