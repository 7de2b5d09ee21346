// The body of POST /api/v1/embed/sessions (docs/design.md "Embed sessions"): a valibot schema
// whose inferred type the domain code uses (lib/auth/embed-sessions.ts), and which the OpenAPI
// document converts (lib/openapi). Kept apart from the domain code so that the document's
// function does not bundle the session logic.
import * as v from 'valibot';
import { uuidPattern } from '#lib/ids.ts';

export const MIN_TTL_SECONDS = 60;
export const MAX_TTL_SECONDS = 3_600;
export const DEFAULT_TTL_SECONDS = 900;
export const MAX_ORIGINS = 10;
const MAX_VALUE_LENGTH = 255;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A page origin a token may be used from: `https://host[:port]`, or `http://` on the loopback
 * host (`localhost`, `127.0.0.1`, `[::1]`) for development. No path, query or credentials.
 */
const ORIGIN =
  /^(?:https:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|http:\/\/(?:localhost|127\.0\.0\.1|\[::1\]))(?::([0-9]{1,5}))?$/i;

export const isSessionOrigin = (value: string): boolean => {
  const match = ORIGIN.exec(value);
  if (!match || value.length > 260) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
};

/** A tenant or scope value: a string or a number, read as its text (1 to 255 printable characters). */
const textValue = (name: string) =>
  v.pipe(
    v.union([v.string(), v.pipe(v.number(), v.transform(String))], `${name} must be a string or a number`),
    v.transform((value) => value.trim()),
    v.check((value) => value.length > 0, `${name} must not be empty`),
    v.check(
      (value) => [...value].length <= MAX_VALUE_LENGTH,
      `${name} must be at most ${MAX_VALUE_LENGTH} characters`,
    ),
    v.check((value) => !controlCharacter.test(value), `${name} must contain printable characters only`),
  );

const uuidOf = (name: string) =>
  v.pipe(v.string(`${name} must be a UUID`), v.regex(uuidPattern, `${name} must be a UUID`), v.toLowerCase());

/** The body of POST /api/v1/embed/sessions. */
export const EmbedSessionInput = v.object({
  body: v.object({
    database_id: uuidOf('database_id'),
    tenant_id: v.optional(textValue('tenant_id')),
    scope_id: v.optional(textValue('scope_id')),
    origins: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string('each origin must be a string'),
            v.check(
              isSessionOrigin,
              'each origin must be https://host[:port] (or http://localhost[:port]), without a path',
            ),
            v.toLowerCase(),
          ),
          'origins must be an array of origins',
        ),
        v.minLength(1, 'origins must list at least 1 origin (leave it out to allow any page)'),
        v.maxLength(MAX_ORIGINS, `origins must list at most ${MAX_ORIGINS} origins`),
      ),
    ),
    ttl_seconds: v.optional(
      v.pipe(
        v.number('ttl_seconds must be a number'),
        v.integer('ttl_seconds must be a whole number'),
        v.minValue(MIN_TTL_SECONDS, `ttl_seconds must be at least ${MIN_TTL_SECONDS}`),
        v.maxValue(MAX_TTL_SECONDS, `ttl_seconds must be at most ${MAX_TTL_SECONDS}`),
      ),
      DEFAULT_TTL_SECONDS,
    ),
    personality_id: v.optional(uuidOf('personality_id')),
  }),
});
export type EmbedSessionRequest = v.InferOutput<typeof EmbedSessionInput>['body'];
