// Recursive queries are bounded (docs/design.md "Recursion"). A recursive CTE whose step builds
// a value bigger than the one it read grows it every step: `s || s`, concat(s, s), but also
// replace(s, 'a', 'aa') or regexp_replace(s, '(.)', '\1\1', 'g') with one reference, and the same
// computed in a LATERAL or derived table, a nested WITH or a scalar subquery of the step. From 16
// characters, 26 doublings ask the server for a gigabyte per row, which neither the statement
// timeout nor the cost ceiling sees. Counting references cannot be complete, so the rule is an
// allow-list, complete by construction: in a recursive arm (an arm of the CTE that reads the CTE)
// every value the step outputs, and every value computed by any SELECT list, VALUES list or
// function in FROM inside that arm, is BOUNDED:
//   - a column reference (not a whole previous row, `r` or `r.*`, whose text nests the row's
//     own text with its quotes doubled; a plain `r.*` output of the step only lists columns),
//     a constant, a parameter, a cast of a bounded value;
//   - arithmetic (+ - * / % ^) of bounded values; a comparison or boolean test (a boolean);
//   - CASE / COALESCE / NULLIF / GREATEST / LEAST of bounded values;
//   - a function from NUMBER_FUNCTIONS (the result is a number or a date, whatever the
//     arguments) or from NO_LONGER_FUNCTIONS (the result is no longer than its bounded
//     arguments: lower, substr, trim, min, max, …);
//   - a scalar, EXISTS or IN subquery (its own SELECT list is checked the same way).
// Anything else — `||`, concat, replace, regexp_replace, repeat, lpad, format, array and row
// constructors, ARRAY(subquery), string_agg, array_agg, json builders, jsonb operators,
// unknown functions — is refused with SIZE_NOT_BOUNDED. One exception keeps the usual path query
// (`p.route || ' > ' || c.name`): an output of the step itself may be a concatenation whose
// pieces are constants, columns of plain tables of the step's FROM and at most ONE column of
// the CTE. It grows by at most one stored value per step — linearly, so the statement timeout
// (the copying is quadratic) ends it long before memory does. Both guards call these on every CTE
// of a WITH RECURSIVE.
import type { SqlNode as PgNode } from './tree.ts';

/** Functions whose result is a number, a boolean or a date whatever their arguments are. */
const NUMBER_FUNCTIONS = new Set([
  'count',
  'sum',
  'avg',
  'length',
  'char_length',
  'character_length',
  'octet_length',
  'bit_length',
  'array_length',
  'cardinality',
  'strpos',
  'position',
  'locate',
  'instr',
  'date_part',
  'extract',
  'year',
  'month',
  'day',
  'dayofmonth',
  'dayofweek',
  'dayofyear',
  'hour',
  'minute',
  'second',
  'week',
  'quarter',
  'datediff',
  'now',
  'curdate',
  'current_date',
  'random',
  'rand',
  'sign',
]);

/** Functions whose result is no longer than their longest argument (or a number or date). */
const NO_LONGER_FUNCTIONS = new Set([
  'abs',
  'round',
  'floor',
  'ceil',
  'ceiling',
  'trunc',
  'truncate',
  'mod',
  'power',
  'pow',
  'sqrt',
  'exp',
  'ln',
  'log',
  'greatest',
  'least',
  'coalesce',
  'ifnull',
  'nullif',
  'if',
  'min',
  'max',
  'lower',
  'upper',
  'lcase',
  'ucase',
  'initcap',
  'btrim',
  'ltrim',
  'rtrim',
  'trim',
  'substr',
  'substring',
  'left',
  'right',
  'md5',
  'date',
  'date_trunc',
  'date_add',
  'date_sub',
  'adddate',
  'subdate',
  'make_date',
  'age',
  'to_date',
]);

/** Operators whose result is a number of the operands' size. */
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '^', 'div', 'mod']);
/** Operators whose result is a boolean. */
const COMPARISONS = new Set([
  '=',
  '<>',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '<=>',
  '~~',
  '!~~',
  '~~*',
  '!~~*',
  '~',
  '~*',
  '!~',
  '!~*',
  '@>',
  '<@',
  'and',
  'or',
  'xor',
  'like',
  'not like',
  'in',
  'not in',
  'between',
  'not between',
  'is',
  'is not',
  'regexp',
  'not regexp',
  'rlike',
  'not rlike',
]);

const recursionMessage = (cte: string) =>
  `The recursive query ${cte} computes in its recursive step a value that can grow every step ` +
  '(only columns, constants, numbers and functions that do not lengthen a value may be computed there; ' +
  'a concatenation may hold at most one of its own columns)';

const isObject = (value: unknown): value is PgNode =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every object node below `value` (itself included). */
const everyNode = (value: unknown, visit: (node: PgNode) => void): void => {
  if (Array.isArray(value)) for (const item of value) everyNode(item, visit);
  else if (isObject(value)) {
    visit(value);
    for (const child of Object.values(value)) everyNode(child, visit);
  }
};

// ---- PostgreSQL (libpg-query's tree) --------------------------------------------------------------

const pgStrings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap((item) => {
        const text = isObject(item) && isObject(item.String) ? item.String.sval : undefined;
        return typeof text === 'string' ? [text] : [];
      })
    : [];

/** The arms of a set operation (UNION / INTERSECT / EXCEPT), each a plain SELECT body. */
const pgArms = (select: PgNode): PgNode[] =>
  select.op !== undefined && select.op !== 'SETOP_NONE'
    ? [...pgArms((select.larg ?? {}) as PgNode), ...pgArms((select.rarg ?? {}) as PgNode)]
    : [select];

const pgOutputNames = (arm: PgNode): string[] =>
  (Array.isArray(arm.targetList) ? arm.targetList : []).flatMap((item) => {
    const target = isObject(item) && isObject(item.ResTarget) ? item.ResTarget : undefined;
    if (!target) return [];
    if (typeof target.name === 'string') return [target.name];
    const ref = isObject(target.val) && isObject(target.val.ColumnRef) ? target.val.ColumnRef : undefined;
    const last = ref ? pgStrings(ref.fields).at(-1) : undefined;
    return last === undefined ? [] : [last];
  });

/** Whether a value computed by `node` is bounded (see the header). */
const pgBounded = (node: unknown, wholeRow: (ref: PgNode) => boolean): boolean => {
  if (!isObject(node)) return true;
  if (isObject(node.ColumnRef)) return !wholeRow(node.ColumnRef);
  if (node.A_Const || node.ParamRef || node.SQLValueFunction) return true;
  if (node.BoolExpr || node.NullTest || node.BooleanTest) return true;
  if (isObject(node.TypeCast)) return pgBounded(node.TypeCast.arg, wholeRow);
  if (isObject(node.CollateClause)) return pgBounded(node.CollateClause.arg, wholeRow);
  if (isObject(node.A_Expr)) {
    const expr = node.A_Expr;
    const op = pgStrings(expr.name).at(-1)?.toLowerCase() ?? '';
    if (expr.kind === 'AEXPR_OP') {
      if (ARITHMETIC.has(op)) return pgBounded(expr.lexpr, wholeRow) && pgBounded(expr.rexpr, wholeRow);
      return COMPARISONS.has(op);
    }
    if (expr.kind === 'AEXPR_NULLIF')
      return pgBounded(expr.lexpr, wholeRow) && pgBounded(expr.rexpr, wholeRow);
    // IN, LIKE, BETWEEN, IS DISTINCT FROM, = ANY (…): booleans.
    return true;
  }
  if (isObject(node.CaseExpr)) {
    const whens = Array.isArray(node.CaseExpr.args) ? node.CaseExpr.args : [];
    return (
      whens.every(
        (when) => !isObject(when) || !isObject(when.CaseWhen) || pgBounded(when.CaseWhen.result, wholeRow),
      ) && pgBounded(node.CaseExpr.defresult, wholeRow)
    );
  }
  if (isObject(node.CoalesceExpr)) return pgList(node.CoalesceExpr.args, wholeRow);
  if (isObject(node.MinMaxExpr)) return pgList(node.MinMaxExpr.args, wholeRow);
  if (isObject(node.SubLink)) return node.SubLink.subLinkType !== 'ARRAY_SUBLINK';
  if (isObject(node.A_Indirection)) return pgBounded(node.A_Indirection.arg, wholeRow);
  if (isObject(node.FuncCall)) {
    const name = pgStrings(node.FuncCall.funcname).at(-1)?.toLowerCase() ?? '';
    if (NUMBER_FUNCTIONS.has(name)) return true;
    return NO_LONGER_FUNCTIONS.has(name) && pgList(node.FuncCall.args, wholeRow);
  }
  return false;
};
const pgList = (items: unknown, wholeRow: (ref: PgNode) => boolean): boolean =>
  !Array.isArray(items) || items.every((item) => pgBounded(item, wholeRow));

/** The names plain tables (not the CTE, not subqueries or functions) have in the FROM of `arm`. */
const pgTableNames = (from: unknown, cte: string, names: Set<string>): boolean => {
  let plainOnly = true;
  const visit = (item: unknown) => {
    if (!isObject(item)) return;
    if (isObject(item.JoinExpr)) {
      visit(item.JoinExpr.larg);
      visit(item.JoinExpr.rarg);
    } else if (isObject(item.RangeVar)) {
      const range = item.RangeVar;
      const alias = isObject(range.alias) ? range.alias.aliasname : undefined;
      const name = typeof alias === 'string' ? alias : String(range.relname);
      if (range.relname !== cte || range.schemaname !== undefined) names.add(name);
    } else plainOnly = false;
  };
  if (Array.isArray(from)) for (const item of from) visit(item);
  return plainOnly;
};

/** The names the arm reads the CTE under (its own name, or the alias it is given). */
const pgAliases = (arm: PgNode, cte: string): Set<string> => {
  const aliases = new Set<string>();
  everyNode(arm, (node) => {
    const range = isObject(node.RangeVar) ? node.RangeVar : undefined;
    if (range && range.schemaname === undefined && range.relname === cte) {
      const alias = isObject(range.alias) ? range.alias.aliasname : undefined;
      aliases.add(typeof alias === 'string' ? alias : cte);
    }
  });
  return aliases;
};

/** The pieces of a `||` chain or a concat / concat_ws call, casts looked through. */
const pgPieces = (node: unknown): unknown[] => {
  if (!isObject(node)) return [node];
  if (isObject(node.TypeCast)) return pgPieces(node.TypeCast.arg);
  const expr = isObject(node.A_Expr) ? node.A_Expr : undefined;
  if (expr?.kind === 'AEXPR_OP' && pgStrings(expr.name).at(-1) === '||')
    return [...pgPieces(expr.lexpr), ...pgPieces(expr.rexpr)];
  const call = isObject(node.FuncCall) ? node.FuncCall : undefined;
  const name = call ? pgStrings(call.funcname).at(-1)?.toLowerCase() : undefined;
  if (call && (name === 'concat' || name === 'concat_ws') && Array.isArray(call.args))
    return call.args.flatMap(pgPieces);
  return [node];
};

/** SIZE_NOT_BOUNDED's message for a CommonTableExpr of a WITH RECURSIVE whose step can grow a value. */
export const postgresRecursionRefusal = (cte: PgNode): string | undefined => {
  const name = typeof cte.ctename === 'string' ? cte.ctename : '';
  const query =
    isObject(cte.ctequery) && isObject(cte.ctequery.SelectStmt) ? cte.ctequery.SelectStmt : undefined;
  if (!query) return undefined;
  const arms = pgArms(query);
  const declared = pgStrings(cte.aliascolnames);
  const columns = new Set(declared.length > 0 ? declared : pgOutputNames(arms[0] ?? {}));
  for (const arm of arms) {
    const aliases = pgAliases(arm, name);
    if (aliases.size === 0) continue;
    const tables = new Set<string>();
    const plainOnly = pgTableNames(arm.fromClause, name, tables);
    /**
     * A reference to a whole previous row (`r`, `r.*`): its text nests the row's own text, quotes
     * doubled, every step. Allowed only as a plain `r.*` output of the step, which lists columns.
     */
    const wholeRow = (ref: PgNode): boolean => {
      const parts = pgStrings(ref.fields);
      const star =
        Array.isArray(ref.fields) && ref.fields.some((field) => isObject(field) && 'A_Star' in field);
      if (star) return parts.length > 0 && aliases.has(parts[0]!);
      return parts.length === 1 && aliases.has(parts[0]!) && !columns.has(parts[0]!);
    };
    const starOutput = (value: unknown): boolean => {
      const ref = isObject(value) && isObject(value.ColumnRef) ? value.ColumnRef : undefined;
      const fields = ref && Array.isArray(ref.fields) ? ref.fields : [];
      return fields.length > 0 && fields.some((field) => isObject(field) && 'A_Star' in field);
    };
    /** A piece of a concatenation: 'own' (a column of the CTE), 'fixed' (no growth) or 'other'. */
    const piece = (node: unknown): 'own' | 'fixed' | 'other' => {
      if (!isObject(node)) return 'other';
      if (node.A_Const || node.ParamRef) return 'fixed';
      const ref = isObject(node.ColumnRef) ? node.ColumnRef : undefined;
      if (!ref) return 'other';
      const parts = pgStrings(ref.fields);
      const star =
        Array.isArray(ref.fields) && ref.fields.some((field) => isObject(field) && 'A_Star' in field);
      if (star || wholeRow(ref)) return 'other';
      if (parts.length === 1) {
        if (columns.has(parts[0]!)) return 'own';
        return plainOnly ? 'fixed' : 'other';
      }
      if (aliases.has(parts[0]!)) return 'own';
      return tables.has(parts[0]!) ? 'fixed' : 'other';
    };
    const linear = (node: unknown): boolean => {
      const pieces = pgPieces(node).map(piece);
      return !pieces.includes('other') && pieces.filter((kind) => kind === 'own').length <= 1;
    };
    const outputs = Array.isArray(arm.targetList) ? arm.targetList : [];
    for (const item of outputs) {
      const value = isObject(item) && isObject(item.ResTarget) ? item.ResTarget.val : undefined;
      if (!starOutput(value) && !pgBounded(value, wholeRow) && !linear(value)) return recursionMessage(name);
    }
    // Everything computed inside the step: nested SELECT lists, VALUES lists, functions in FROM.
    let unbounded = false;
    const inside = Object.fromEntries(Object.entries(arm).filter(([key]) => key !== 'targetList'));
    everyNode([inside, outputs.map((item) => (isObject(item) ? item : {}))], (node) => {
      if (unbounded) return;
      const select = isObject(node.SelectStmt) ? node.SelectStmt : undefined;
      if (select) {
        for (const target of Array.isArray(select.targetList) ? select.targetList : [])
          if (isObject(target) && isObject(target.ResTarget) && !pgBounded(target.ResTarget.val, wholeRow))
            unbounded = true;
        for (const row of Array.isArray(select.valuesLists) ? select.valuesLists : [])
          if (!(isObject(row) && isObject(row.List) && pgList(row.List.items, wholeRow))) unbounded = true;
      }
      if (isObject(node.RangeFunction)) {
        const functions = Array.isArray(node.RangeFunction.functions) ? node.RangeFunction.functions : [];
        for (const item of functions) {
          const items = isObject(item) && isObject(item.List) ? item.List.items : undefined;
          const first = Array.isArray(items) ? items[0] : undefined;
          const call = isObject(first) && isObject(first.FuncCall) ? first.FuncCall : undefined;
          const called = call ? pgStrings(call.funcname).at(-1)?.toLowerCase() : undefined;
          if (!call || !(called === 'generate_series' || called === 'unnest') || !pgList(call.args, wholeRow))
            unbounded = true;
        }
      }
      if (node.RangeTableFunc) unbounded = true;
    });
    if (unbounded) return recursionMessage(name);
  }
  return undefined;
};

// ---- MySQL / MariaDB (node-sql-parser's tree) --------------------------------------------------

const myName = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (isObject(value)) {
    if (typeof value.value === 'string') return value.value;
    if (isObject(value.expr)) return myName(value.expr);
  }
  return undefined;
};

const myArms = (ast: PgNode): PgNode[] => {
  const arms: PgNode[] = [];
  for (let arm: unknown = ast; isObject(arm); arm = arm._next) arms.push(arm);
  return arms;
};

const MY_CONSTANTS = new Set([
  'number',
  'single_quote_string',
  'double_quote_string',
  'natural_string',
  'string',
  'hex_string',
  'full_hex_string',
  'bit_string',
  'bool',
  'boolean',
  'null',
  'param',
  'date',
  'datetime',
  'time',
  'timestamp',
  'interval',
  'star',
]);

const myFunctionName = (node: PgNode): string => {
  const parts = isObject(node.name) ? node.name.name : undefined;
  return (Array.isArray(parts) ? myName(parts.at(-1)) : myName(node.name))?.toLowerCase() ?? '';
};

const myArgs = (node: PgNode): unknown[] => {
  const args = node.args;
  if (Array.isArray(args)) return args;
  if (isObject(args) && Array.isArray(args.value)) return args.value;
  if (isObject(args) && args.expr !== undefined) return [args.expr];
  return args === undefined || args === null ? [] : [args];
};

/** The MySQL counterpart of pgBounded. */
const myBounded = (node: unknown): boolean => {
  if (!isObject(node)) return true;
  if (isObject(node.ast)) return true; // a scalar / IN / EXISTS subquery: its SELECT list is checked
  const type = typeof node.type === 'string' ? node.type : '';
  if (type === 'column_ref' || MY_CONSTANTS.has(type)) return true;
  if (type === 'binary_expr') {
    const op = String(node.operator).toLowerCase();
    if (ARITHMETIC.has(op)) return myBounded(node.left) && myBounded(node.right);
    return COMPARISONS.has(op);
  }
  if (type === 'unary_expr') return String(node.operator).toLowerCase() === 'not' || myBounded(node.expr);
  if (type === 'cast') return myBounded(node.expr);
  if (type === 'case')
    return (Array.isArray(node.args) ? node.args : []).every(
      (arm) => !isObject(arm) || myBounded(arm.result),
    );
  if (type === 'expr_list') return !Array.isArray(node.value) || node.value.every(myBounded);
  if (type === 'function' || type === 'aggr_func') {
    const name = type === 'aggr_func' ? String(node.name).toLowerCase() : myFunctionName(node);
    if (NUMBER_FUNCTIONS.has(name)) return true;
    return NO_LONGER_FUNCTIONS.has(name) && myArgs(node).every(myBounded);
  }
  if (type === 'extract') return true;
  return false;
};

/** The MySQL guard's counterpart of postgresRecursionRefusal, on one item of a WITH RECURSIVE. */
export const mysqlRecursionRefusal = (cte: PgNode): string | undefined => {
  const name = myName(cte.name) ?? '';
  const ast = isObject(cte.stmt) && isObject(cte.stmt.ast) ? cte.stmt.ast : undefined;
  if (!ast) return undefined;
  const arms = myArms(ast);
  const lower = (text: string | undefined) => text?.toLowerCase();
  const declared = (Array.isArray(cte.columns) ? cte.columns : []).flatMap((column) => {
    const text = isObject(column) ? myName(column.column) : undefined;
    return text === undefined ? [] : [text.toLowerCase()];
  });
  const firstColumns = (Array.isArray(arms[0]?.columns) ? arms[0].columns : []).flatMap((column) => {
    const text = isObject(column)
      ? (myName(column.as) ?? (isObject(column.expr) ? myName(column.expr.column) : undefined))
      : undefined;
    return text === undefined ? [] : [text.toLowerCase()];
  });
  const columns = new Set(declared.length > 0 ? declared : firstColumns);
  for (const arm of arms) {
    const armBody = Object.fromEntries(Object.entries(arm).filter(([key]) => key !== '_next'));
    const aliases = new Set<string>();
    everyNode(armBody, (item) => {
      if (typeof item.table === 'string' && item.type !== 'column_ref' && !item.db)
        if (lower(item.table) === lower(name)) aliases.add(lower(myName(item.as) ?? name)!);
    });
    if (aliases.size === 0) continue;
    const tables = new Set<string>();
    let plainOnly = true;
    for (const item of Array.isArray(arm.from) ? arm.from : []) {
      if (isObject(item) && typeof item.table === 'string') {
        if (lower(item.table) !== lower(name) || item.db) tables.add(lower(myName(item.as) ?? item.table)!);
      } else if (!(isObject(item) && item.type === 'dual')) plainOnly = false;
    }
    const piece = (node: unknown): 'own' | 'fixed' | 'other' => {
      if (!isObject(node)) return 'other';
      if (node.type === 'cast') return piece(node.expr);
      if (MY_CONSTANTS.has(String(node.type)) && node.type !== 'star') return 'fixed';
      if (node.type !== 'column_ref') return 'other';
      const column = lower(myName(node.column));
      const table = lower(myName(node.table));
      if (column === '*') return 'other';
      if (table === undefined) {
        if (column !== undefined && columns.has(column)) return 'own';
        return plainOnly ? 'fixed' : 'other';
      }
      if (aliases.has(table)) return 'own';
      return tables.has(table) ? 'fixed' : 'other';
    };
    const linear = (node: unknown): boolean => {
      if (!isObject(node) || node.type !== 'function') return false;
      const called = myFunctionName(node);
      if (called !== 'concat' && called !== 'concat_ws') return false;
      const pieces = myArgs(node).map(piece);
      return !pieces.includes('other') && pieces.filter((kind) => kind === 'own').length <= 1;
    };
    const outputs = Array.isArray(arm.columns) ? arm.columns : [];
    for (const item of outputs) {
      const value = isObject(item) ? item.expr : undefined;
      if (!myBounded(value) && !linear(value)) return recursionMessage(name);
    }
    // Everything computed inside the step: nested SELECT lists and VALUES rows.
    let unbounded = false;
    const inside = Object.fromEntries(Object.entries(armBody).filter(([key]) => key !== 'columns'));
    everyNode([inside, outputs], (node) => {
      if (node.type === 'select' && Array.isArray(node.columns))
        for (const column of node.columns) if (isObject(column) && !myBounded(column.expr)) unbounded = true;
      if (node.type === 'values' && Array.isArray(node.values))
        for (const row of node.values) if (!myBounded(row)) unbounded = true;
    });
    if (unbounded) return recursionMessage(name);
  }
  return undefined;
};
