// MySQL's and MariaDB's column types as the guard and the engines reason about them (the
// introspection itself is the connector's, lib/dialects/mysql/connector.ts).
import type { ColumnKind } from '#lib/core/catalog.ts';

const mysqlKinds: Record<string, ColumnKind> = {
  tinyint: 'integer',
  smallint: 'integer',
  mediumint: 'integer',
  int: 'integer',
  integer: 'integer',
  bigint: 'integer',
  year: 'integer',
  decimal: 'decimal',
  numeric: 'decimal',
  float: 'decimal',
  double: 'decimal',
  real: 'decimal',
  char: 'text',
  varchar: 'text',
  tinytext: 'text',
  text: 'text',
  mediumtext: 'text',
  longtext: 'text',
  enum: 'text',
  set: 'text',
  uuid: 'uuid',
  boolean: 'boolean',
  bool: 'boolean',
  date: 'date',
  datetime: 'timestamp',
  timestamp: 'timestamp',
  json: 'json',
};

/** MySQL/MariaDB: DATA_TYPE, with TINYINT(1) as boolean (what BOOLEAN is declared as). */
export const mysqlColumnKind = (dataType: string, columnType: string): ColumnKind => {
  const type = dataType.toLowerCase();
  if (type === 'tinyint' && /^tinyint\(1\)/i.test(columnType)) return 'boolean';
  return mysqlKinds[type] ?? 'other';
};
