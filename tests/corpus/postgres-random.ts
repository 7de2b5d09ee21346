// Random queries over tests/corpus/schema.sql for the PostgreSQL guard's property test: joins of
// every kind, LATERAL, subqueries in FROM and WHERE (IN, EXISTS, scalar), set operations, CTEs
// (recursive ones too) whose names shadow real tables, and schema-qualified names that bypass
// them. Every generated SELECT returns two integer columns, `a` (a key) and `b` (the tenant
// column of some relation it read), so any two are union-compatible.
//
// The generator keeps its own model of name resolution (which unqualified names are CTEs where),
// written from PostgreSQL's rules rather than from the guard's code; the test requires each
// generated query to run on the tenant copy, so a wrong model shows up as a failing query.
import fc from 'fast-check';

interface Table {
  name: string;
  /** Join keys (columns or expressions of `$`, the alias); never the tenant column alone. */
  keys: string[];
  /** The tenant column; undefined for the shared table. */
  tenant?: string;
}

const TABLES: Table[] = [
  { name: 'customers', keys: ['$.id'], tenant: 'org_id' },
  { name: 'orders', keys: ['$.id', '$.customer_id'], tenant: 'org_id' },
  { name: 'order_items', keys: ['$.id', '$.order_id', '$.product_id'], tenant: 'org_id' },
  { name: 'products', keys: ['$.id'], tenant: 'org_id' },
  { name: 'invoices', keys: ['$.id', '$.order_id'], tenant: 'organization_id' },
  { name: 'tickets', keys: ['$.id', '$.priority'], tenant: 'org_id' },
  { name: 'categories', keys: ['$.id', '$.parent_id'], tenant: 'org_id' },
  { name: 'organizations', keys: ['$.id'], tenant: 'id' },
  { name: 'countries', keys: ['length($.name)'] },
];

/** Names CTEs take: some shadow tables. */
const CTE_NAMES = ['w1', 'w2', 'orders', 'customers', 'categories'];

type Gen = fc.GeneratorValue;

interface Source {
  sql: string;
  keys: string[];
  tenant: string;
}

/**
 * Names in scope: `visible` CTE names hide same-named tables from unqualified references;
 * `usable` ones may be read here (a recursive CTE's non-recursive term, for one, must not read
 * itself or a CTE that reads it).
 */
interface Env {
  visible: readonly string[];
  usable: readonly string[];
}

class QueryBuilder {
  readonly #g: Gen;
  #aliases = 0;

  constructor(g: Gen) {
    this.#g = g;
  }

  #pick<T>(items: readonly T[]): T {
    return items[this.#g(fc.nat, { max: items.length - 1 })]!;
  }

  #chance(percent: number): boolean {
    return this.#g(fc.nat, { max: 99 }) < percent;
  }

  #alias(): string {
    this.#aliases++;
    return `x${this.#aliases}`;
  }

  /** A table reference; when a CTE of the same name is visible, only `public.` reaches the table. */
  #table(env: Env): Source {
    const table = this.#pick(TABLES);
    const alias = this.#alias();
    if (env.usable.includes(table.name) && this.#chance(50)) return this.#cte(table.name, alias);
    const qualified = env.visible.includes(table.name) || this.#chance(30);
    return {
      sql: `${qualified ? 'public.' : ''}${table.name} ${alias}`,
      keys: table.keys.map((key) => key.replaceAll('$', alias)),
      tenant: table.tenant ? `${alias}.${table.tenant}` : '0',
    };
  }

  #cte(name: string, alias = this.#alias()): Source {
    return { sql: `${name} ${alias}`, keys: [`${alias}.a`], tenant: `${alias}.b` };
  }

  #source(depth: number, env: Env): Source {
    const kinds = ['table', 'table', 'table'];
    if (env.usable.length > 0) kinds.push('cte');
    if (depth > 0) kinds.push('subquery', 'join', 'join', 'lateral');
    switch (this.#pick(kinds)) {
      case 'cte':
        return this.#cte(this.#pick(env.usable));
      case 'subquery': {
        const alias = this.#alias();
        return {
          sql: `(${this.query(depth - 1, env)}) ${alias}`,
          keys: [`${alias}.a`],
          tenant: `${alias}.b`,
        };
      }
      case 'join': {
        const left = this.#source(depth - 1, env);
        const right = this.#source(depth - 1, env);
        const kind = this.#pick(['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN']);
        return {
          sql: `${left.sql} ${kind} ${right.sql} ON ${this.#pick(left.keys)} = ${this.#pick(right.keys)}`,
          keys: [...left.keys, ...right.keys],
          tenant: this.#pick([left.tenant, right.tenant]),
        };
      }
      case 'lateral': {
        const left = this.#source(depth - 1, env);
        const inner = this.#table(env);
        const alias = this.#alias();
        const body = `SELECT ${this.#pick(inner.keys)} AS a, ${inner.tenant} AS b FROM ${inner.sql} WHERE ${this.#pick(inner.keys)} = ${this.#pick(left.keys)}`;
        const join = this.#chance(50)
          ? `CROSS JOIN LATERAL (${body}) ${alias}`
          : `LEFT JOIN LATERAL (${body}) ${alias} ON true`;
        return { sql: `${left.sql} ${join}`, keys: [...left.keys, `${alias}.a`], tenant: `${alias}.b` };
      }
      default:
        return this.#table(env);
    }
  }

  #predicate(depth: number, env: Env, source: Source): string {
    const key = this.#pick(source.keys);
    const kinds = ['compare', 'null'];
    if (depth > 0) kinds.push('in', 'exists', 'not-exists', 'scalar', 'and', 'or');
    switch (this.#pick(kinds)) {
      case 'in':
        return `${key} ${this.#chance(30) ? 'NOT IN' : 'IN'} (SELECT a FROM (${this.query(depth - 1, env)}) ${this.#alias()} WHERE a IS NOT NULL)`;
      case 'exists':
      case 'not-exists': {
        const inner = this.#table(env);
        const negated = this.#chance(50) ? 'NOT ' : '';
        return `${negated}EXISTS (SELECT 1 FROM ${inner.sql} WHERE ${this.#pick(inner.keys)} = ${key})`;
      }
      case 'scalar':
        return `${key} <= (SELECT max(a) FROM (${this.query(depth - 1, env)}) ${this.#alias()})`;
      case 'and':
        return `(${this.#predicate(depth - 1, env, source)} AND ${this.#predicate(depth - 1, env, source)})`;
      case 'or':
        return `(${this.#predicate(depth - 1, env, source)} OR ${this.#predicate(depth - 1, env, source)})`;
      case 'null':
        return `${key} IS NOT NULL`;
      default:
        return `${key} ${this.#pick(['>', '<', '<>'])} ${this.#g(fc.nat, { max: 40 })}`;
    }
  }

  #select(depth: number, env: Env): string {
    const source = this.#source(depth, env);
    const where = this.#chance(60) ? ` WHERE ${this.#predicate(depth, env, source)}` : '';
    const distinct = this.#chance(15) ? 'DISTINCT ' : '';
    return `SELECT ${distinct}${this.#pick(source.keys)} AS a, ${source.tenant} AS b FROM ${source.sql}${where}`;
  }

  /** A recursive CTE over a table (UNION keeps it finite: the values are finite). */
  #recursive(name: string, env: Env): string {
    const table = this.#pick(TABLES.filter((t) => t.keys.length > 1 && t.tenant));
    const alias = this.#alias();
    const start = this.#select(0, env);
    const qualified = env.visible.includes(table.name) ? 'public.' : '';
    const [key, link] = [table.keys[0]!, table.keys[1]!].map((k) => k.replaceAll('$', alias));
    return `${name}(a, b) AS (${start} UNION SELECT ${key}, ${alias}.${table.tenant} FROM ${name} JOIN ${qualified}${table.name} ${alias} ON ${link} = ${name}.a)`;
  }

  query(depth: number, outer: Env = { visible: [], usable: [] }): string {
    let env = outer;
    let prefix = '';
    if (depth > 0 && this.#chance(35)) {
      const count = 1 + this.#g(fc.nat, { max: 1 });
      const names = [...new Set(Array.from({ length: count }, () => this.#pick(CTE_NAMES)))];
      const recursive = this.#chance(35);
      const visible = [...outer.visible, ...names];
      const definitions = names.map((name, index) => {
        // WITH RECURSIVE: every CTE of the list is in scope everywhere in it; the first one
        // recurses, the others may read it (never each other, which would be mutual recursion).
        if (recursive && index === 0) return this.#recursive(name, { visible, usable: outer.usable });
        const before = names.slice(0, index);
        const body = recursive
          ? this.query(depth - 1, { visible, usable: [...outer.usable, names[0]!] })
          : this.query(depth - 1, {
              visible: [...outer.visible, ...before],
              usable: [...outer.usable, ...before],
            });
        return `${name} AS (${body})`;
      });
      prefix = `WITH ${recursive ? 'RECURSIVE ' : ''}${definitions.join(', ')} `;
      env = { visible, usable: [...outer.usable, ...names] };
    }
    let body = this.#select(depth, env);
    if (this.#chance(30)) {
      const op = this.#pick(['UNION', 'UNION ALL', 'INTERSECT', 'EXCEPT', 'INTERSECT ALL', 'EXCEPT ALL']);
      body = `${body} ${op} ${this.#select(Math.max(0, depth - 1), env)}`;
    }
    return `${prefix}${body}`;
  }
}

/** A random query of at most `depth` levels of nesting. */
export const randomQuery = (g: Gen, depth = 2): string => new QueryBuilder(g).query(depth);
