// npm run eval -- --linking: what the model engines put in their prompts, measured without a
// model (docs/model-engines.md "Measuring linking"). Every question of every set with gold SQL
// (eval/sets.ts), and the three paraphrase sets of the 50-table fixture (eval/wide/paraphrase.jsonl,
// paraphrase-2.jsonl and paraphrase-3.jsonl, each written by someone who never saw the linker),
// is proposed through the OpenAI-compatible engine against a local recording server; from each
// recorded request it reads:
//   - table recall: the gold query's relations among those detailed in <schema>;
//   - column recall: the gold query's columns among those detailed for their relation;
//   - value recall: the gold query's text literals anywhere in the prompt (LIKE wildcards and
//     case aside);
//   - prompt tokens (system + messages, js-tiktoken cl100k_base), p50 and p95.
// The gold relations and columns of a set's SQL are the catalog's names the SQL mentions (a
// column counts for a gold relation that has it); the paraphrase set lists its own. A follow-up
// (`follow_up_of`) is asked with its conversation, as `npm run eval` asks it: the earlier
// questions of its chain, each answered by this engine with its gold SQL (what the model wrote
// when it got that question right).
//
//   npm run eval -- --linking [--sets demo,dev,…,wide-paraphrase,wide-paraphrase-2,wide-paraphrase-3] [--verbose]
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { PriorTurn } from '#lib/answer/engine.ts';
import { createOpenAiEngine, OPENAI_ENGINE } from '#lib/answer/engines/openai.ts';
import { countTokens } from '#lib/answer/engines/tokens.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import { root } from '../local/stack.ts';
import { wideCatalog } from '../tests/fixtures/catalogs/wide.ts';
import { loadEvalDatabase } from './load.ts';
import { type EvalDatabase, SETS } from './sets.ts';

interface LinkingItem {
  id: string;
  question: string;
  database: string;
  gold_sql: string;
  follow_up_of?: string;
  /** Given by the set (the paraphrase set); else read from gold_sql. */
  tables?: string[];
  columns?: string[];
  values?: string[];
}

interface LinkingSet {
  name: string;
  databases: Map<string, { catalog: Catalog; tenantColumn?: string; glossary?: Glossary }>;
  items: LinkingItem[];
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const verbose = args.includes('--verbose');
const wanted = option('--sets')?.split(',');
/** The paraphrase sets of the 50-table fixture: set name → file. */
const WIDE_SETS = [
  ['wide-paraphrase', 'eval/wide/paraphrase.jsonl'],
  ['wide-paraphrase-2', 'eval/wide/paraphrase-2.jsonl'],
  ['wide-paraphrase-3', 'eval/wide/paraphrase-3.jsonl'],
] as const;

// ---- a recording OpenAI-compatible server ------------------------------------------------------

const recorded: { messages: { role: string; content: string }[] }[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    recorded.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-linking',
        object: 'chat.completion',
        created: 0,
        model: 'recording',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: '{"kind":"conversational","message":"recorded"}' },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      }),
    );
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const engine = createOpenAiEngine({
  baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
  apiKey: 'recording',
  model: 'recording',
});

// ---- the sets ----------------------------------------------------------------------------------

/** A set's database as the engine sees it; the seeded copy is not needed afterwards. */
const load = async (spec: EvalDatabase) => {
  const { db, visible, policy, glossary } = await loadEvalDatabase(spec);
  await db.close();
  return {
    catalog: visible,
    ...(policy.tenantColumn ? { tenantColumn: policy.tenantColumn } : {}),
    ...(glossary ? { glossary } : {}),
  };
};

const sets: LinkingSet[] = [];
for (const set of SETS) {
  if (wanted && !wanted.includes(set.name)) continue;
  const items = set.items()?.filter((item) => item.gold_sql && item.expect === 'answer');
  if (!items || items.length === 0) {
    console.log(`${set.name}: skipped (${set.missing ?? 'no gold SQL'})`);
    continue;
  }
  const databases: LinkingSet['databases'] = new Map();
  for (const spec of set.databases) databases.set(spec.key, await load(spec));
  sets.push({
    name: set.name,
    databases,
    items: items.map((item) => ({
      id: item.id,
      question: item.question,
      database: item.database ?? set.databases[0]!.key,
      gold_sql: item.gold_sql!,
      ...(item.follow_up_of ? { follow_up_of: item.follow_up_of } : {}),
    })),
  });
}
for (const [name, file] of WIDE_SETS) {
  if (wanted && !wanted.includes(name)) continue;
  const items = readFileSync(join(root, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ ...(JSON.parse(line) as Omit<LinkingItem, 'database'>), database: 'wide' }));
  sets.push({
    name,
    databases: new Map([['wide', { catalog: wideCatalog, tenantColumn: 'org_id' }]]),
    items,
  });
}

// ---- gold and prompt ---------------------------------------------------------------------------

const identifiersOf = (sql: string): Set<string> =>
  new Set(
    [...sql.replace(/'(?:[^']|'')*'/g, ' ').matchAll(/"([^"]+)"|([A-Za-z_][A-Za-z0-9_$]*)/g)].map((m) =>
      (m[1] ?? m[2] ?? '').toLowerCase(),
    ),
  );

const goldOf = (item: LinkingItem, catalog: Catalog, tenantColumn: string | undefined) => {
  const names = identifiersOf(item.gold_sql);
  const tables =
    item.tables?.map((t) => t.toLowerCase().split('.').pop()!) ??
    catalog.relations.filter((r) => names.has(r.name.toLowerCase())).map((r) => r.name.toLowerCase());
  const columns =
    item.columns?.map((c) => {
      const parts = c.toLowerCase().split('.');
      return parts.length >= 2 ? `${parts.at(-2)}.${parts.at(-1)}` : parts[0]!;
    }) ??
    catalog.relations
      .filter((r) => tables.includes(r.name.toLowerCase()))
      .flatMap((r) =>
        r.columns
          .filter((c) => c.name !== tenantColumn && names.has(c.name.toLowerCase()))
          .map((c) => `${r.name.toLowerCase()}.${c.name.toLowerCase()}`),
      );
  const values =
    item.values ??
    [...item.gold_sql.matchAll(/'((?:[^']|'')*)'/g)]
      .map((m) => m[1]!.replaceAll("''", "'").replace(/^%|%$/g, ''))
      .filter(
        (value) =>
          value.trim() !== '' &&
          !/^[\d\s:.\-+T]+$/.test(value) &&
          !/^\d+ (?:day|month|year|week)s?$/i.test(value),
      );
  return { tables: [...new Set(tables)], columns: [...new Set(columns)], values: [...new Set(values)] };
};

/** Relation → columns detailed in the <schema> section of a user message. */
const detailed = (content: string): Map<string, Set<string>> => {
  const body = content.slice(content.indexOf('<schema>') + 8, content.indexOf('</schema>'));
  const shown = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of body.split('\n')) {
    const relation = /^("?[^\s"(]+"?)(?:\.("?[^\s"(]+"?))? \(/.exec(line);
    if (relation && !line.startsWith(' ')) {
      const name = (relation[2] ?? relation[1]!).replaceAll('"', '').toLowerCase();
      current = new Set();
      shown.set(name, current);
    } else if (current && /^ {2}\S/.test(line)) {
      const column = /^ {2}("(?:[^"\\]|\\.)*"|[^\s]+) /.exec(line)?.[1];
      if (column) current.add((column.startsWith('"') ? JSON.parse(column) : column).toLowerCase());
    }
  }
  return shown;
};

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const percent = (hit: number, total: number) =>
  total === 0 ? 'n/a' : `${((100 * hit) / total).toFixed(1)} %`;

console.log(
  'set                 questions  table recall  column recall  value recall  prompt tokens p50 / p95',
);
/** The conversation before a follow-up: its chain of earlier questions, oldest first. */
const historyOf = (set: LinkingSet, item: LinkingItem): PriorTurn[] => {
  const byId = new Map(set.items.map((each) => [each.id, each]));
  const turns: PriorTurn[] = [];
  for (let earlier = item.follow_up_of ? byId.get(item.follow_up_of) : undefined; earlier; ) {
    turns.unshift({
      question: earlier.question,
      kind: 'sql',
      engine: OPENAI_ENGINE,
      state: { v: 1, sql: earlier.gold_sql, description: 'The earlier answer' },
    });
    earlier = earlier.follow_up_of ? byId.get(earlier.follow_up_of) : undefined;
  }
  return turns;
};

for (const set of sets) {
  const counts = { tables: [0, 0], columns: [0, 0], values: [0, 0] };
  const tokens: number[] = [];
  for (const item of set.items) {
    const database = set.databases.get(item.database)!;
    recorded.length = 0;
    await engine.propose({
      question: item.question,
      catalog: database.catalog,
      dialect: 'postgres',
      history: historyOf(set, item),
      now: new Date('2026-03-15T10:30:00.000Z'),
      ...(database.tenantColumn ? { tenantColumn: database.tenantColumn } : {}),
      ...(database.glossary ? { glossary: database.glossary } : {}),
    });
    const messages = recorded[0]?.messages ?? [];
    const prompt = messages.map((m) => m.content).join('\n');
    tokens.push(countTokens(prompt));
    const user = messages.find((m) => m.role === 'user')?.content ?? '';
    const shown = detailed(user);
    const gold = goldOf(item, database.catalog, database.tenantColumn);
    const misses: string[] = [];
    for (const table of gold.tables) {
      counts.tables[1]!++;
      if (shown.has(table)) counts.tables[0]!++;
      else misses.push(`table ${table}`);
    }
    for (const column of gold.columns) {
      counts.columns[1]!++;
      const [table, name] = column.includes('.') ? column.split('.') : [undefined, column];
      const hit = table ? shown.get(table)?.has(name!) : [...shown.values()].some((c) => c.has(name!));
      if (hit) counts.columns[0]!++;
      else misses.push(`column ${column}`);
    }
    const lower = prompt.toLowerCase();
    for (const value of gold.values) {
      counts.values[1]!++;
      if (lower.includes(JSON.stringify(value).slice(1, -1).toLowerCase())) counts.values[0]!++;
      else misses.push(`value ${value}`);
    }
    if (verbose && misses.length > 0)
      console.log(`  ${set.name} ${item.id}: ${item.question} — missed ${misses.join(', ')}`);
  }
  console.log(
    `${set.name.padEnd(20)}${String(set.items.length).padStart(9)}  ${percent(counts.tables[0]!, counts.tables[1]!).padStart(12)}  ${percent(counts.columns[0]!, counts.columns[1]!).padStart(13)}  ${percent(counts.values[0]!, counts.values[1]!).padStart(12)}  ${String(percentile(tokens, 50)).padStart(9)} / ${percentile(tokens, 95)}`,
  );
}
server.close();
