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
    // How the OpenAPI document shows the parameter: the integer the string carries (lib/openapi).
    v.metadata({ openapi: { type: 'integer', minimum: min, maximum: max, default: fallback } }),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

/** The query of a page-numbered list (the spec's Paginated response): `page` 1-based, `page_size`. */
export const PageNumberInput = v.object({
  query: v.object({
    page: integerParam('page', { min: 1, max: 100_000, fallback: 1 }),
    page_size: integerParam('page_size', { min: 1, max: 100, fallback: 20 }),
  }),
});
