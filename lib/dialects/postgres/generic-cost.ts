// The cost the EXPLAIN ceiling compares (docs/design.md "Isolation against an attacker: second
// round"): the planner's total cost of the statement's GENERIC plan, with its value constants as
// parameters (lib/dialects/postgres/generic-plan.ts), so that whether a query is refused for cost depends on
// its shape, never on how common a literal value is among other tenants' rows. The same steps on
// a PostgreSQL server (12 and later) and on PGlite, inside the query's read-only transaction:
//   SAVEPOINT → SET LOCAL plan_cache_mode = force_generic_plan; PREPARE … AS <generic statement>
//   (one round trip) → EXPLAIN (FORMAT JSON) EXECUTE …(NULL, …) → ROLLBACK TO SAVEPOINT (the
//   setting goes); DEALLOCATE (one round trip).
// A statement the server cannot prepare this way (a parameter whose type nothing decides, as in
// `'x' IS NOT NULL`) is prepared once more with each parameter cast to its constant's own type
// (`$2::text`, `$3::integer`). One that cannot be prepared either way has no plan to read and is
// refused as too expensive, the same answer as a cost above the ceiling: a statement made
// unpreparable on purpose must not run without a ceiling. Whether that happens depends on the
// statement's text and the schema's types only, never on a literal's value.
// The statement itself is made where the SQL parser runs (costStatement, lib/dialects/postgres/generic-plan.ts),
// not in PGlite's worker, which imports only this file.

const NAME = 'tabletalk_cost';

/**
 * Memory one sort or hash of a guarded query may take before it spills to disk (docs/design.md
 * "Recursion"): small, so a query that builds large values holds little of the server's memory.
 * temp_file_limit would bound the spill too, but only a superuser may set it.
 */
export const GUARDED_WORK_MEM = '8MB';

/** Total Cost of the top plan node of `EXPLAIN (FORMAT JSON)`. */
export const planCost = (plan: unknown): number => {
  const parsed = typeof plan === 'string' ? JSON.parse(plan) : plan;
  const cost = (parsed as { Plan?: { 'Total Cost'?: unknown } }[] | undefined)?.[0]?.Plan?.['Total Cost'];
  return typeof cost === 'number' ? cost : 0;
};

/** SQLSTATEs of a statement that cannot be prepared as a generic statement (types, syntax, undefined things). */
const unpreparable = (error: unknown): boolean => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^(42|22)/.test(code);
};

export interface CostRunner {
  /** Sends statements separated by `;` in one simple-protocol round trip; their results are not read. */
  exec(text: string): Promise<unknown>;
  /** Sends one statement and returns its first row's `QUERY PLAN`. */
  plan(text: string): Promise<unknown>;
}

/** The generic plan's cost of one form of the statement; undefined when it cannot be prepared. */
const costOf = async (sql: string, parameters: number, runner: CostRunner): Promise<number | undefined> => {
  // The savepoint on its own: a statement that fails in a multi-statement text takes the
  // savepoint of the same text with it.
  await runner.exec(`SAVEPOINT ${NAME}`);
  let prepared = false;
  try {
    await runner.exec(`SET LOCAL plan_cache_mode = force_generic_plan; PREPARE ${NAME} AS ${sql}`);
    prepared = true;
    const values = parameters > 0 ? `(${Array(parameters).fill('NULL').join(', ')})` : '';
    return planCost(await runner.plan(`EXPLAIN (FORMAT JSON) EXECUTE ${NAME}${values}`));
  } catch (error) {
    if (unpreparable(error)) return undefined;
    throw error;
  } finally {
    await runner.exec(`ROLLBACK TO SAVEPOINT ${NAME}${prepared ? `; DEALLOCATE ${NAME}` : ''}`);
  }
};

/**
 * The generic plan's cost of `statement` (untyped parameters, else typed ones); infinite when it
 * cannot be prepared either way or there is no generic statement at all, so the ceiling refuses
 * it. Errors other than "cannot be prepared" (the timeout, a lost connection) are the caller's.
 */
export const genericCost = async (
  statement: { sql: string; typedSql: string; parameters: number } | undefined,
  runner: CostRunner,
): Promise<number> => {
  if (!statement) return Number.POSITIVE_INFINITY;
  const untyped = await costOf(statement.sql, statement.parameters, runner);
  if (untyped !== undefined) return untyped;
  const typed = await costOf(statement.typedSql, statement.parameters, runner);
  return typed ?? Number.POSITIVE_INFINITY;
};
