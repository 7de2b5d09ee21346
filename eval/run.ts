// npm run eval: answer quality of the answering flow, end to end through the HTTP API.
// Starts DynamoDB Local (in memory, free port, its own table) and the local gateway in this
// process and registers, for one professional organization per engine (each with an sk_ key and
// its engine set in ANSWER_ENGINE_ORGS), the PGlite databases of the sets of eval/sets.ts: the
// demo shop, a library network used while writing the builtin engine's rules, a held-out clinic
// schema, a held-out fitness-studio schema written for issue 15 before any tuning (with column
// comments and a glossary), veterinary-practice and helpdesk sets of questions typed the way users
// type them (used for tuning), a lettings-agency set of the same kind written by someone who had
// not seen the engine (held out for its first run, used for tuning since), three more of that kind
// on databases of unlike domains (freight, university, maintenance; likewise used for tuning since
// their first run), three more (claims, ticketing, harvest) likewise, four held-out sets of that kind
// (staffing, energy, charity, brewery), and the external Defog set (../shared/eval/defog, five databases with
// their descriptions files) split once by database into a tuning part and a held-out part
// (eval/defog/split.json). It asks every question as tenant 1 through POST /api/v1/chat/message
// (follow-ups in the same conversation) and judges each answer against gold SQL run directly on a
// PGlite copy of the same seed (eval/judge.ts). Prints coverage, precision and declines per
// engine, set and category, and a side-by-side summary; a run over every set writes
// eval/RESULTS.md and the eval block of BENCHMARKS.md (npm run bench rewrites BENCHMARKS.md whole,
// so the figures live in their own file). When ../shared/eval/defog is absent its sets are
// reported as skipped (CI does not need it).
//
//   npm run eval -- [--engines builtin,openai,bedrock] [--sets demo,dev,held-out,fitness,vet,helpdesk,lettings,freight,university,maintenance,claims,ticketing,harvest,staffing,energy,charity,brewery,defog-tuning,defog-heldout] [--verbose]
//
// --engines defaults to builtin plus every model engine whose settings are present (OPENAI_MODEL,
// BEDROCK_MODEL, or ANSWER_ENGINE naming a model engine); a requested engine without settings is
// reported as not configured. --sets defaults to all. eval/direct.ts runs the builtin engine
// in-process over the same sets, in seconds, for working on the engine.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { resetSettings } from '#lib/config.ts';
import { parseDescriptions, withDescriptions } from '#lib/connectors/descriptions.ts';
import { closeConnectors, createConnector } from '#lib/connectors/index.ts';
import { secretStore } from '#lib/connectors/secrets.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { saveGlossary } from '#lib/manage/glossary.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { evalBlock, withEvalBlock } from '../bench/eval-block.ts';
import type { RunningDynamoDb } from '../local/dynamodb.ts';
import { type RunningGateway, startGateway } from '../local/gateway.ts';
import { startScratchStack } from '../local/scratch.ts';
import { LOCAL_STAGE, root } from '../local/stack.ts';
import { goldQueries, sameRows } from './judge.ts';
import { type EvalDatabase, type EvalItem, type EvalSet, SET_NAMES, SETS } from './sets.ts';

type Outcome = 'correct' | 'wrong' | 'asked' | 'error';
interface Judged {
  item: EvalItem;
  outcome: Outcome;
  queryType: string;
  note: string;
  /** An answerable question asked back with options: whether one of them gives the right rows. */
  rightAmongOptions?: boolean;
}
type EngineId = 'builtin' | 'openai' | 'bedrock';
const ENGINES: readonly EngineId[] = ['builtin', 'openai', 'bedrock'];

const TABLE = 'tabletalk-eval';
const TENANT = '1';
/** The clinic schema's targets (issue 5). */
const TARGET_PRECISION = 0.95;
const TARGET_COVERAGE = 0.7;
/** Issue 15's targets on the sets held out from tuning. */
const UNSEEN_PRECISION = 0.9;
const UNSEEN_DECLINES = 0.95;
const UNSEEN_COVERAGE = 0.6;

// `--linking` measures the model engines' prompts instead (eval/linking.ts) and exits.
if (process.argv.includes('--linking')) {
  await import('./linking.ts');
  process.exit(0);
}

// ---- arguments ------------------------------------------------------------------------------

const argValue = (name: string): string | undefined => {
  const args = process.argv.slice(2);
  const index = args.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (index < 0) return undefined;
  const arg = args[index]!;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[index + 1];
};
const listArg = <T extends string>(name: string, allowed: readonly T[]): T[] | undefined => {
  const raw = argValue(name);
  if (raw === undefined) return undefined;
  const names = raw
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((part) => !(allowed as readonly string[]).includes(part));
  if (unknown.length || names.length === 0)
    throw new Error(`${name} takes a comma-separated list of ${allowed.join(', ')} (got "${raw}")`);
  return [...new Set(names)] as T[];
};
const verbose = process.argv.includes('--verbose') || process.argv.includes('-v');

/** The `<engine>[:<model>]` setting an engine runs with, or why it cannot run. */
type EngineSetup = { engine: EngineId; setting: string } | { engine: EngineId; missing: string };

/** Reads the environment after the local stack applied serverless.yml's defaults. */
const engineSetup = (engine: EngineId): EngineSetup => {
  if (engine === 'builtin') return { engine, setting: 'builtin' };
  const env = (name: string) => process.env[name]?.trim() || undefined;
  const stage = env('ANSWER_ENGINE');
  const stageModel =
    stage?.toLowerCase().startsWith(`${engine}:`) === true
      ? stage.slice(engine.length + 1).trim()
      : undefined;
  if (engine === 'openai') {
    const model = stageModel || env('OPENAI_MODEL');
    if (!model || !(env('OPENAI_BASE_URL') || env('OPENAI_API_KEY')))
      return {
        engine,
        missing: 'set OPENAI_MODEL and OPENAI_BASE_URL (or OPENAI_API_KEY for api.openai.com)',
      };
    return { engine, setting: `openai:${model}` };
  }
  const model = stageModel || env('BEDROCK_MODEL');
  if (!model) return { engine, missing: 'set BEDROCK_MODEL, with AWS credentials and AWS_REGION' };
  return { engine, setting: `bedrock:${model}` };
};

// ---- registering a set's databases ------------------------------------------------------------

/**
 * Registers one database of a set as `admin database add` does (secret saved, schema introspected
 * with the row policy, the descriptions file applied, index written, record added, glossary
 * checked by the guard and saved), without counting the indexing quota.
 */
const registerEvalDatabase = async (organizationId: number, spec: EvalDatabase): Promise<string> => {
  const settings = {
    organizationId,
    requiresOrganizationScoping: spec.requiresScoping,
    ...(spec.tenantColumn ? { tenantFilterColumn: spec.tenantColumn } : {}),
    policy: spec.policy,
  };
  const descriptions = spec.descriptions
    ? parseDescriptions(JSON.parse(readFileSync(spec.descriptions, 'utf8')))
    : undefined;
  const connector = await createConnector({ engine: 'pglite', url: 'memory:', seedFile: spec.seed });
  let catalog: Catalog;
  try {
    catalog = withDescriptions(
      await connector.introspect({ policy: effectivePolicy(settings) }),
      descriptions,
    );
  } finally {
    await connector.close();
  }
  const id = newDatabaseId();
  const record = await addDatabase({
    id,
    name: spec.label,
    engine: 'pglite',
    ...settings,
    connectionRef: await secretStore().save(id, 'memory:'),
    seedFile: spec.seed,
    ...(descriptions ? { descriptions } : {}),
    schemaIndex: await writeSchemaIndex(id, catalog),
  });
  if (spec.glossary) await saveGlossary(record, JSON.parse(readFileSync(spec.glossary, 'utf8')), { catalog });
  return id;
};

let dynamodb: RunningDynamoDb | undefined;
let gateway: RunningGateway | undefined;

const started = performance.now();
try {
  const requestedEngines = listArg('--engines', ENGINES);
  const selectedSets = listArg('--sets', SET_NAMES) ?? [...SET_NAMES];
  const chosen = SETS.filter((set) => selectedSets.includes(set.name));
  // Sets whose files are absent (the external set outside this repository) are reported, not run.
  const loaded = chosen.map((set) => ({ set, items: set.items() }));
  const sets = loaded.filter(
    (entry): entry is { set: EvalSet; items: EvalItem[] } => entry.items !== undefined,
  );
  const skipped = loaded.filter((entry) => entry.items === undefined).map((entry) => entry.set);
  for (const set of skipped) console.log(`[eval] ${set.name} skipped: ${set.missing}`);

  // Set before the stack applies the functions' environment (it keeps both; LOG_LEVEL becomes
  // their log level). A professional organization's message limit (30 answering requests a
  // minute) would make the run wait; the limiter is not what is measured here.
  process.env.LOG_LEVEL = 'SILENT';
  process.env.LIMITS_ENABLED = 'false';
  const stack = await startScratchStack(TABLE);
  dynamodb = stack.dynamodb;

  const setups = (requestedEngines ?? ENGINES).map(engineSetup);
  // Every engine is listed: those without settings as not configured.
  const listed = setups;
  const runnable = listed.filter((s): s is { engine: EngineId; setting: string } => 'setting' in s);

  // One organization per engine; ANSWER_ENGINE_ORGS gives each its engine (the settings are read
  // again once all are set), so one run compares the engines over the same databases and questions.
  const databaseKey = (set: EvalSet, key: string) => `${set.name}/${key}`;
  const runs: {
    setup: { engine: EngineId; setting: string };
    key: string;
    databases: Map<string, string>;
  }[] = [];
  for (const setup of runnable) {
    const organization = await createOrganization({ name: `Eval ${setup.engine}`, plan: 'professional' });
    const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });
    const databases = new Map<string, string>();
    for (const { set } of sets) {
      for (const spec of set.databases) {
        databases.set(databaseKey(set, spec.key), await registerEvalDatabase(organization.id, spec));
      }
    }
    runs.push({ setup, key: sk.key, databases });
    process.env.ANSWER_ENGINE_ORGS = [process.env.ANSWER_ENGINE_ORGS, `${organization.id}=${setup.setting}`]
      .filter(Boolean)
      .join(',');
  }
  resetSettings();
  gateway = await startGateway({ root, routes: stack.routes, stage: LOCAL_STAGE });
  const url = gateway.url;

  const ask = async (
    key: string,
    question: string,
    databaseId: string,
    conversationId: string | undefined,
    scoped: boolean,
  ): Promise<Record<string, unknown>> => {
    const path = conversationId ? `/api/v1/chat/${conversationId}/message` : '/api/v1/chat/message';
    const body = conversationId ? { message: question } : { message: question, database_id: databaseId };
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      // A database without organization scoping refuses a tenant header (403 INVALID_TENANT_ID).
      headers: {
        'X-API-Key': key,
        ...(scoped ? { 'X-Tenant-Id': TENANT } : {}),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { success?: boolean; data?: Record<string, unknown> };
    if (!response.ok || !json.data)
      throw new Error(`HTTP ${response.status}: ${JSON.stringify(json).slice(0, 200)}`);
    return json.data;
  };

  const goldDbs = new Map<string, PGlite>();
  for (const { set } of sets) {
    for (const spec of set.databases) {
      const db = new PGlite();
      await db.exec(readFileSync(spec.seed, 'utf8'));
      goldDbs.set(databaseKey(set, spec.key), db);
    }
  }

  /** Whether the answer's rows match one of the gold queries (alternatives expanded). */
  const judgeRows = async (db: PGlite, gold: string, got: Record<string, unknown>[]) => {
    let last: Record<string, unknown>[] = [];
    for (const sql of goldQueries(gold)) {
      try {
        last = (await db.query<Record<string, unknown>>(sql)).rows;
      } catch {
        continue;
      }
      if (sameRows(last, got)) return { same: true, gold: last };
    }
    return { same: false, gold: last };
  };

  const report: { engine: EngineId; setting: string; sets: { set: EvalSet; judged: Judged[] }[] }[] = [];
  for (const run of runs) {
    const engineReport: { set: EvalSet; judged: Judged[] }[] = [];
    for (const { set, items } of sets) {
      const conversations = new Map<string, string>();
      const judged: Judged[] = [];
      for (const item of items) {
        const key = databaseKey(set, item.database ?? set.databases[0]!.key);
        const goldDb = goldDbs.get(key)!;
        const databaseId = run.databases.get(key)!;
        let outcome: Outcome;
        let queryType = '';
        let note = '';
        let rightAmongOptions: boolean | undefined;
        try {
          const parent = item.follow_up_of ? conversations.get(item.follow_up_of) : undefined;
          if (item.follow_up_of && !parent)
            throw new Error(`follow_up_of ${item.follow_up_of} has no conversation`);
          const spec = set.databases.find(
            (database) => database.key === (item.database ?? set.databases[0]!.key),
          )!;
          const data = await ask(run.key, item.question, databaseId, parent, spec.requiresScoping);
          if (typeof data.conversation_id === 'string') conversations.set(item.id, data.conversation_id);
          queryType = String(data.query_type);
          if (item.expect === 'answer') {
            if (queryType !== 'sql') {
              outcome = 'asked';
              note = String(data.message ?? '').slice(0, 120);
              // A clarification's options ("Did you mean …"): is the right reading among them? Each
              // is asked as a user would click it, in a conversation of its own (they are complete
              // questions), and judged like an answer.
              const offered =
                queryType === 'clarification' && Array.isArray(data.suggestions)
                  ? (data.suggestions as unknown[]).filter((s): s is string => typeof s === 'string')
                  : [];
              if (offered.length > 0) {
                let found = false;
                for (const suggestion of offered) {
                  const picked = await ask(run.key, suggestion, databaseId, undefined, spec.requiresScoping);
                  if (picked.query_type !== 'sql') continue;
                  const rows = (picked.results ?? []) as Record<string, unknown>[];
                  if ((await judgeRows(goldDb, item.gold_sql ?? '', rows)).same) {
                    found = true;
                    break;
                  }
                }
                rightAmongOptions = found;
                note += ` | options: ${offered.join(' / ')}${found ? ' (right one offered)' : ''}`;
              }
            } else {
              const got = (data.results ?? []) as Record<string, unknown>[];
              const { same, gold } = await judgeRows(goldDb, item.gold_sql ?? '', got);
              outcome = same ? 'correct' : 'wrong';
              if (!same)
                note = `${String(data.sql).replace(/\s+/g, ' ')} | got ${JSON.stringify(got.slice(0, 3))} | gold ${JSON.stringify(gold.slice(0, 3))}`;
            }
          } else if (item.expect === 'decline') {
            // Data that cannot answer it: any reply but a query is right.
            outcome = queryType === 'sql' ? 'wrong' : 'correct';
            if (outcome !== 'correct')
              note = String(data.sql ?? '')
                .replace(/\s+/g, ' ')
                .slice(0, 160);
          } else {
            const wanted = { clarify: 'clarification', refuse: 'refused', conversational: 'conversational' }[
              item.expect
            ];
            outcome = queryType === wanted ? 'correct' : queryType === 'sql' ? 'wrong' : 'asked';
            if (outcome !== 'correct')
              note = `${queryType}: ${String(data.sql ?? data.message ?? '')
                .replace(/\s+/g, ' ')
                .slice(0, 160)}`;
          }
        } catch (error) {
          outcome = 'error';
          note = error instanceof Error ? error.message : String(error);
        }
        judged.push({
          item,
          outcome,
          queryType,
          note,
          ...(rightAmongOptions === undefined ? {} : { rightAmongOptions }),
        });
        if (verbose || outcome === 'wrong' || outcome === 'error')
          console.log(
            `  [${run.setup.engine} ${set.name}] ${item.id} ${outcome}${note ? ` — ${item.question} → ${note}` : ''}`,
          );
      }
      engineReport.push({ set, judged });
    }
    report.push({ engine: run.setup.engine, setting: run.setup.setting, sets: engineReport });
  }
  for (const db of goldDbs.values()) await db.close();

  // ---- figures ------------------------------------------------------------------------------
  const pct = (n: number, d: number): string => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
  const figures = (judged: Judged[]) => {
    const count = (o: Outcome) => judged.filter((j) => j.outcome === o).length;
    const answerable = judged.filter((j) => j.item.expect === 'answer');
    const answeredRight = answerable.filter((j) => j.outcome === 'correct').length;
    const declines = judged.filter((j) => j.item.expect === 'decline');
    return {
      n: judged.length,
      correct: count('correct'),
      wrong: count('wrong'),
      asked: count('asked'),
      error: count('error'),
      answerable: answerable.length,
      answeredRight,
      declines: declines.length,
      declined: declines.filter((j) => j.outcome === 'correct').length,
      askedBack: answerable.filter((j) => j.outcome === 'asked').length,
      rightAmongOptions: answerable.filter((j) => j.rightAmongOptions === true).length,
    };
  };
  const label = (set: EvalSet) => `${set.name}${set.heldOut ? ' (held out)' : ''}`;
  const lines: string[] = [];
  const checks: { name: string; pass: boolean }[] = [];
  lines.push(
    `Tenant 1 of each database; sets: ${sets.map(({ set }) => `${set.name} (${set.source})`).join(', ')}; ${new Date().toISOString().slice(0, 10)}.`,
    ...(skipped.length > 0
      ? ['', `Not run: ${skipped.map((set) => `${set.name} (${set.missing})`).join('; ')}.`]
      : []),
    '',
    'Coverage = correct answers / questions expecting an answer (per category: correct / items); ' +
      'precision = correct / (correct + wrong), where wrong is SQL whose rows differ from the gold, or SQL ' +
      'run for a question that should have been clarified, refused or declined; declined = questions the ' +
      'data cannot answer that got no query (clarified, refused or chatted). "asked" = clarified, refused or ' +
      'chatted instead of the expected kind. "Right reading among the options" = of the answerable questions ' +
      'asked back with options ("Did you mean …"), those where asking one of the options gave the gold rows. ' +
      'Held-out sets were not looked at while the builtin engine was tuned: the external set was split by ' +
      'database name before any of its questions was read (eval/defog/split.json); the fitness set was ' +
      'written before any tuning; the staffing, energy, charity and brewery sets were written by people who ' +
      'had not seen the engine, each on a database of a domain unlike the others, and their first run is ' +
      'their held-out figure. The lettings, freight, university, maintenance, claims, ticketing and harvest ' +
      'sets were written the same way; after their first runs (below) they have been used for tuning, so ' +
      'they are no longer held out.',
    '',
    '### First runs of the held-out sets (builtin engine)',
    '',
    "The figure of a set's first run, before any of its misses was read (staffing and the sets after it through eval/direct.ts, the same engine in-process); later runs of a set that has been tuned on are not evidence of generalisation.",
    '',
    '| Set | First run | Commit | Coverage | Precision | Declined | Right reading among the options |',
    '|---|---|---|---|---|---|---|',
    '| lettings | 2026-11-24 | (before 4c65e88) | 37.9 % (33/87) | 92.3 % | 100.0 % (15/15) | — |',
    '| freight | 2026-11-28 | 259e7a8 | 28.9 % (24/83) | 79.6 % | 100.0 % (15/15) | 8.2 % (4/49) |',
    '| university | 2026-11-28 | 259e7a8 | 24.4 % (21/86) | 78.7 % | 100.0 % (16/16) | 10.9 % (6/55) |',
    '| maintenance | 2026-11-28 | 259e7a8 | 25.0 % (20/80) | 87.5 % | 100.0 % (15/15) | 1.8 % (1/55) |',
    '| claims | 2026-11-28 | 5cfd590 | 17.1 % (14/82) | 67.4 % | 100.0 % (15/15) | 11.1 % (6/54) |',
    '| ticketing | 2026-11-28 | 5cfd590 | 21.3 % (17/80) | 84.2 % | 100.0 % (15/15) | 8.8 % (5/57) |',
    '| harvest | 2026-11-28 | 5cfd590 | 20.7 % (17/82) | 80.0 % | 100.0 % (15/15) | 5.3 % (3/57) |',
    '| staffing | 2026-11-28 | 5afdd69 | 18.8 % (15/80) | 83.3 % | 93.8 % (15/16) | 6.7 % (4/60) |',
    '| energy | 2026-11-28 | 5afdd69 | 26.8 % (22/82) | 74.5 % | 100.0 % (16/16) | 8.5 % (4/47) |',
    '| charity | 2026-11-28 | 5afdd69 | 15.9 % (13/82) | 72.5 % | 100.0 % (16/16) | 10.3 % (6/58) |',
    '| brewery | 2026-11-28 | 5afdd69 | 19.3 % (16/83) | 84.2 % | 100.0 % (16/16) | 8.2 % (5/61) |',
    '| lawfirm | 2026-11-28 | 627c527 | 19.5 % (16/82) | 77.5 % | 100.0 % (15/15) | 17.5 % (10/57) |',
    '| carhire | 2026-11-28 | 627c527 | 9.8 % (8/82) | 69.7 % | 100.0 % (15/15) | 7.8 % (5/64) |',
    '| restaurants | 2026-11-28 | 627c527 | 16.5 % (14/85) | 73.2 % | 100.0 % (16/16) | 5.0 % (3/60) |',
    '| telecom | 2026-11-28 | fa87d13 | 26.8 % (22/82) | 80.4 % | 100.0 % (15/15) | 2.0 % (1/51) |',
    '| museums | 2026-11-28 | fa87d13 | 13.4 % (11/82) | 61.9 % | 100.0 % (15/15) | 12.7 % (7/55) |',
    '| sportsclubs | 2026-11-28 | fa87d13 | 14.6 % (12/82) | 77.1 % | 100.0 % (15/15) | 3.2 % (2/62) |',
    '| construction | 2026-11-28 | bccd04c | 18.3 % (15/82) | 78.9 % | 100.0 % (15/15) | 10.2 % (6/59) |',
    '| coworking | 2026-11-28 | bccd04c | 11.0 % (9/82) | 65.7 % | 93.3 % (14/15) | 3.2 % (2/62) |',
    '| solar | 2026-11-28 | bccd04c | 25.6 % (21/82) | 84.1 % | 100.0 % (16/16) | 5.6 % (3/54) |',
    '',
  );
  lines.push(
    '### Summary',
    '',
    '| Engine | Set | Coverage | Precision | Declined | Right reading among the options |',
    '|---|---|---|---|---|---|',
  );
  for (const setup of listed) {
    const result = report.find((r) => r.engine === setup.engine);
    if (!result || !('setting' in setup)) {
      const why = 'missing' in setup ? setup.missing : 'did not run';
      lines.push(`| ${setup.engine} | not configured (${why}) | | | | |`);
      continue;
    }
    for (const { set, judged } of result.sets) {
      const f = figures(judged);
      lines.push(
        `| ${result.setting} | ${label(set)} | ${pct(f.answeredRight, f.answerable)} (${f.answeredRight}/${f.answerable}) | ${pct(f.correct, f.correct + f.wrong)} | ${f.declines > 0 ? `${pct(f.declined, f.declines)} (${f.declined}/${f.declines})` : '—'} | ${f.askedBack > 0 ? `${pct(f.rightAmongOptions, f.askedBack)} (${f.rightAmongOptions}/${f.askedBack} asked back)` : '—'} |`,
      );
    }
  }
  lines.push('');
  for (const { engine, setting, sets: engineSets } of report) {
    lines.push(`### Engine ${setting}`, '');
    for (const { set, judged } of engineSets) {
      const all = figures(judged);
      const coverage = all.answerable ? all.answeredRight / all.answerable : 0;
      const precision = all.correct + all.wrong ? all.correct / (all.correct + all.wrong) : 1;
      const declined = all.declines ? all.declined / all.declines : 1;
      lines.push(`#### ${engine} · ${label(set)} (${all.n} questions)`, '');
      lines.push(
        `Coverage **${pct(all.answeredRight, all.answerable)}** (${all.answeredRight}/${all.answerable} answerable), ` +
          `precision **${pct(all.correct, all.correct + all.wrong)}** (${all.correct} correct, ${all.wrong} wrong, ` +
          `${all.asked} asked, ${all.error} errors)` +
          (all.declines > 0
            ? `, declined **${pct(all.declined, all.declines)}** (${all.declined}/${all.declines}).`
            : '.'),
        '',
      );
      lines.push(
        '| Category | Items | Correct | Wrong | Asked | Errors | Coverage | Precision |',
        '|---|---|---|---|---|---|---|---|',
      );
      const categories = [...new Set(judged.map((j) => j.item.category))];
      for (const category of categories) {
        const f = figures(judged.filter((j) => j.item.category === category));
        lines.push(
          `| ${category} | ${f.n} | ${f.correct} | ${f.wrong} | ${f.asked} | ${f.error} | ${pct(f.correct, f.n)} | ${pct(f.correct, f.correct + f.wrong)} |`,
        );
      }
      lines.push('');
      if (engine === 'builtin' && set.name === 'held-out') {
        checks.push({
          name: `builtin held-out precision ${pct(all.correct, all.correct + all.wrong)} ≥ 95 %`,
          pass: precision >= TARGET_PRECISION,
        });
        checks.push({
          name: `builtin held-out coverage ${pct(all.answeredRight, all.answerable)} ≥ 70 %`,
          pass: coverage >= TARGET_COVERAGE,
        });
      }
      if (engine === 'builtin' && set.heldOut && set.name !== 'held-out') {
        checks.push({
          name: `builtin ${set.name} precision ${pct(all.correct, all.correct + all.wrong)} ≥ 90 %`,
          pass: precision >= UNSEEN_PRECISION,
        });
        if (all.declines > 0)
          checks.push({
            name: `builtin ${set.name} declined ${pct(all.declined, all.declines)} ≥ 95 %`,
            pass: declined >= UNSEEN_DECLINES,
          });
        // Coverage on unseen data is the aim, reported, not a gate (refusing beats a wrong answer).
        lines.push(
          `Coverage aim (not a gate): ${pct(all.answeredRight, all.answerable)} against 60 % — ${coverage >= UNSEEN_COVERAGE ? 'reached' : 'not reached'}.`,
          '',
        );
      }
    }
  }
  if (checks.length) {
    lines.push('Targets (builtin, held-out sets):', '');
    for (const check of checks) lines.push(`- ${check.pass ? 'PASS' : 'FAIL'}: ${check.name}`);
  }
  const misses = report.flatMap(({ engine, sets: engineSets }) =>
    engineSets.flatMap(({ set, judged }) =>
      judged
        .filter((j) => j.outcome !== 'correct')
        .map(
          (j) =>
            `| ${engine} | ${set.name} | ${j.item.id} | ${j.outcome} | ${j.item.question.replace(/\|/g, '/')} | ${j.queryType} |`,
        ),
    ),
  );
  if (misses.length) {
    lines.push(
      '',
      '<details><summary>Misses</summary>',
      '',
      '| Engine | Set | Id | Outcome | Question | query_type |',
      '|---|---|---|---|---|---|',
      ...misses,
      '',
      '</details>',
    );
  }
  const seconds = (performance.now() - started) / 1000;
  const body = lines.join('\n');
  console.log(`\n${body}\n`);
  if (chosen.length === SETS.length) {
    writeFileSync(
      join(root, 'eval/RESULTS.md'),
      `# Answer quality (npm run eval)\n\nGenerated by \`npm run eval\` (eval/run.ts) in ${seconds.toFixed(0)} s; do not edit by hand.\n\n${body}\n`,
    );
    const benchmarks = join(root, 'BENCHMARKS.md');
    if (existsSync(benchmarks))
      writeFileSync(benchmarks, withEvalBlock(readFileSync(benchmarks, 'utf8'), evalBlock(root)));
    console.log(`Wrote eval/RESULTS.md and its section of BENCHMARKS.md (${seconds.toFixed(0)} s).`);
  } else {
    console.log(`Not all sets ran: eval/RESULTS.md left as it was (${seconds.toFixed(0)} s).`);
  }
  process.exitCode = checks.every((c) => c.pass) ? 0 : 1;
} catch (error) {
  console.error('[eval] failed:', error);
  process.exitCode = 2;
} finally {
  await gateway?.close();
  await closeConnectors();
  await dynamodb?.stop();
}
