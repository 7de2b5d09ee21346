// SQL text for both dialects: identifiers quoted only when they must be ("double quotes" on
// PostgreSQL, `backticks` on MySQL), and literals printed safely. Strings are single-quoted with
// quotes doubled; a value holding a backslash or a control character is refused rather than
// escaped, because MySQL reads backslash escapes in strings unless NO_BACKSLASH_ESCAPES is set.
import type { DialectName } from '#lib/core/catalog.ts';
import { dialectNamed } from '#lib/dialects/index.ts';

/** Keywords reserved in PostgreSQL or MySQL (and a few that only read badly as bare names). */
const reserved = new Set(
  `accessible add all alter analyse analyze and any array as asc asymmetric authorization before between
  bigint binary blob both by call cascade case cast change char character check collate collation column
  concurrently condition constraint continue convert create cross cube cume_dist current current_catalog
  current_date current_role current_schema current_time current_timestamp current_user cursor database
  databases day_hour day_microsecond day_minute day_second dec decimal declare default deferrable delayed
  delete dense_rank desc describe deterministic distinct distinctrow div do double drop dual each else
  elseif empty enclosed end escaped except exists exit explain false fetch first_value float float4 float8
  for force foreign freeze from full fulltext function generated get grant group grouping groups having
  high_priority hour_microsecond hour_minute hour_second if ignore ilike in index infile initially inner
  inout insensitive insert int int1 int2 int3 int4 int8 integer intersect interval into is isnull iterate
  join json_table key keys kill lag last_value lateral lead leading leave left like limit linear lines load
  localtime localtimestamp lock long longblob longtext loop low_priority master_bind match maxvalue
  mediumblob mediumint mediumtext middleint minute_microsecond minute_second mod modifies natural not
  notnull no_write_to_binlog nth_value ntile null numeric of offset on only optimize optimizer_costs option
  optionally or order out outer outfile over overlaps partition percent_rank placing precision primary
  procedure purge range rank read reads read_write real recursive references regexp release rename repeat
  replace require resignal restrict return returning revoke right rlike row row_number rows schema schemas
  second_microsecond select sensitive separator session_user set show signal similar smallint some spatial
  specific sql sqlexception sqlstate sqlwarning sql_big_result sql_calc_found_rows sql_small_result ssl
  starting stored straight_join symmetric system table tablesample terminated then tinyblob tinyint
  tinytext to trailing trigger true undo union unique unlock unsigned update usage use user using utc_date
  utc_time utc_timestamp values varbinary varchar varcharacter variadic varying verbose virtual when where
  while window with write xor year_month zerofill`.split(/\s+/),
);

export const quoteIdentifier = (name: string, dialect: DialectName): string => {
  const { bareIdentifier, quote } = dialectNamed(dialect);
  if (bareIdentifier.test(name) && !reserved.has(name.toLowerCase())) return name;
  return quote(name);
};

/** Whether a value can be printed as a string literal: plain text, no backslash or control character. */
export const isPrintableValue = (value: string): boolean =>
  value.length <= 200 && !/[\\\p{Cc}\p{Cf}\u2028\u2029]/u.test(value);

export const stringLiteral = (value: string): string => {
  if (!isPrintableValue(value)) throw new Error('value cannot be printed as a SQL literal');
  return `'${value.replaceAll("'", "''")}'`;
};

export const isPrintableNumber = (value: number): boolean =>
  Number.isFinite(value) && Math.abs(value) < 1e15 && !/e/i.test(String(value));

export const numberLiteral = (value: number): string => {
  if (!isPrintableNumber(value)) throw new Error('number cannot be printed as a SQL literal');
  return String(value);
};

export const literal = (value: string | number | boolean): string =>
  typeof value === 'boolean'
    ? value
      ? 'TRUE'
      : 'FALSE'
    : typeof value === 'number'
      ? numberLiteral(value)
      : stringLiteral(value);

/** An output column name: lower-case words joined by `_`, safe to leave unquoted. */
export const outputName = (words: string): string => {
  const name =
    words
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 48) || 'value';
  const safe = /^[a-z]/.test(name) ? name : `v_${name}`;
  return reserved.has(safe) ? `${safe}_value` : safe;
};
