// fast-check arbitraries composing random queries over the MySQL guard's sample shop
// (tests/corpus/mysql-schema.sql): joins, derived tables, CTEs, subqueries in WHERE and EXISTS,
// GROUP BY and UNION ALL. Every query is valid on the sample database and its result does not
// depend on row order (aggregates of integers only), so the leak oracle can compare results.
import fc from 'fast-check';

interface SampleTable {
  name: string;
  ints: string[];
  texts: string[];
}

export const SAMPLE_TABLES: SampleTable[] = [
  { name: 'orders', ints: ['id', 'org_id', 'customer_id'], texts: ['status', 'scope_id'] },
  { name: 'customers', ints: ['id', 'org_id', 'vip'], texts: ['name', 'scope_id', 'country_code'] },
  { name: 'products', ints: ['id', 'org_id'], texts: ['category'] },
  { name: 'order_items', ints: ['id', 'org_id', 'order_id', 'product_id', 'quantity'], texts: [] },
  { name: 'invoices', ints: ['id', 'organization_id', 'order_id', 'paid'], texts: [] },
  { name: 'tickets', ints: ['id', 'org_id', 'priority'], texts: ['subject', 'scope_id'] },
  { name: 'countries', ints: [], texts: ['code', 'region'] },
  { name: 'organizations', ints: ['id'], texts: ['plan'] },
  { name: 'order_summary', ints: ['org_id', 'order_count'], texts: ['status', 'scope_id'] },
];

const withInts = SAMPLE_TABLES.filter((table) => table.ints.length > 0);

/** A relation the query reads: a table, a derived table or a CTE, each with its columns. */
interface Source {
  sql: string;
  alias: string;
  table: SampleTable;
}

const textValue = fc.constantFrom(
  "'alice'",
  "'paid'",
  "'books'",
  "'Alice'",
  "'Europe'",
  "'it''s'",
  "'Where?'",
);
const likePattern = fc.constantFrom("'a%'", "'%e%'", "'P%'", "'%?%'");

const predicate = (alias: string, table: SampleTable, depth: number): fc.Arbitrary<string> => {
  const options: fc.Arbitrary<string>[] = [];
  if (table.ints.length > 0) {
    const int = fc.constantFrom(...table.ints);
    options.push(
      fc
        .tuple(int, fc.constantFrom('>', '<', '=', '<>'), fc.integer({ min: 0, max: 120 }))
        .map(([column, op, value]) => `${alias}.${column} ${op} ${value}`),
    );
    if (depth > 0) {
      options.push(
        fc
          .tuple(int, fc.constantFrom(...withInts), fc.integer({ min: 0, max: 120 }), fc.boolean())
          .map(([column, other, bound, negate]) => {
            const otherColumn = other.ints[bound % other.ints.length]!;
            return `${alias}.${column} ${negate ? 'NOT IN' : 'IN'} (SELECT ${otherColumn} FROM ${other.name} WHERE ${otherColumn} IS NOT NULL AND ${other.ints[0]} < ${bound})`;
          }),
        fc.tuple(int, fc.constantFrom(...withInts), fc.nat()).map(([column, other, pick]) => {
          const otherColumn = other.ints[pick % other.ints.length]!;
          return `EXISTS (SELECT 1 FROM ${other.name} x${depth} WHERE x${depth}.${otherColumn} = ${alias}.${column})`;
        }),
      );
    }
  }
  if (table.texts.length > 0) {
    const text = fc.constantFrom(...table.texts);
    options.push(
      fc.tuple(text, textValue).map(([column, value]) => `${alias}.${column} = ${value}`),
      fc.tuple(text, likePattern).map(([column, value]) => `${alias}.${column} LIKE ${value}`),
      text.map((column) => `${alias}.${column} IS NULL`),
    );
  }
  return options.length > 0 ? fc.oneof(...options) : fc.constant('1 = 1');
};

const source = (index: number, ctes: readonly Source[]): fc.Arbitrary<Source> => {
  const alias = `s${index}`;
  const options: fc.Arbitrary<Source>[] = [
    fc.constantFrom(...SAMPLE_TABLES).map((table) => ({ sql: `${table.name} ${alias}`, alias, table })),
    fc.constantFrom(...SAMPLE_TABLES).chain((table) =>
      predicate('d', table, 1).map((where) => ({
        sql: `(SELECT * FROM ${table.name} d WHERE ${where}) ${alias}`,
        alias,
        table,
      })),
    ),
  ];
  if (ctes.length > 0) {
    options.push(
      fc.constantFrom(...ctes).map((cte) => ({ sql: `${cte.alias} ${alias}`, alias, table: cte.table })),
    );
  }
  return fc.oneof(...options);
};

const joinCondition = (left: Source, right: Source): fc.Arbitrary<string> => {
  if (left.table.ints.length === 0 || right.table.ints.length === 0) return fc.constant('1 = 1');
  return fc
    .tuple(fc.constantFrom(...left.table.ints), fc.constantFrom(...right.table.ints))
    .map(([a, b]) => `${left.alias}.${a} = ${right.alias}.${b}`);
};

/** One SELECT producing `width` integer columns. */
const select = (ctes: readonly Source[], width: 1 | 2, salt: number): fc.Arbitrary<string> =>
  fc
    .array(fc.nat(), { minLength: 1, maxLength: 3 })
    .chain((picks) => fc.tuple(...picks.map((_, i) => source(salt * 10 + i, ctes))))
    .chain((sources) => {
      const first = sources[0]!;
      const joins = sources
        .slice(1)
        .map((right, i) =>
          fc
            .tuple(fc.constantFrom('JOIN', 'LEFT JOIN', 'INNER JOIN'), joinCondition(sources[i]!, right))
            .map(([kind, on]) => ` ${kind} ${right.sql} ON ${on}`),
        );
      const whereSource = fc.constantFrom(...sources);
      const groupable = sources.filter((s) => s.table.ints.length > 0);
      return fc
        .tuple(
          fc.tuple(...joins),
          fc.option(
            whereSource.chain((s) => predicate(s.alias, s.table, 2)),
            { nil: undefined },
          ),
          groupable.length > 0
            ? fc.option(fc.constantFrom(...groupable), { nil: undefined })
            : fc.constant(undefined),
          fc.constantFrom('SUM', 'MAX', 'MIN', 'COUNT'),
        )
        .map(([joined, where, grouped, fn]) => {
          const measured = sources.find((s) => s.table.ints.length > 0);
          const measure = measured ? `${fn}(${measured.alias}.${measured.table.ints[0]})` : 'COUNT(*)';
          const group = grouped ? `${grouped.alias}.${grouped.table.ints[0]}` : undefined;
          const columns = width === 1 ? 'COUNT(*)' : group ? `${group}, COUNT(*)` : `COUNT(*), ${measure}`;
          return (
            `SELECT ${columns} FROM ${first.sql}${joined.join('')}` +
            (where ? ` WHERE ${where}` : '') +
            (group && width === 2 ? ` GROUP BY ${group}` : '')
          );
        });
    });

/** A random query over the sample shop, with or without CTEs and UNION ALL. */
export const sampleQuery: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.constantFrom(...SAMPLE_TABLES), { maxLength: 2 }),
    fc.constantFrom<1 | 2>(1, 2),
    fc.boolean(),
  )
  .chain(([cteTables, width, union]) => {
    const ctes: Source[] = cteTables.map((table, i) => ({ sql: '', alias: `c${i}`, table }));
    const bodies = ctes.map((cte) =>
      predicate('b', cte.table, 1).map(
        (where) => `${cte.alias} AS (SELECT * FROM ${cte.table.name} b WHERE ${where})`,
      ),
    );
    return fc
      .tuple(
        fc.tuple(...bodies),
        select(ctes, width, 1),
        union ? select(ctes, width, 2) : fc.constant(undefined),
      )
      .map(([definitions, main, second]) => {
        const withClause = definitions.length > 0 ? `WITH ${definitions.join(', ')} ` : '';
        return `${withClause}${main}${second ? ` UNION ALL ${second}` : ''}`;
      });
  });
