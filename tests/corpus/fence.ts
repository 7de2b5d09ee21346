// The fence corpus (docs/design.md "Each wrapped relation is an optimisation fence"): queries that
// try to read another tenant's or scope's row through an error. Each names its target by key and
// adds a condition that fails on that row (a cast of a text column, to_date, a jsonpath taken
// from a column, a division by zero chosen by a CASE, an overflow on MySQL), in WHERE, ON,
// subqueries, CTEs, LATERAL, ORDER BY, HAVING, windows, set operations and views. With every
// wrapped relation a fence, no such condition ever sees a row the tenant filter removes: the
// query returns no row and no error. The same query on the caller's own row is the control: the
// condition fails there, so the probe is real.
//
// `fence.jsonl` runs on PostgreSQL (schema.sql), `mysql-fence.jsonl` on MySQL/MariaDB
// (mysql-schema.sql, whose functions differ: no casts fail there, overflows and subquery
// cardinality do). `{customer}`, `{order}`, ... stand for keys, filled per context below, written
// out by hand from the seed data rather than derived from the guard's policy code.
//
// Also here: the plan checks. `postgresPlanProblems` reads EXPLAIN (FORMAT JSON): every scan of
// a tenant table may carry only its tenant (and scope) condition and conditions the leakproof
// push-down copied (a column compared with a constant); anything else at that level is an
// outer condition evaluated beside, or before, the tenant filter. `mysqlPlanProblems` reads
// MySQL/MariaDB's EXPLAIN FORMAT=JSON: every tenant table sits in a materialized derived table
// whose only condition is its filter.
import { readFileSync } from 'node:fs';

export interface FenceQuery {
  id: string;
  /** With `{placeholders}` for keys (FenceContext.foreign / own). */
  sql: string;
  /** What the control on the caller's own row does: `error` (default), or `any` (no check). */
  own?: 'error' | 'any';
}

const jsonLines = <T>(name: string): T[] =>
  readFileSync(new URL(name, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

export const fenceQueries = (): FenceQuery[] => jsonLines<FenceQuery>('fence.jsonl');
export const mysqlFenceQueries = (): FenceQuery[] => jsonLines<FenceQuery>('mysql-fence.jsonl');

type Keys = Record<string, string | number>;

export interface FenceContext {
  label: string;
  tenant: number;
  scope?: string;
  /** Keys of rows the context may not see (another tenant's, or its tenant's other scope). */
  foreign: Keys;
  /** Keys of the context's own rows (absent: it owns none, the control is skipped). */
  own: Partial<Keys>;
}

/**
 * schema.sql: customer, order, product, invoice, ticket, "AuditLog" and organization i belong to
 * tenant (i - 1) % 3 + 1; category 3k + t to tenant t; order item i to ((7i) % 150) % 3 + 1.
 * Scopes: customer i is [NULL, alice, bob, carol][i % 4], order i [NULL, alice, bob, carol,
 * alice][i % 5], ticket i [alice, bob, carol][i % 3] (tenant 2 has no ticket of alice's).
 */
export const POSTGRES_FENCE_CONTEXTS: FenceContext[] = [
  {
    label: 'tenant 1',
    tenant: 1,
    foreign: {
      customer: 2,
      order: 2,
      product: 2,
      org: 2,
      invoice: 2,
      ticket: 2,
      audit: 2,
      category: 2,
      item: 1,
      summary_org: 2,
      summary_scope: "'bob'",
    },
    own: {
      customer: 1,
      order: 1,
      product: 1,
      org: 1,
      invoice: 1,
      ticket: 1,
      audit: 1,
      category: 1,
      item: 3,
      summary_org: 1,
      summary_scope: "'bob'",
    },
  },
  {
    // Same tenant, other scope for the scoped tables; another tenant for the rest.
    label: 'tenant 2 / alice',
    tenant: 2,
    scope: 'alice',
    foreign: {
      customer: 2,
      order: 2,
      product: 1,
      org: 1,
      invoice: 1,
      ticket: 2,
      audit: 1,
      category: 1,
      item: 3,
      summary_org: 2,
      summary_scope: "'bob'",
    },
    own: {
      customer: 5,
      order: 11,
      product: 2,
      org: 2,
      invoice: 2,
      audit: 2,
      category: 2,
      item: 1,
      summary_org: 2,
      summary_scope: "'alice'",
    },
  },
];

/** mysql-seed.sql, read off the seed rows (scopes there are listed per row, not by formula). */
export const MYSQL_FENCE_CONTEXTS: FenceContext[] = [
  {
    label: 'tenant 1',
    tenant: 1,
    foreign: {
      customer: 2,
      order: 3,
      product: 2,
      org: 2,
      org_name: "'Globex'",
      invoice: 2,
      ticket: 2,
      item: 5,
      summary_org: 2,
      summary_scope: "'bob'",
    },
    own: {
      customer: 1,
      order: 1,
      product: 1,
      org: 1,
      org_name: "'Acme'",
      invoice: 1,
      ticket: 1,
      item: 1,
      summary_org: 1,
      summary_scope: "'bob'",
    },
  },
  {
    label: 'tenant 2 / alice',
    tenant: 2,
    scope: 'alice',
    foreign: {
      customer: 5,
      order: 3,
      product: 1,
      org: 1,
      org_name: "'Acme'",
      invoice: 1,
      ticket: 4,
      item: 1,
      summary_org: 2,
      summary_scope: "'bob'",
    },
    own: {
      customer: 2,
      order: 9,
      product: 2,
      org: 2,
      org_name: "'Globex'",
      invoice: 2,
      ticket: 19,
      item: 5,
      summary_org: 2,
      summary_scope: "'alice'",
    },
  },
];

/** The query with its keys filled, or undefined when the context lacks one of them. */
export const fill = (sql: string, keys: Partial<Keys>): string | undefined => {
  let missing = false;
  const filled = sql.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = keys[name];
    if (value === undefined) missing = true;
    return String(value);
  });
  return missing ? undefined : filled;
};

/**
 * The guard's printed SQL with the fences taken out: what the rewrite printed before them
 * (tests use it to show that the corpus and the plan checks catch an unfenced wrapper).
 */
export const unfenced = (sql: string): string =>
  sql.replaceAll(' OFFSET 0 )', ' )').replaceAll(' LIMIT 18446744073709551615)', ')');

// ---- Plans ------------------------------------------------------------------------------------

/** Tenant (and scope) column of each tenant table of both sample schemas, by table name. */
export const TENANT_TABLES: Record<string, { tenant: string; scope?: string }> = {
  organizations: { tenant: 'id' },
  customers: { tenant: 'org_id', scope: 'scope_id' },
  products: { tenant: 'org_id' },
  orders: { tenant: 'org_id', scope: 'scope_id' },
  order_items: { tenant: 'org_id' },
  invoices: { tenant: 'organization_id' },
  tickets: { tenant: 'org_id', scope: 'scope_id' },
  categories: { tenant: 'org_id' },
  AuditLog: { tenant: 'org_id' },
  daily_metrics: { tenant: 'org_id' },
};

/** `((a) AND (b))` → ['a', 'b']: the top-level conjuncts of a printed condition, unparenthesized. */
export const conjuncts = (condition: string, and = ' AND '): string[] => {
  const strip = (text: string): string => {
    let inner = text.trim();
    for (;;) {
      if (!inner.startsWith('(') || !inner.endsWith(')')) return inner;
      let depth = 0;
      let closesAtEnd = true;
      for (let i = 0; i < inner.length; i++) {
        if (inner[i] === '(') depth++;
        else if (inner[i] === ')') depth--;
        if (depth === 0 && i < inner.length - 1) {
          closesAtEnd = false;
          break;
        }
      }
      if (!closesAtEnd) return inner;
      inner = inner.slice(1, -1).trim();
    }
  };
  const text = strip(condition);
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "'") quoted = !quoted;
    if (quoted) continue;
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (depth === 0 && text.slice(i, i + and.length).toLowerCase() === and.toLowerCase()) {
      parts.push(strip(text.slice(start, i)));
      start = i + and.length;
      i += and.length - 1;
    }
  }
  parts.push(strip(text.slice(start)));
  return parts;
};

const COLUMN = String.raw`(?:"?[A-Za-z_][A-Za-z0-9_]*"?\.)?"?[A-Za-z_][A-Za-z0-9_]*"?`;
const CONSTANT = String.raw`(?:-?\d+|'(?:[^']|'')*'::[a-z ]+(?:\[\])?|true|false)`;
/** What the leakproof push-down may leave beside a tenant filter: a column against constants. */
const LEAKPROOF = [
  new RegExp(`^${COLUMN} (?:=|<>|<|>|<=|>=) ${CONSTANT}$`),
  new RegExp(`^${COLUMN} (?:= ANY|<> ALL) \\(${CONSTANT}\\)$`),
  new RegExp(`^${COLUMN} IS NOT NULL$`),
  // `vip = true` / `paid = false` on a boolean column, as EXPLAIN prints them.
  new RegExp(`^(?:NOT )?${COLUMN}$`),
];

interface PlanNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

const SCAN_CONDITIONS = ['Filter', 'Index Cond', 'Recheck Cond', 'TID Cond'];

/**
 * Problems of a PostgreSQL plan (EXPLAIN (FORMAT JSON) with the parameters bound): a scan of a
 * tenant table (or the Bitmap Index Scan under it) with a condition that is neither its tenant
 * or scope filter nor a leakproof column-to-constant comparison, or without its tenant filter.
 */
export const postgresPlanProblems = (
  explained: unknown,
  context: { tenant: number; scope?: string },
): string[] => {
  const problems: string[] = [];
  const tenantTerm = (column: string) => new RegExp(`^(?:\\w+\\.)?${column} = ${context.tenant}$`);
  const visit = (node: PlanNode, heap?: { name: string; seen: string[] }): void => {
    const name = node['Relation Name'];
    const table = name !== undefined ? TENANT_TABLES[name] : undefined;
    const scan = table && name ? { name, seen: [] as string[] } : heap;
    if (scan) {
      for (const key of SCAN_CONDITIONS) {
        const condition = node[key];
        if (typeof condition !== 'string') continue;
        for (const term of conjuncts(condition)) {
          scan.seen.push(term);
          if (!LEAKPROOF.some((pattern) => pattern.test(term))) {
            problems.push(`${scan.name}: ${key} ${term} is evaluated beside the tenant filter`);
          }
        }
      }
    }
    const heapScan = node['Node Type'] === 'Bitmap Heap Scan' ? scan : undefined;
    for (const child of node.Plans ?? []) visit(child, heapScan);
    if (table && scan && !scan.seen.some((term) => tenantTerm(table.tenant).test(term))) {
      problems.push(`${scan.name} is scanned without its tenant filter (${scan.seen.join(' AND ')})`);
    }
    const scopeTerm = `${table?.scope} = '${context.scope}'::text`;
    if (
      table?.scope &&
      context.scope !== undefined &&
      scan &&
      !scan.seen.some((t) => t.endsWith(scopeTerm))
    ) {
      problems.push(`${scan.name} is scanned without its scope filter (${scan.seen.join(' AND ')})`);
    }
  };
  const root = (explained as { Plan: PlanNode }[])[0]?.Plan;
  if (!root) return ['no plan'];
  visit(root);
  return problems;
};

/**
 * Problems of a MySQL/MariaDB plan (EXPLAIN FORMAT=JSON): a tenant table outside a
 * materialized derived table (merged into the outer query), or with a condition other than its
 * tenant and scope terms attached (pushed down into the derived table).
 */
export const mysqlPlanProblems = (
  explained: unknown,
  context: { tenant: number; scope?: string },
): string[] => {
  const problems: string[] = [];
  const allowed = (table: string, term: string): boolean => {
    const { tenant, scope } = TENANT_TABLES[table]!;
    const column = String.raw`(?:\`?${table}\`?\.)?\`?`;
    const patterns = [new RegExp(`^${column}${tenant}\`? = ${context.tenant}$`)];
    if (scope && context.scope !== undefined) {
      const value = `'${context.scope}'`;
      patterns.push(new RegExp(`^${column}${scope}\`? = ${value}$`));
      patterns.push(
        new RegExp(`^cast\\(${column}${scope}\`? as (?:char charset )?binary\\) = ${value}$`, 'i'),
      );
    }
    return patterns.some((pattern) => pattern.test(term));
  };
  const visit = (node: unknown, materialized: boolean): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, materialized);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    const name = typeof record.table_name === 'string' ? record.table_name : undefined;
    if (name !== undefined && TENANT_TABLES[name]) {
      if (!materialized) problems.push(`${name} is read outside a materialized derived table`);
      for (const key of ['attached_condition', 'index_condition']) {
        const condition = record[key];
        if (typeof condition !== 'string') continue;
        for (const term of conjuncts(condition, ' and ')) {
          if (!allowed(name, term)) problems.push(`${name}: ${key} ${term} is evaluated beside its filter`);
        }
      }
    }
    for (const [key, child] of Object.entries(record)) {
      visit(child, materialized || key === 'materialized' || key === 'materialized_from_subquery');
    }
  };
  visit(explained, false);
  return problems;
};
