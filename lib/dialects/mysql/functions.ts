// The MySQL/MariaDB built-in functions the guard lets generated SQL call (docs/design.md "Tenant
// filtering and the SQL guard", step 3): deny by default. Names are compared upper-cased and only
// when unquoted and unqualified: MySQL resolves an unqualified built-in name to the built-in even
// when a stored function of the same name exists, while `db.f()` and a backticked `` `f`() `` can
// reach stored functions.
//
// Left out on purpose: SLEEP, BENCHMARK (time), LOAD_FILE (server files), GET_LOCK and the other
// lock functions, DATABASE/SCHEMA/USER/CURRENT_USER/VERSION/CONNECTION_ID (they describe the
// server, not the tenant's data), LAST_INSERT_ID/FOUND_ROWS/ROW_COUNT (session state),
// EXTRACTVALUE/UPDATEXML (classic error-based exfiltration helpers), NAME_CONST, VALUES, DEFAULT,
// UUID/RAND-like session-visible helpers, sequences (NEXTVAL/LASTVAL/SETVAL), spatial functions,
// encryption and compression functions, and everything not listed below. REPEAT (its result is
// the argument's length times the count) and INSERT (text surgery no question needs, whose
// results nest into ever longer strings) are left out too; LPAD, RPAD, SPACE and GROUP_CONCAT
// are held to bounds the guard checks (lib/sql/allocation.ts, refusal SIZE_NOT_BOUNDED).
// Only functions MySQL 8 and MariaDB 10.11 both have, since the printed SQL runs on either:
// REGEXP_LIKE and GROUPING are MySQL 8 only (write `x REGEXP 'p'`); tests/integration/sql-mysql.test.ts
// asks the server for every name listed here.

const AGGREGATES = [
  'AVG',
  'BIT_AND',
  'BIT_OR',
  'BIT_XOR',
  'COUNT',
  'GROUP_CONCAT',
  'JSON_ARRAYAGG',
  'JSON_OBJECTAGG',
  'MAX',
  'MIN',
  'STD',
  'STDDEV',
  'STDDEV_POP',
  'STDDEV_SAMP',
  'SUM',
  'VAR_POP',
  'VAR_SAMP',
  'VARIANCE',
];

const WINDOW = [
  'CUME_DIST',
  'DENSE_RANK',
  'FIRST_VALUE',
  'LAG',
  'LAST_VALUE',
  'LEAD',
  'NTH_VALUE',
  'NTILE',
  'PERCENT_RANK',
  'RANK',
  'ROW_NUMBER',
];

const CONTROL = ['COALESCE', 'GREATEST', 'IF', 'IFNULL', 'ISNULL', 'LEAST', 'NULLIF'];

/**
 * Operators the parser represents as function calls: `EXISTS (SELECT ...)`, `> ANY (...)`,
 * `NOT (a < b)`.
 */
const PREDICATES = ['EXISTS', 'ANY', 'ALL', 'SOME', 'NOT'];

const MATH = [
  'ABS',
  'ACOS',
  'ASIN',
  'ATAN',
  'ATAN2',
  'BIN',
  'CEIL',
  'CEILING',
  'CONV',
  'COS',
  'COT',
  'CRC32',
  'DEGREES',
  'EXP',
  'FLOOR',
  'HEX',
  'LN',
  'LOG',
  'LOG10',
  'LOG2',
  'MOD',
  'OCT',
  'PI',
  'POW',
  'POWER',
  'RADIANS',
  'ROUND',
  'SIGN',
  'SIN',
  'SQRT',
  'TAN',
  'TRUNCATE',
  'UNHEX',
];

const STRING = [
  'ASCII',
  'BIT_LENGTH',
  'CHAR',
  'CHAR_LENGTH',
  'CHARACTER_LENGTH',
  'CONCAT',
  'CONCAT_WS',
  'ELT',
  'FIELD',
  'FIND_IN_SET',
  'FORMAT',
  'FROM_BASE64',
  'INSTR',
  'LCASE',
  'LEFT',
  'LENGTH',
  'LOCATE',
  'LOWER',
  'LPAD',
  'LTRIM',
  'MD5',
  'MID',
  'OCTET_LENGTH',
  'ORD',
  'POSITION',
  'REGEXP_INSTR',
  'REGEXP_REPLACE',
  'REGEXP_SUBSTR',
  'REPLACE',
  'REVERSE',
  'RIGHT',
  'RPAD',
  'RTRIM',
  'SHA1',
  'SHA2',
  'SOUNDEX',
  'SPACE',
  'STRCMP',
  'SUBSTR',
  'SUBSTRING',
  'SUBSTRING_INDEX',
  'TO_BASE64',
  'TRIM',
  'UCASE',
  'UPPER',
];

const DATE_TIME = [
  'ADDDATE',
  'ADDTIME',
  'CONVERT_TZ',
  'CURDATE',
  'CURRENT_DATE',
  'CURRENT_TIME',
  'CURRENT_TIMESTAMP',
  'CURTIME',
  'DATE',
  'DATE_ADD',
  'DATE_FORMAT',
  'DATE_SUB',
  'DATEDIFF',
  'DAY',
  'DAYNAME',
  'DAYOFMONTH',
  'DAYOFWEEK',
  'DAYOFYEAR',
  'FROM_DAYS',
  'FROM_UNIXTIME',
  'GET_FORMAT',
  'HOUR',
  'LAST_DAY',
  'LOCALTIME',
  'LOCALTIMESTAMP',
  'MAKEDATE',
  'MAKETIME',
  'MICROSECOND',
  'MINUTE',
  'MONTH',
  'MONTHNAME',
  'NOW',
  'PERIOD_ADD',
  'PERIOD_DIFF',
  'QUARTER',
  'SEC_TO_TIME',
  'SECOND',
  'STR_TO_DATE',
  'SUBDATE',
  'SUBTIME',
  'SYSDATE',
  'TIME',
  'TIME_FORMAT',
  'TIME_TO_SEC',
  'TIMEDIFF',
  'TIMESTAMP',
  'TIMESTAMPADD',
  'TIMESTAMPDIFF',
  'TO_DAYS',
  'TO_SECONDS',
  'UNIX_TIMESTAMP',
  'UTC_DATE',
  'UTC_TIME',
  'UTC_TIMESTAMP',
  'WEEK',
  'WEEKDAY',
  'WEEKOFYEAR',
  'YEAR',
  'YEARWEEK',
];

/** CONVERT(x, type) and CONVERT(x USING charset); CAST and EXTRACT have their own tree nodes. */
const CASTS = ['CONVERT'];

/** JSON functions that only compute on their arguments. */
const JSON_FUNCTIONS = [
  'JSON_ARRAY',
  'JSON_CONTAINS',
  'JSON_CONTAINS_PATH',
  'JSON_DEPTH',
  'JSON_EXTRACT',
  'JSON_INSERT',
  'JSON_KEYS',
  'JSON_LENGTH',
  'JSON_MERGE_PATCH',
  'JSON_MERGE_PRESERVE',
  'JSON_OBJECT',
  'JSON_OVERLAPS',
  'JSON_QUOTE',
  'JSON_REMOVE',
  'JSON_REPLACE',
  'JSON_SEARCH',
  'JSON_SET',
  'JSON_TYPE',
  'JSON_UNQUOTE',
  'JSON_VALID',
  'JSON_VALUE',
];

export const MYSQL_AGGREGATES: ReadonlySet<string> = new Set(AGGREGATES);

export const MYSQL_FUNCTIONS: ReadonlySet<string> = new Set([
  ...AGGREGATES,
  ...WINDOW,
  ...CONTROL,
  ...PREDICATES,
  ...MATH,
  ...STRING,
  ...DATE_TIME,
  ...CASTS,
  ...JSON_FUNCTIONS,
]);
