// The human-readable API reference: one self-contained HTML page (inline CSS, no scripts, nothing
// fetched) rendered from the OpenAPI document. The local stack serves it at /docs.
type Json = Record<string, unknown>;

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Inline markdown: `code`, **bold**. */
const inline = (text: string): string =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

/** The markdown of descriptions: paragraphs and `- ` lists. */
const markdown = (text: string | undefined): string => {
  if (!text) return '';
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => line.startsWith('- ')))
        return `<ul>${lines.map((line) => `<li>${inline(line.slice(2))}</li>`).join('')}</ul>`;
      return `<p>${inline(block)}</p>`;
    })
    .join('\n');
};

const anchor = (kind: string, name: string) => `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

const refName = (ref: string): string => ref.split('/').at(-1) ?? ref;

/** A one-line type: `string (uuid)`, `integer 1..100`, a link to a named schema, `A | B`. */
const typeOf = (schema: Json | undefined): string => {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `<a href="#${anchor('schema', name)}">${escapeHtml(name)}</a>`;
  }
  // An error response's allOf narrows the envelope to the codes its description lists.
  if (Array.isArray(schema.allOf)) {
    const named = (schema.allOf as Json[]).filter((part) => typeof part.$ref === 'string');
    return (named.length > 0 ? named : (schema.allOf as Json[])).map(typeOf).join(' &amp; ');
  }
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeOf).join(' | ');
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as Json[]).map(typeOf).join(' | ');
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum))
    return schema.enum.map((value) => `<code>${escapeHtml(String(value))}</code>`).join(' | ');
  const type =
    typeof schema.type === 'string' ? schema.type : Object.keys(schema).length === 0 ? 'any' : 'value';
  if (type === 'array') return `array of ${typeOf(schema.items as Json | undefined)}`;
  const facets: string[] = [];
  if (typeof schema.format === 'string') facets.push(schema.format);
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    facets.push(`${schema.minimum ?? ''}..${schema.maximum ?? ''}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    facets.push(`length ${schema.minLength ?? 0}..${schema.maxLength ?? ''}`);
  if (typeof schema.pattern === 'string') facets.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if (schema.default !== undefined)
    facets.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
  return facets.length > 0 ? `${type} (${facets.join(', ')})` : type;
};

/** Rows of an object's fields, nested objects and arrays of objects indented under their field. */
const fieldRows = (schema: Json, prefix = ''): string => {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties)
    .map(([name, field]) => {
      const path = `${prefix}${name}`;
      const nested =
        field.type === 'object' && field.properties
          ? fieldRows(field, `${path}.`)
          : field.type === 'array' && (field.items as Json | undefined)?.properties
            ? fieldRows(field.items as Json, `${path}[].`)
            : '';
      const type = nested && field.type === 'object' ? 'object' : typeOf(field);
      return (
        `<tr><td><code>${escapeHtml(path)}</code>${required.has(name) ? '' : ' <span class="opt">optional</span>'}</td>` +
        `<td>${type}</td><td>${inline(typeof field.description === 'string' ? field.description : '')}</td></tr>${nested}`
      );
    })
    .join('');
};

const schemaBlock = (schema: Json | undefined): string => {
  if (!schema) return '';
  if (schema.properties) {
    return `<table class="fields"><tr><th>Field</th><th>Type</th><th>Notes</th></tr>${fieldRows(schema)}</table>`;
  }
  return `<p class="type">${typeOf(schema)}</p>`;
};

const resolve = (document: Json, value: Json): Json => {
  if (typeof value.$ref !== 'string') return value;
  let node: unknown = document;
  for (const part of value.$ref.replace(/^#\//, '').split('/')) node = (node as Json)[part];
  return node as Json;
};

const parametersTable = (document: Json, parameters: Json[]): string => {
  if (parameters.length === 0) return '';
  const rows = parameters
    .map((raw) => {
      const parameter = resolve(document, raw);
      return (
        `<tr><td><code>${escapeHtml(String(parameter.name))}</code>${parameter.required ? '' : ' <span class="opt">optional</span>'}</td>` +
        `<td>${escapeHtml(String(parameter.in))}</td><td>${typeOf(parameter.schema as Json)}</td>` +
        `<td>${inline(String(parameter.description ?? ''))}</td></tr>`
      );
    })
    .join('');
  return `<h4>Parameters</h4><table class="fields"><tr><th>Name</th><th>In</th><th>Type</th><th>Notes</th></tr>${rows}</table>`;
};

const responsesBlock = (responses: Record<string, Json>): string =>
  Object.entries(responses)
    .map(([status, response]) => {
      const headers = Object.keys((response.headers ?? {}) as Json);
      const content = (response.content ?? {}) as Record<string, Json>;
      const [mediaType, media] = Object.entries(content)[0] ?? [];
      const events = response['x-sse-events'] as Record<string, Json> | undefined;
      const eventList = events
        ? `<ul>${Object.entries(events)
            .map(
              ([name, schema]) =>
                `<li><code>${name === 'message' ? 'data:' : `event: ${escapeHtml(name)}`}</code> ${typeOf(schema)}</li>`,
            )
            .join('')}</ul>`
        : '';
      const kind = Number(status) < 400 ? 'ok' : 'err';
      return (
        `<div class="response"><h5><span class="status ${kind}">${escapeHtml(status)}</span> ` +
        `${mediaType ? `<code>${escapeHtml(mediaType)}</code>` : ''}</h5>${markdown(String(response.description ?? ''))}` +
        `${headers.length > 0 ? `<p class="headers">Headers: ${headers.map((h) => `<code>${escapeHtml(h)}</code>`).join(', ')}</p>` : ''}` +
        `${eventList}${media && !events ? `<p class="type">Body: ${typeOf(media.schema as Json)}</p>` : ''}</div>`
      );
    })
    .join('');

const operationBlock = (document: Json, path: string, method: string, operation: Json): string => {
  const id = anchor('op', String(operation.operationId));
  const body = (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
  const bodySchema = body?.['application/json']?.schema as Json | undefined;
  return (
    `<section class="operation" id="${id}"><h3><span class="method ${method}">${method.toUpperCase()}</span> ` +
    `<code>${escapeHtml(path)}</code></h3><p class="summary">${escapeHtml(String(operation.summary ?? ''))}</p>` +
    markdown(String(operation.description ?? '')) +
    parametersTable(document, (operation.parameters as Json[] | undefined) ?? []) +
    (bodySchema
      ? `<h4>Request body</h4>${bodySchema.$ref || bodySchema.oneOf ? `<p class="type">${typeOf(bodySchema)}</p>` : schemaBlock(bodySchema)}`
      : '') +
    `<h4>Responses</h4>${responsesBlock((operation.responses ?? {}) as Record<string, Json>)}</section>`
  );
};

const style = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1e293b;display:flex}
nav{width:280px;flex:none;height:100vh;overflow:auto;position:sticky;top:0;background:#f8fafc;border-right:1px solid #e2e8f0;padding:16px;box-sizing:border-box;font-size:14px}
nav a{color:#1e293b;text-decoration:none;display:block;padding:2px 0}
nav h2{font-size:13px;text-transform:uppercase;color:#64748b;margin:16px 0 4px}
main{max-width:980px;padding:24px 40px;flex:1;min-width:0}
code{font:13px ui-monospace,monospace;background:#f1f5f9;padding:1px 4px;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:8px 0 16px;font-size:14px}
th,td{border:1px solid #e2e8f0;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f8fafc}
.method{display:inline-block;min-width:64px;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:2px 6px}
.get{background:#2563eb}.post{background:#16a34a}.delete{background:#dc2626}
.operation{border-top:1px solid #e2e8f0;padding-top:8px;margin-top:24px}
.status{display:inline-block;border-radius:4px;padding:0 6px;color:#fff}
.status.ok{background:#16a34a}.status.err{background:#b45309}
.opt{color:#64748b;font-size:12px}
.response{margin-left:12px}
.response h5{margin:12px 0 4px;font-size:14px}
`;

/** The whole reference page of `document`. */
export const referencePage = (document: Json): string => {
  const info = document.info as Json;
  const paths = document.paths as Record<string, Record<string, Json>>;
  const components = (document.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  const operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  const tags = (document.tags as Json[] | undefined)?.map((tag) => String(tag.name)) ?? [];
  const nav = tags
    .map((tag) => {
      const items = operations
        .filter(({ operation }) => (operation.tags as string[] | undefined)?.includes(tag))
        .map(
          ({ path, method, operation }) =>
            `<a href="#${anchor('op', String(operation.operationId))}">${method.toUpperCase()} ${escapeHtml(path.replace('/api/v1', ''))}</a>`,
        )
        .join('');
      return `<h2>${escapeHtml(tag)}</h2>${items}`;
    })
    .join('');
  const sections = tags
    .map((tag) => {
      const tagInfo = (document.tags as Json[]).find((t) => t.name === tag);
      const body = operations
        .filter(({ operation }) => (operation.tags as string[] | undefined)?.includes(tag))
        .map(({ path, method, operation }) => operationBlock(document, path, method, operation))
        .join('');
      return `<h2>${escapeHtml(tag)}</h2>${markdown(String(tagInfo?.description ?? ''))}${body}`;
    })
    .join('');
  const schemaSections = Object.entries(schemas)
    .map(
      ([name, schema]) =>
        `<section id="${anchor('schema', name)}"><h3>${escapeHtml(name)}</h3>${markdown(String(schema.description ?? ''))}${schemaBlock(schema)}</section>`,
    )
    .join('');
  const catalogue = ((document['x-error-catalogue'] ?? []) as Json[])
    .map(
      (entry) =>
        `<tr><td>${escapeHtml(String(entry.status))}</td><td><code>${escapeHtml(String(entry.code))}</code></td>` +
        `<td><code>${escapeHtml(String(entry.error_code))}</code></td><td>${escapeHtml(String(entry.message))}</td></tr>`,
    )
    .join('');
  const headers = Object.entries((components.headers ?? {}) as Record<string, Json>)
    .map(
      ([name, header]) =>
        `<tr><td><code>${escapeHtml(name)}</code></td><td>${inline(String(header.description ?? ''))}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(String(info.title))} ${escapeHtml(String(info.version))}</title><style>${style}</style></head>
<body><nav><strong>${escapeHtml(String(info.title))}</strong> <span class="opt">${escapeHtml(String(info.version))}</span>
<h2>Overview</h2><a href="#overview">Introduction</a><a href="#errors">Errors</a><a href="#headers">Headers</a><a href="#schemas">Schemas</a>${nav}</nav>
<main><h1>${escapeHtml(String(info.title))}</h1>
<p>OpenAPI ${escapeHtml(String(document.openapi))} · version ${escapeHtml(String(info.version))} · the document: <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a></p>
<section id="overview">${markdown(String(info.description ?? ''))}</section>
${sections}
<h2 id="errors">Error codes</h2><p>Every error response is an <a href="#${anchor('schema', 'ErrorEnvelope')}">ErrorEnvelope</a>; <code>error.code</code> is the first documented shape's code, <code>error_code</code> the second's.</p>
<table><tr><th>Status</th><th><code>error.code</code></th><th><code>error_code</code></th><th>Default message</th></tr>${catalogue}</table>
<h2 id="headers">Response headers</h2><table><tr><th>Header</th><th>Meaning</th></tr>${headers}</table>
<h2 id="schemas">Schemas</h2>${schemaSections}
</main></body></html>
`;
};
