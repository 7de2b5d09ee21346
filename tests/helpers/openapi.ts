// Validation against the OpenAPI document with ajv (JSON Schema draft 2020-12): each component
// schema is registered under its own id, and `#/components/schemas/X` references point at it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

export type Json = Record<string, unknown>;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const dateTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;

const componentId = (name: string) => `urn:tabletalk:schema:${name}`;

/** A copy of `value` with every `#/components/schemas/X` reference turned into X's ajv id. */
const rewriteRefs = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const copy: Json = {};
  for (const [key, entry] of Object.entries(value)) {
    copy[key] =
      key === '$ref' && typeof entry === 'string' && entry.startsWith('#/components/schemas/')
        ? componentId(entry.slice('#/components/schemas/'.length))
        : rewriteRefs(entry);
  }
  return copy;
};

/** An ajv instance that knows the document's component schemas (and checks them against the meta-schema). */
export const ajvFor = (document: Json) => {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  ajv.addFormat('uuid', uuid);
  ajv.addFormat('date-time', {
    validate: (text: string) => dateTime.test(text) && !Number.isNaN(Date.parse(text)),
  });
  ajv.addFormat('uri', {
    validate: (text: string) => {
      try {
        return Boolean(new URL(text));
      } catch {
        return false;
      }
    },
  });
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema({ ...(rewriteRefs(schema) as Json), $id: componentId(name) });
  }
  const cache = new Map<unknown, ValidateFunction>();
  /** Compiles a schema of the document (its references resolved against the components). */
  const compile = (schema: Json): ValidateFunction => {
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile(rewriteRefs(schema) as Json);
      cache.set(schema, validate);
    }
    return validate;
  };
  return { ajv, compile };
};

/** The operation of a method and path template. */
export const operationOf = (document: Json, method: string, path: string): Json | undefined =>
  (document.paths as Record<string, Record<string, Json>>)[path]?.[method.toLowerCase()];

/** Resolves a local `$ref` of the document. */
export const resolveRef = (document: Json, value: Json): Json => {
  if (typeof value.$ref !== 'string') return value;
  let node: unknown = document;
  for (const part of value.$ref.replace(/^#\//, '').split('/')) node = (node as Json)[part];
  return node as Json;
};

/**
 * Checks a real response against the document: the status is documented for the route, the
 * body matches the schema of that status, and every header the document marks as required (or
 * lists in `expectHeaders`) is present. Returns the problems, empty when it conforms.
 */
export const conformanceOf = (
  document: Json,
  compile: (schema: Json) => ValidateFunction,
  route: { method: string; path: string },
  response: { status: number; headers: Headers; body: unknown },
  expectHeaders: readonly string[] = [],
): string[] => {
  const operation = operationOf(document, route.method, route.path);
  if (!operation) return [`${route.method} ${route.path} is not in the document`];
  const documented = (operation.responses as Record<string, Json>)[String(response.status)];
  if (!documented) return [`${route.method} ${route.path}: status ${response.status} is not documented`];
  const problems: string[] = [];
  const headers = (documented.headers ?? {}) as Record<string, Json>;
  for (const [name, raw] of Object.entries(headers)) {
    const header = resolveRef(document, raw);
    if (header.required === true && !response.headers.has(name)) problems.push(`header ${name} is missing`);
  }
  for (const name of expectHeaders) {
    if (!(name in headers)) problems.push(`header ${name} is not documented for ${response.status}`);
    if (!response.headers.has(name)) problems.push(`header ${name} is missing`);
  }
  const media = ((documented.content ?? {}) as Record<string, Json>)['application/json'];
  if (media) {
    const validate = compile(media.schema as Json);
    if (!validate(response.body))
      problems.push(
        ...(validate.errors ?? []).map(
          (e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
        ),
      );
  }
  return problems;
};
