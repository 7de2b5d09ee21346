// Schemas for query-string values, which always arrive as strings.
import * as v from 'valibot';

/** An integer query parameter with a default and bounds; the error message names the bound. */
export const integerParam = (
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^-?\d{1,9}$/, `${name} must be an integer`),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );
