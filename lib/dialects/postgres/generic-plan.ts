// The statement whose plan the cost ceiling reads (docs/design.md "Isolation against an attacker:
// second round": cost decisions never depend on literal values). The planner estimates a
// condition on a constant (`city = 'Kyoto'`) from statistics gathered over every tenant's rows, so
// the cost of a guarded query told one tenant how common a value is among the others'. The
// ceiling therefore plans the statement with its constants turned into parameters, under a
// generic plan (connector.ts, pglite-worker.ts: PREPARE with
// plan_cache_mode = force_generic_plan, then EXPLAIN EXECUTE), where a condition on a parameter
// is estimated the same whatever value it is given.
// Constants that shape the statement rather than filter it stay as they are: a bare integer that
// is a whole item of GROUP BY / ORDER BY / DISTINCT ON (a position) or the whole of LIMIT / OFFSET,
// type modifiers (`varchar(10)`) and the marks of a CYCLE clause. Everything else in those
// clauses (expressions, subqueries and the constants inside them) is a value like any other and
// becomes a parameter: a literal inside `ORDER BY (SELECT count(*) … WHERE city = 'Kyoto')`
// filters rows just as one in WHERE. A statement that cannot be prepared with untyped parameters
// is prepared again with each parameter cast to its constant's own type (`typedSql`); see
// generic-cost.ts.
import { loadPostgresParser, type PgNode, parseStatements, printStatement } from './parser.ts';

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

/** Lists whose bare integer items are positions, not values. */
const POSITION_LISTS = new Set(['groupClause', 'sortClause', 'distinctClause']);
/** Fields whose bare integer is a row count, not a value. */
const COUNT_FIELDS = new Set(['limitCount', 'limitOffset']);

/** The marks of `CYCLE … SET mark TO value DEFAULT value`: constants by the grammar, never compared with data. */
const CYCLE_MARKS = new Set(['cycle_mark_value', 'cycle_mark_default']);

/** A bare integer constant (`1`, `0`): the parser gives it an `ival` member. */
const isInteger = (node: unknown): boolean => {
  const constant = (node as PgNode | null)?.A_Const as PgNode | undefined;
  return constant !== undefined && !constant.isnull && constant.ival !== undefined;
};

/** The type a constant has on its own, for the typed form of the statement. */
const constantType = (constant: PgNode): string => {
  if (constant.ival !== undefined) return 'integer';
  if (constant.fval !== undefined) return 'numeric';
  if (constant.boolval !== undefined) return 'boolean';
  if (constant.bsval !== undefined) return 'varbit';
  return 'text';
};

export interface GenericStatement {
  /** The statement with every value constant as a parameter `$n`, numbered after the bound ones. */
  sql: string;
  /** How many parameters it has in all (the bound ones first). */
  parameters: number;
  /**
   * The same statement with each new parameter cast to its constant's own type (`$2::text`,
   * `$3::integer`), for a statement whose untyped parameters leave a type undecided.
   */
  typedSql: string;
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
  let typed = false;
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const node = value as PgNode;
    const constant = node.A_Const as PgNode | undefined;
    if (constant && !constant.isnull) {
      next += 1;
      const parameter = { ParamRef: { number: next } };
      if (!typed) return parameter;
      return {
        TypeCast: {
          arg: parameter,
          typeName: { names: [{ String: { sval: constantType(constant) } }], typemod: -1 },
        },
      };
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
      Object.entries(node).map(([key, child]) => {
        if (key === 'typmods' || CYCLE_MARKS.has(key)) return [key, child];
        if (COUNT_FIELDS.has(key)) return [key, isInteger(child) ? child : visit(child)];
        if (POSITION_LISTS.has(key) && Array.isArray(child)) return [key, child.map(position)];
        return [key, visit(child)];
      }),
    );
  };
  /** An item of GROUP BY / ORDER BY / DISTINCT ON: kept when it is a position, visited otherwise. */
  const position = (item: unknown): unknown => {
    if (isInteger(item)) return item;
    const sort = (item as PgNode | null)?.SortBy as PgNode | undefined;
    if (sort && isInteger(sort.node)) return item;
    return visit(item);
  };
  const generic = (withTypes: boolean): string => {
    next = bound;
    typed = withTypes;
    return printStatement(visit(statements[0]) as PgNode);
  };
  try {
    const sql = generic(false);
    return { sql, typedSql: generic(true), parameters: next };
  } catch {
    return undefined;
  }
};

/** genericStatement once the parser is loaded (the connectors call it before the ceiling). */
export const costStatement = async (sql: string, bound: number): Promise<GenericStatement | undefined> => {
  await loadPostgresParser();
  return genericStatement(sql, bound);
};
