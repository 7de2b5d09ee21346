// Result rows in one JSON-safe shape whatever the driver: the three connectors agree on it so
// answers, `admin sql check` and tests read the same values.
//   integers    number when safe, else the decimal string (PostgreSQL int8, MySQL BIGINT)
//   numeric     string, exact (NUMERIC / DECIMAL)
//   date        'YYYY-MM-DD'; timestamp without zone: the server's text, never shifted by a
//               time zone; timestamptz: ISO 8601 UTC
//   bytes       '\x' + hex, as PostgreSQL prints bytea
// Column names repeated in a select list (`a.id, b.id`) become `id`, `id_2`, … so no value is lost.

export const jsonValue = (value: unknown): unknown => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, jsonValue(v)]));
  }
  return value;
};

/** An int8 as text → number when it fits, else kept as text. */
export const parseBigInteger = (text: string): number | string => {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
};

export const uniqueColumnNames = (names: readonly string[]): string[] => {
  const seen = new Map<string, number>();
  const taken = new Set(names);
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    if (count === 1) return name;
    let candidate = `${name}_${count}`;
    for (let n = count; taken.has(candidate); n++) candidate = `${name}_${n + 1}`;
    taken.add(candidate);
    return candidate;
  });
};

/** Rows delivered as arrays (rowMode 'array' / rowsAsArray) → objects keyed by unique names. */
export const rowObjects = (
  names: readonly string[],
  rows: readonly (readonly unknown[])[],
): { columns: string[]; rows: Record<string, unknown>[] } => {
  const columns = uniqueColumnNames(names);
  return {
    columns,
    rows: rows.map((row) => {
      const object: Record<string, unknown> = {};
      columns.forEach((column, index) => {
        object[column] = jsonValue(row[index]);
      });
      return object;
    }),
  };
};
