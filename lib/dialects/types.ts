// What a SQL dialect is to the service (docs/design.md "Databases as one seam"): one object per
// dialect (lib/dialects/<name>/index.ts), listed once in the registry (lib/dialects/index.ts),
// and its machinery (lib/dialects/<name>/machinery.ts), loaded by name. Everything outside
// lib/dialects/ that depends on the dialect reads it from these: the engines a database record
// may name and their URL schemes, the system schemas the row policy never opens, identifier
// quoting, the few SQL spellings the engines write; and, on demand, connecting (introspection
// and the drivers' error codes, lib/dialects/<name>/errors.ts, are the connectors'), the guard and
// the egress rules' tree reading.
import type { Connector } from '#lib/connectors/types.ts';
import type { DialectName } from '#lib/core/catalog.ts';
import type { SystemNames } from '#lib/core/row-policy.ts';
import type { Guard } from '#lib/sql/types.ts';

/** What opening a connector takes; lib/connectors/index.ts fills in the container's settings. */
export interface ConnectOptions {
  /** The connection URL (`memory:` for an embedded engine). Never logged or shown. */
  url: string;
  /** An embedded engine's seed SQL file. */
  seedFile?: string;
  connectTimeoutMs: number;
  poolSize: number;
}

/** One engine a database record may name (`DatabaseRecord.engine`), served by its dialect. */
export interface DialectEngine {
  readonly name: string;
  /** URL schemes with their colon (`scheme:`); messages suggest the first. */
  readonly urlSchemes: readonly string[];
  /**
   * Runs inside the service's own process from a seed file, on the URL `memory:`: added by the
   * admin command only (`--seed`); the management API does not offer it.
   */
  readonly embedded: boolean;
  /** The admin command requires the URL to name the database (the management API always does). */
  readonly databaseInUrl: boolean;
  /** A URL of the engine as the API's documentation shows it (engines reached by URL). */
  readonly exampleUrl?: string;
}

/** The SQL the builtin engine writes for date arithmetic (lib/answer/builtin/render.ts). */
export interface DateSql {
  /** Whole days from `start` to `end`, two dates. */
  daysBetween(start: string, end: string): string;
  /** Seconds from `start` to `end`, two timestamps. */
  secondsBetween(start: string, end: string): string;
  /** The ISO weekday, 1 (Monday) to 7 (Sunday). */
  isoWeekday(value: string): string;
  /** The ISO week as year × 100 + week. */
  isoWeek(value: string): string;
}

/**
 * What the data-egress rules read of a parse tree (lib/answer/egress.ts): which names and
 * relations a query exposes, and whether it only aggregates numbers.
 */
export interface EgressReading {
  /** The statements of a text (throws on a syntax error). */
  parseStatements(sql: string): unknown[];
  exposure(tree: Record<string, unknown>, names: Set<string>): Exposure;
  /** Lower-case names a query defines itself (CTEs, aliases), which are not catalog columns. */
  definedNames(tree: Record<string, unknown>): Set<string>;
  /** Every output column is an aggregate of numeric columns (or arithmetic of those). */
  onlyNumericAggregates(tree: Record<string, unknown>, numeric: Set<string>): boolean;
}

/** What a query exposes, found by walking its parse tree. */
export interface Exposure {
  /** Some column reference names a redacted column. */
  namesRedacted: boolean;
  /** A whole-row value, a `*` outside a pass-through select list, or a renaming column list. */
  unnamedColumns: boolean;
  /** Base relations read anywhere (lower-case names, unqualified). */
  relations: Set<string>;
}

export interface Dialect extends SystemNames {
  /** The name a catalog carries (`Catalog.dialect`). */
  readonly name: DialectName;
  /** How prompts and messages name it. */
  readonly displayName: string;
  /** How the API's documentation names the servers it speaks to. */
  readonly productName: string;
  /**
   * Words of a question that only a probe of the system catalogs uses (regular-expression
   * sources): the builtin engine refuses such a question as raw SQL.
   */
  readonly catalogProbeWords: readonly string[];
  /** The engines that speak it; the first is the dialect's own server. */
  readonly engines: readonly DialectEngine[];
  /** Identifiers that need no quotes (reserved words aside). */
  readonly bareIdentifier: RegExp;
  /** An identifier in the dialect's quotes, inner quotes doubled. */
  quote(name: string): string;
  /** What the model's prompt says of the dialect: quoting, date functions, what it lacks. */
  readonly promptNote: string;
  readonly dates: DateSql;
  readonly expressions: ExpressionStyle;
  /** How the value lookup (lib/answer/values.ts) reads a column as text to match words with. */
  readonly text: TextSearch;
}

/** A column's value as text, and folded for matching (lib/answer/values.ts). */
export interface TextSearch {
  /** `value` cast to the dialect's text type. */
  asText(value: string): string;
  /**
   * `text` lower-cased, and without accents where the dialect can say it: `accented` and `plain`
   * are string literals of the same length, each character of the first read as the second's.
   */
  folded(text: string, accented: string, plain: string): string;
}

/**
 * How the dialect writes what differs between dialects in an operator's glossary expression
 * (lib/answer/builtin/glossary-expr.ts prints the rest alike): a form it cannot say the same way
 * is left out for it.
 */
export interface ExpressionStyle {
  /** `||`, `~`, `ILIKE` and the other operators of PostgreSQL's own are said as they are. */
  readonly ownOperators: boolean;
  /** Dates and times subtract as values; otherwise only two dates, in whole days (`dates`). */
  readonly temporalArithmetic: boolean;
  /** Casts to INTERVAL. */
  readonly intervals: boolean;
  /** GREATEST and LEAST skip NULLs (elsewhere they return NULL: not the same meaning). */
  readonly greatestSkipsNulls: boolean;
  /** EXTRACT fields besides year … second and epoch (a regular expression of their names). */
  readonly moreExtractFields?: RegExp;
  /** `a IS [NOT] DISTINCT FROM b`. */
  distinct(left: string, right: string, negated: boolean): string;
  /** The type of a cast (a parser's type name and its modifiers), or undefined when it has none. */
  castType(type: string, mods: readonly number[]): string | undefined;
}

/**
 * The code of a dialect that runs: drivers and parsers (lib/dialects/<name>/machinery.ts),
 * loaded through lib/dialects/machinery.ts by the functions that connect or guard only, so
 * that a function that only names engines (a picklist) does not ship them. Each member imports
 * its part on first use.
 */
export interface DialectMachinery {
  /** Opens a connector on one of the dialect's engines (nothing connects before the first call). */
  connect(engine: string, options: ConnectOptions): Promise<Connector>;
  /** The SQL guard (lib/sql/types.ts). */
  guard(): Promise<Guard>;
  /** What the data-egress rules read of its parse trees. */
  egress(): Promise<EgressReading>;
}
