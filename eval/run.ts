// npm run eval: answer quality of the answering flow, end to end through the HTTP API.
// Starts DynamoDB Local (in memory, free port, its own table) and the local gateway in this
// process and registers, for one professional organization per engine (each with an sk_ key and
// its engine set in ANSWER_ENGINE_ORGS), three PGlite databases: the demo shop
// (local/demo/shop.sql), a library network used while writing the builtin engine's rules
// (eval/dev/schema.sql) and a held-out clinic schema those rules were not written against
// (eval/heldout/schema.sql). It asks every question of eval/demo.jsonl, eval/dev.jsonl and
// eval/heldout.jsonl as tenant 1 through POST /api/v1/chat/message (follow-ups in the same
// conversation) and judges each answer against gold SQL run directly on a PGlite copy of the same
// seed. Prints coverage and precision per engine, set and category, and a side-by-side summary;
// a run over every set writes eval/RESULTS.md and the eval block of BENCHMARKS.md (npm run bench
// rewrites BENCHMARKS.md whole, so the figures live in their own file).
//
//   npm run eval -- [--engines builtin,openai,bedrock] [--sets demo,dev,held-out] [--verbose]
//
// --engines defaults to builtin plus every model engine whose settings are present (OPENAI_MODEL,
// BEDROCK_MODEL, or ANSWER_ENGINE naming a model engine); a requested engine without settings is
// reported as not configured. --sets defaults to all three.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { evalBlock, withEvalBlock } from '../bench/eval-block.ts';
import type { RunningDynamoDb } from '../local/dynamodb.ts';
import type { RunningGateway } from '../local/gateway.ts';
import { startScratchStack } from '../local/scratch.ts';
import { LOCAL_STAGE, root } from '../local/stack.ts';

/** `conversational` (greetings, help) extends the three kinds: correct when the engine chats. */
type Expect = 'answer' | 'clarify' | 'refuse' | 'conversational';
export interface EvalItem {
  id: string;
  category: string;
  question: string;
  gold_sql: string | null;
  expect: Expect;
  follow_up_of?: string;
}
type Outcome = 'correct' | 'wrong' | 'asked' | 'error';
interface Judged {
  item: EvalItem;
  outcome: Outcome;
  queryType: string;
  note: string;
}
type EngineId = 'builtin' | 'openai' | 'bedrock';
const ENGINES: readonly EngineId[] = ['builtin', 'openai', 'bedrock'];
const SET_NAMES = ['demo', 'dev', 'held-out'] as const;
type SetName = (typeof SET_NAMES)[number];

const TABLE = 'tabletalk-eval';
const TENANT = '1';
const TARGET_PRECISION = 0.95;
const TARGET_COVERAGE = 0.7;

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

const loadItems = (file: string): EvalItem[] =>
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as EvalItem);

// ---- value normalisation and row comparison -------------------------------------------------

const pad = (n: number): string => String(n).padStart(2, '0');
const dateText = (d: Date): string => {
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return time === '00:00:00' ? day : `${day} ${time}`;
};
const NUMERIC = /^-?\d+(\.\d+)?$/;
const DATELIKE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Numbers and numeric strings to a number rounded to 2 decimals; dates and date strings to
 *  `YYYY-MM-DD[ HH:MM:SS]`; everything else to its text. */
export const normalise = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'number' || typeof value === 'bigint')
    return `n:${Math.round(Number(value) * 100) / 100}`;
  if (typeof value === 'boolean') return `b:${value}`;
  const text = String(value).trim();
  if (NUMERIC.test(text)) return `n:${Math.round(Number(text) * 100) / 100}`;
  if (DATELIKE.test(text)) {
    const withZone = /Z|[+-]\d{2}:?\d{2}$/.test(text.slice(10)) ? text : `${text.replace(' ', 'T')}Z`;
    const parsed = new Date(text.length === 10 ? `${text}T00:00:00Z` : withZone);
    if (!Number.isNaN(parsed.getTime())) return dateText(parsed);
  }
  return text;
};

const tuples = (rows: Record<string, unknown>[]): string[][] =>
  rows.map((row) => Object.values(row).map(normalise));
const sortedColumn = (rows: string[][], index: number): string =>
  JSON.stringify(rows.map((r) => r[index]).sort());
const multiset = (rows: string[][]): string => JSON.stringify(rows.map((r) => JSON.stringify(r)).sort());

/**
 * Rows match as multisets of tuples. Column names are ignored; each gold column is paired with a
 * response column holding the same multiset of values (so column order and extra columns the
 * engine added, such as an id beside a name, do not matter). A single gold value matches a
 * one-row response that holds it.
 */
export const sameRows = (gold: Record<string, unknown>[], got: Record<string, unknown>[]): boolean => {
  const g = tuples(gold);
  const r = tuples(got);
  if (g.length !== r.length) return false;
  if (g.length === 0) return true;
  const goldWidth = g[0]?.length ?? 0;
  if (g.length === 1 && goldWidth === 1) return (r[0] ?? []).includes(g[0]?.[0] ?? '');
  const width = r[0]?.length ?? 0;
  const used = new Set<number>();
  const pick: number[] = [];
  for (let j = 0; j < goldWidth; j++) {
    const want = sortedColumn(g, j);
    let found = -1;
    for (let k = 0; k < width; k++) {
      if (!used.has(k) && sortedColumn(r, k) === want) {
        found = k;
        break;
      }
    }
    if (found < 0) return false;
    used.add(found);
    pick.push(found);
  }
  return multiset(g) === multiset(r.map((row) => pick.map((k) => row[k] ?? 'null')));
};

// ---- the stack ------------------------------------------------------------------------------

interface SetSpec {
  name: SetName;
  file: string;
  seed: string;
  policy?: { tenant_column: string; tables: Record<string, { tenant_column: string } | { shared: true }> };
  tenantColumn?: string;
  label: string;
}
const SETS: readonly SetSpec[] = [
  { name: 'demo', file: 'eval/demo.jsonl', seed: join(root, 'local/demo/shop.sql'), label: 'Demo shop' },
  {
    name: 'dev',
    file: 'eval/dev.jsonl',
    seed: join(root, 'eval/dev/schema.sql'),
    policy: {
      tenant_column: 'org_id',
      tables: { organizations: { tenant_column: 'id' }, genres: { shared: true } },
    },
    tenantColumn: 'org_id',
    label: 'Libraries',
  },
  {
    name: 'held-out',
    file: 'eval/heldout.jsonl',
    seed: join(root, 'eval/heldout/schema.sql'),
    policy: {
      tenant_column: 'clinic_id',
      tables: { clinics: { tenant_column: 'id' }, specialties: { shared: true } },
    },
    tenantColumn: 'clinic_id',
    label: 'Clinics',
  },
];

let dynamodb: RunningDynamoDb | undefined;
let gateway: RunningGateway | undefined;
let closeConnectors: (() => Promise<void>) | undefined;

const started = performance.now();
try {
  const requestedEngines = listArg('--engines', ENGINES);
  const selectedSets = listArg('--sets', SET_NAMES) ?? [...SET_NAMES];
  const sets = SETS.filter((set) => selectedSets.includes(set.name));

  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  // Before any lib/ import: lib/config.ts reads the environment once.
  const stack = await startScratchStack(TABLE);
  dynamodb = stack.dynamodb;
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  // A professional organization's message limit (30 answering requests a minute) would make the
  // run wait; the limiter is not what is measured here.
  process.env.LIMITS_ENABLED = 'false';

  const setups = (requestedEngines ?? ENGINES).map(engineSetup);
  // Every engine is listed: those without settings as not configured.
  const listed = setups;
  const runnable = listed.filter((s): s is { engine: EngineId; setting: string } => 'setting' in s);

  const { createOrganization } = await import('#lib/store/organizations.ts');
  const { createApiKey } = await import('#lib/store/api-keys.ts');
  const answering = await import('../tests/helpers/answering.ts');
  closeConnectors = answering.closeConnectors;
  const { startGateway } = await import('../local/gateway.ts');

  // One organization per engine; ANSWER_ENGINE_ORGS gives each its engine (the registry reads it
  // per request), so one run compares the engines over the same databases and questions.
  const runs: {
    setup: { engine: EngineId; setting: string };
    key: string;
    databases: Map<SetName, string>;
  }[] = [];
  for (const setup of runnable) {
    const organization = await createOrganization({ name: `Eval ${setup.engine}`, plan: 'professional' });
    const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });
    const databases = new Map<SetName, string>();
    for (const set of sets) {
      const record = await answering.registerDatabase({
        organizationId: organization.id,
        name: set.label,
        ...(set.name === 'demo' ? {} : { seedFile: set.seed }),
        ...(set.policy ? { policy: set.policy } : {}),
        ...(set.tenantColumn ? { tenantFilterColumn: set.tenantColumn } : {}),
      });
      databases.set(set.name, record.id);
    }
    runs.push({ setup, key: sk.key, databases });
    process.env.ANSWER_ENGINE_ORGS = [process.env.ANSWER_ENGINE_ORGS, `${organization.id}=${setup.setting}`]
      .filter(Boolean)
      .join(',');
  }
  gateway = await startGateway({ root, routes: stack.routes, stage: LOCAL_STAGE });
  const url = gateway.url;

  const ask = async (
    key: string,
    question: string,
    databaseId: string,
    conversationId: string | undefined,
  ): Promise<Record<string, unknown>> => {
    const path = conversationId ? `/api/v1/chat/${conversationId}/message` : '/api/v1/chat/message';
    const body = conversationId ? { message: question } : { message: question, database_id: databaseId };
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'X-Tenant-Id': TENANT, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { success?: boolean; data?: Record<string, unknown> };
    if (!response.ok || !json.data)
      throw new Error(`HTTP ${response.status}: ${JSON.stringify(json).slice(0, 200)}`);
    return json.data;
  };

  const goldDbs = new Map<SetName, PGlite>();
  for (const set of sets) {
    const db = new PGlite();
    await db.exec(readFileSync(set.seed, 'utf8'));
    goldDbs.set(set.name, db);
  }

  const report: { engine: EngineId; setting: string; sets: { set: SetName; judged: Judged[] }[] }[] = [];
  for (const run of runs) {
    const engineReport: { set: SetName; judged: Judged[] }[] = [];
    for (const set of sets) {
      const items = loadItems(set.file);
      const goldDb = goldDbs.get(set.name)!;
      const databaseId = run.databases.get(set.name)!;
      const conversations = new Map<string, string>();
      const judged: Judged[] = [];
      for (const item of items) {
        let outcome: Outcome;
        let queryType = '';
        let note = '';
        try {
          const parent = item.follow_up_of ? conversations.get(item.follow_up_of) : undefined;
          if (item.follow_up_of && !parent)
            throw new Error(`follow_up_of ${item.follow_up_of} has no conversation`);
          const data = await ask(run.key, item.question, databaseId, parent);
          if (typeof data.conversation_id === 'string') conversations.set(item.id, data.conversation_id);
          queryType = String(data.query_type);
          if (item.expect === 'answer') {
            if (queryType !== 'sql') {
              outcome = 'asked';
              note = String(data.message ?? '').slice(0, 120);
            } else {
              const gold = (await goldDb.query<Record<string, unknown>>(item.gold_sql ?? '')).rows;
              const got = (data.results ?? []) as Record<string, unknown>[];
              outcome = sameRows(gold, got) ? 'correct' : 'wrong';
              if (outcome === 'wrong')
                note = `${String(data.sql).replace(/\s+/g, ' ')} | got ${JSON.stringify(got.slice(0, 3))} | gold ${JSON.stringify(gold.slice(0, 3))}`;
            }
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
        judged.push({ item, outcome, queryType, note });
        if (verbose || outcome === 'wrong' || outcome === 'error')
          console.log(
            `  [${run.setup.engine} ${set.name}] ${item.id} ${outcome}${note ? ` — ${item.question} → ${note}` : ''}`,
          );
      }
      engineReport.push({ set: set.name, judged });
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
    return {
      n: judged.length,
      correct: count('correct'),
      wrong: count('wrong'),
      asked: count('asked'),
      error: count('error'),
      answerable: answerable.length,
      answeredRight,
    };
  };
  const lines: string[] = [];
  const checks: { name: string; pass: boolean }[] = [];
  lines.push(
    `Tenant 1 of each database; sets: ${sets.map((s) => `${s.name} (${s.file})`).join(', ')}; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    'Coverage = correct answers / questions expecting an answer (per category: correct / items); ' +
      'precision = correct / (correct + wrong), where wrong is SQL whose rows differ from the gold, or SQL ' +
      'run for a question that should have been clarified or refused. "asked" = clarified, refused or ' +
      'chatted instead of the expected kind.',
    '',
  );
  lines.push(
    '### Summary',
    '',
    `| Engine | ${sets.map((s) => `${s.name} coverage | ${s.name} precision`).join(' | ')} |`,
    `|---|${sets.map(() => '---|---').join('|')}|`,
  );
  for (const setup of listed) {
    const result = report.find((r) => r.engine === setup.engine);
    if (!result || !('setting' in setup)) {
      const why = 'missing' in setup ? setup.missing : 'did not run';
      const blanks = Array.from({ length: 2 * sets.length - 1 }, () => ' |').join('');
      lines.push(`| ${setup.engine} | not configured (${why}) |${blanks}`);
      continue;
    }
    const cells = result.sets.map(({ judged }) => {
      const f = figures(judged);
      return `${pct(f.answeredRight, f.answerable)} | ${pct(f.correct, f.correct + f.wrong)}`;
    });
    lines.push(`| ${result.setting} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  for (const { engine, setting, sets: engineSets } of report) {
    lines.push(`### Engine ${setting}`, '');
    for (const { set, judged } of engineSets) {
      const all = figures(judged);
      const coverage = all.answerable ? all.answeredRight / all.answerable : 0;
      const precision = all.correct + all.wrong ? all.correct / (all.correct + all.wrong) : 1;
      lines.push(`#### ${engine} · ${set} (${all.n} questions)`, '');
      lines.push(
        `Coverage **${pct(all.answeredRight, all.answerable)}** (${all.answeredRight}/${all.answerable} answerable), ` +
          `precision **${pct(all.correct, all.correct + all.wrong)}** (${all.correct} correct, ${all.wrong} wrong, ` +
          `${all.asked} asked, ${all.error} errors).`,
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
      if (engine === 'builtin' && set === 'held-out') {
        checks.push({
          name: `builtin held-out precision ${pct(all.correct, all.correct + all.wrong)} ≥ 95 %`,
          pass: precision >= TARGET_PRECISION,
        });
        checks.push({
          name: `builtin held-out coverage ${pct(all.answeredRight, all.answerable)} ≥ 70 %`,
          pass: coverage >= TARGET_COVERAGE,
        });
      }
    }
  }
  if (checks.length) {
    lines.push('Targets (builtin, held-out schema):', '');
    for (const check of checks) lines.push(`- ${check.pass ? 'PASS' : 'FAIL'}: ${check.name}`);
  }
  const misses = report.flatMap(({ engine, sets: engineSets }) =>
    engineSets.flatMap(({ set, judged }) =>
      judged
        .filter((j) => j.outcome !== 'correct')
        .map(
          (j) =>
            `| ${engine} | ${set} | ${j.item.id} | ${j.outcome} | ${j.item.question.replace(/\|/g, '/')} | ${j.queryType} |`,
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
  if (sets.length === SETS.length) {
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
  await closeConnectors?.();
  await dynamodb?.stop();
}
