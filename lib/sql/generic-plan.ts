// The statement whose plan the cost ceiling reads (docs/design.md "Isolation against an attacker:
// second round": cost decisions never depend on literal values). The planner estimates a
// condition on a constant (`city = 'Kyoto'`) from statistics gathered over every tenant's rows, so
// the cost of a guarded query told one tenant how common a value is among the others'. The
// ceiling therefore plans the statement with its constants turned into parameters, under a
// generic plan (lib/connectors/postgres.ts, pglite-worker.ts: PREPARE with
// plan_cache_mode = force_generic_plan, then EXPLAIN EXECUTE), where a condition on a parameter
// is estimated the same whatever value it is given.
// Constants that shape the statement rather than filter it stay as they are: positions in
// GROUP BY / ORDER BY / DISTINCT ON, LIMIT and OFFSET, and type modifiers (`varchar(10)`).
import { loadPostgresParser, type PgNode, parseStatements, printStatement } from './postgres-parser.ts';

/**
 * Arguments that name a unit or a format rather than a value (`date_trunc('month', …)`,
 * `to_char(…, 'YYYY-MM')`): kept, since a parameter there leaves the call's type undecided and
 * the statement could not be prepared; they are never compared with data.
 */
const UNIT_ARGUMENTS: Record<string, number> = {
  date_trunc: 0,
  date_part: 0,
  extract: 0,
  to_char: 1,
  to_date: 1,
  to_timestamp: 1,
  to_number: 1,
};

/** Fields whose constants are not values compared with data. */
const SHAPE_FIELDS = new Set([
  'groupClause',
  'sortClause',
  'distinctClause',
  'limitCount',
  'limitOffset',
  'typmods',
]);

export interface GenericStatement {
  /** The statement with every value constant as a parameter `$n`, numbered after the bound ones. */
  sql: string;
  /** How many parameters it has in all (the bound ones first). */
  parameters: number;
}

/**
 * The guarded statement with its value constants as parameters numbered after its `bound`
 * parameters; undefined when it is not one statement the parser reads back (then no plan is
 * read, and the statement timeout is the only bound).
 */
export const genericStatement = (sql: string, bound: number): GenericStatement | undefined => {
  let statements: PgNode[];
  try {
    statements = parseStatements(sql);
  } catch {
    return undefined;
  }
  if (statements.length !== 1) return undefined;
  let next = bound;
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const node = value as PgNode;
    const constant = node.A_Const as PgNode | undefined;
    if (constant && !constant.isnull) {
      next += 1;
      return { ParamRef: { number: next } };
    }
    const call = node.FuncCall as PgNode | undefined;
    const names = Array.isArray(call?.funcname) ? (call.funcname as PgNode[]) : [];
    const last = names.at(-1)?.String as PgNode | undefined;
    const unit = typeof last?.sval === 'string' ? UNIT_ARGUMENTS[last.sval.toLowerCase()] : undefined;
    if (call && unit !== undefined && Array.isArray(call.args)) {
      const args = (call.args as unknown[]).map((arg, index) =>
        index === unit && (arg as PgNode)?.A_Const ? arg : visit(arg),
      );
      return {
        FuncCall: Object.fromEntries(
          Object.entries(call).map(([key, child]) => [key, key === 'args' ? args : visit(child)]),
        ),
      };
    }
    return Object.fromEntries(
      Object.entries(node).map(([key, child]) => [key, SHAPE_FIELDS.has(key) ? child : visit(child)]),
    );
  };
  const statement = visit(statements[0]) as PgNode;
  try {
    return { sql: printStatement(statement), parameters: next };
  } catch {
    return undefined;
  }
};

/** genericStatement once the parser is loaded (the connectors call it before the ceiling). */
export const costStatement = async (sql: string, bound: number): Promise<GenericStatement | undefined> => {
  await loadPostgresParser();
  return genericStatement(sql, bound);
};
