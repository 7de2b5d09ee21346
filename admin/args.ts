// The admin command line (docs/design.md "Operating it: the admin command"): options, commands and
// usage text. Pure: nothing here touches the environment, the table or lib/config.ts.
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { DIALECTS, ENGINE_NAMES } from '#lib/dialects/index.ts';

/** Bad command line or bad input file: nothing was changed. Exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command was valid but could not be carried out (unknown organization, table down). Exit code 1. */
export class AdminError extends Error {
  override name = 'AdminError';
}

/** Each engine and the URLs it takes, for the usage text. */
const engineUrls = DIALECTS.flatMap((dialect) => dialect.engines)
  .map(({ name, urlSchemes, embedded }) =>
    embedded
      ? `${name}: ${urlSchemes[0]} (the default) with --seed file.sql`
      : `${name}: ${urlSchemes.map((scheme) => `${scheme}//`).join(' or ')} URL`,
  )
  .join('; ');

export const USAGE = `Usage: npm run --silent admin -- [--stage STAGE] <command> [options]

Provisions organizations, API keys, connected databases and branding. Prints one JSON
document on stdout; errors (and warnings) are one line each on stderr (exit 2: bad usage
or input file, exit 1: the command failed).

Commands:
  org create --name NAME [--plan free|starter|professional|business|enterprise]
  org set-plan --org ID --plan PLAN
  org set-limits --org ID [--per-minute N] [--per-hour N] [--concurrent N] [--monthly N]
      [--indexing N] [--messages-per-minute N] [--messages-per-hour N]
      an enterprise organization's own limits (requests per minute and hour, answering requests
      in flight, requests per month, indexing operations per month, messages per minute and
      hour); the word default instead of N goes back to the plan's figure. Prints the
      organization and its effective limits.
  key create --org ID --kind sk|pk [--database UUID] [--origins https://a.example,https://b.example]
      [--manage] [--name NAME]
      a pk key needs --database (a database of the organization); --database and --origins
      are for pk keys only. --manage (sk keys only) lets the key change the organization
      through the control plane (docs/control-plane.md). The plaintext key is shown once, in
      this output.
  key revoke --id KEY_ID
  key list --org ID
  branding set --org ID --file branding.json
  database add --org ID --name NAME --engine ${ENGINE_NAMES.join('|')}
      (--url-file FILE | --url-env NAME | --url URL)
      [--requires-scoping] [--tenant-column COL] [--scope-column COL] [--scope-required]
      [--shared-tables a,b] [--policy policy.json] [--seed file.sql] [--id UUID]
      --scope-required (or "scope_required": true in --policy): a request without
      X-Scope-Id is refused (403); without it such a request reads every scope of its tenant.
      ${engineUrls}. The URL is stored
      encrypted and never shown. A URL with a password belongs in a file (--url-file, the URL on one line)
      or an environment variable (--url-env NAME): on the command line (--url) it is kept in
      the shell's history and visible to other users in the process list, so --url with a
      password works but prints a warning on stderr. Give one of the three.
      The database is connected to and tested first: a failed connection test exits 1 and
      stores nothing. Then it is stored and indexed (the control plane's first indexing job,
      run here); indexing counts against the plan's indexing quota.
      --descriptions file.json: column descriptions, {"table_metadata": {"<table>":
      [{"column_name": "...", "column_description": "..."}]}}, kept with the database and
      applied at every indexing. --glossary file.json: {"synonyms": {...}, "metrics": {...},
      "filters": {...}}, checked against the new index and the SQL guard (docs/databases.md).
  database egress set --database UUID [--model-data rows|aggregates|schema_only]
      [--redact table.column,… | --redact ""]
      what of the database may reach a model provider (docs/model-engines.md "Data egress"):
      rows (the default) sample values and result rows; aggregates: result rows only when
      every column is an aggregate; schema_only: neither, the service writes the answer.
      --redact names columns never sent to a model ("" clears the list). Seen by the next
      question; no re-index.
  database glossary set --database UUID --file glossary.json
      checks a glossary against the schema index and the SQL guard, then replaces it
  database list --org ID
  database index --id UUID
      connects, re-reads the schema (tables, views, columns, keys, row estimates, sample
      values) and stores it as the database's schema index, as an indexing job of the
      control plane run here; counts against the quota
  sql check --database UUID [--tenant T] [--scope S] [--execute] [--timeout-ms N]
      (--sql "SELECT ..." | --jsonl queries.jsonl)
      shows what the SQL guard makes of each query for the tenant, and runs it with
      --execute. Input lines: {"id": "...", "sql": "..."}. Output: one JSON line per query,
      {"id", "allowed": true, "sql", "params", "rows"} (rows with --execute only),
      {"id", "allowed": false, "code", "message"}, or {"id", "allowed": true, ..., "error":
      {"code": "DB_QUERY_FAILED", "detail": "QUERY_TIMEOUT"}} for a query that failed.
      A --jsonl line that is not such a query (not JSON, id or sql missing or empty, an
      unknown field) is answered {"id", "allowed": false, "code": "INVALID_INPUT", "message"}
      (id: the line's own, else line-N) and the run goes on; blank lines are skipped. Exit 1
      when any line is INVALID_INPUT, GUARD_ERROR or a failed query, 0 otherwise.
  pattern add --database UUID --question TEXT --sql "SELECT ..."
      stores a query pattern (a question and the SQL that answers it) that the model engines
      show to the model as an example. The SQL is checked by the SQL guard against the
      database's schema index first, with a placeholder tenant; a query the guard refuses is
      not stored (exit 2, with the guard's code).
  pattern list --database UUID
  personality create --org ID --name NAME [--instructions TEXT] [--engine builtin|openai|bedrock]
      [--model MODEL]
      an AI personality, named by personality_id in chat messages: instructions for the
      answering engine (tone, focus), and the engine and model that answer its
      conversations (--model needs openai or bedrock). Without --engine the organization's
      or the stage's engine answers.
  personality list --org ID
  conversations migrate-addresses
      moves conversations kept before a conversation's tenant was a part of its address
      (an embed session's <tenant>/<scope>, and X-Tenant-Id conversations kept under their
      scope alone) to their address of tenant and scope; run once after the deploy that brings
      it. Safe to repeat: prints {"moved", "messages"}, 0 and 0 once nothing is left.

Target:
  default        the local stack: .local/stack.json (written by npm start), else
                 http://127.0.0.1:8000 and table tabletalk-local; the DYNAMODB_ENDPOINT and
                 TABLE_NAME environment variables override both
  --stage STAGE  a deployed stage: table tabletalk-STAGE, AWS credentials and region from
                 the environment

Options:
  -h, --help     show this text
`;

const optionConfig = {
  help: { type: 'boolean', short: 'h' },
  stage: { type: 'string' },
  name: { type: 'string' },
  plan: { type: 'string' },
  org: { type: 'string' },
  kind: { type: 'string' },
  database: { type: 'string' },
  origins: { type: 'string' },
  id: { type: 'string' },
  file: { type: 'string' },
  engine: { type: 'string' },
  url: { type: 'string' },
  'url-file': { type: 'string' },
  'url-env': { type: 'string' },
  seed: { type: 'string' },
  'requires-scoping': { type: 'boolean' },
  'tenant-column': { type: 'string' },
  'scope-column': { type: 'string' },
  'scope-required': { type: 'boolean' },
  'shared-tables': { type: 'string' },
  policy: { type: 'string' },
  glossary: { type: 'string' },
  descriptions: { type: 'string' },
  'model-data': { type: 'string' },
  redact: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-hour': { type: 'string' },
  concurrent: { type: 'string' },
  monthly: { type: 'string' },
  indexing: { type: 'string' },
  'messages-per-minute': { type: 'string' },
  'messages-per-hour': { type: 'string' },
  tenant: { type: 'string' },
  scope: { type: 'string' },
  execute: { type: 'boolean' },
  'timeout-ms': { type: 'string' },
  sql: { type: 'string' },
  jsonl: { type: 'string' },
  instructions: { type: 'string' },
  model: { type: 'string' },
  question: { type: 'string' },
  manage: { type: 'boolean' },
} as const satisfies ParseArgsOptionsConfig;

export type OptionName = keyof typeof optionConfig;
export type OptionValues = {
  [K in OptionName]?: (typeof optionConfig)[K]['type'] extends 'boolean' ? boolean : string;
};

interface CommandSpec {
  required: readonly OptionName[];
  optional: readonly OptionName[];
}

export const commands = {
  'org create': { required: ['name'], optional: ['plan'] },
  'org set-plan': { required: ['org', 'plan'], optional: [] },
  'org set-limits': {
    required: ['org'],
    optional: [
      'per-minute',
      'per-hour',
      'concurrent',
      'monthly',
      'indexing',
      'messages-per-minute',
      'messages-per-hour',
    ],
  },
  'key create': { required: ['org', 'kind'], optional: ['database', 'origins', 'manage', 'name'] },
  'key revoke': { required: ['id'], optional: [] },
  'key list': { required: ['org'], optional: [] },
  'branding set': { required: ['org', 'file'], optional: [] },
  'database add': {
    required: ['org', 'name', 'engine'],
    optional: [
      'url',
      'url-file',
      'url-env',
      'seed',
      'requires-scoping',
      'tenant-column',
      'scope-column',
      'scope-required',
      'shared-tables',
      'policy',
      'id',
      'glossary',
      'descriptions',
    ],
  },
  'database list': { required: ['org'], optional: [] },
  'database index': { required: ['id'], optional: [] },
  'database glossary set': { required: ['database', 'file'], optional: [] },
  'database egress set': { required: ['database'], optional: ['model-data', 'redact'] },
  'sql check': {
    required: ['database'],
    optional: ['tenant', 'scope', 'execute', 'timeout-ms', 'sql', 'jsonl'],
  },
  'pattern add': { required: ['database', 'question', 'sql'], optional: [] },
  'pattern list': { required: ['database'], optional: [] },
  'personality create': { required: ['org', 'name'], optional: ['instructions', 'engine', 'model'] },
  'personality list': { required: ['org'], optional: [] },
  'conversations migrate-addresses': { required: [], optional: [] },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof commands;

const isCommandName = (name: string): name is CommandName => Object.hasOwn(commands, name);

export type CommandLine =
  | { help: true }
  | { help: false; command: CommandName; stage: string | undefined; values: OptionValues }
  | { help: false; command: undefined };

/** A word the user typed, quoted, unless it could be a secret (anything but a plain word). */
const shown = (word: string): string => (/^[A-Za-z][A-Za-z -]{0,40}$/.test(word) ? ` "${word}"` : '');

/**
 * Parses argv (without node and the script). Throws UsageError. Messages never repeat an
 * argument's value: a mistyped option could carry a connection URL with its password.
 */
export const parseCommandLine = (argv: readonly string[]): CommandLine => {
  let parsed: ReturnType<
    typeof parseArgs<{ options: typeof optionConfig; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args: [...argv], options: optionConfig, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'(-[^'=\s]*)/.exec((error as Error).message)?.[1];
      throw new UsageError(`unknown option${option ? ` ${option}` : ''} (see --help)`);
    }
    throw new UsageError(`${(error as Error).message.split('\n')[0] ?? 'invalid command line'} (see --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length === 0) return { help: false, command: undefined };

  const [group = '', action] = positionals;
  const groups = new Set(Object.keys(commands).map((name) => name.split(' ')[0]));
  if (!groups.has(group)) throw new UsageError(`unknown command${shown(group)} (see --help)`);
  const actions = Object.keys(commands)
    .filter((name) => name.startsWith(`${group} `))
    .map((name) => name.slice(group.length + 1));
  if (action === undefined) throw new UsageError(`${group}: missing subcommand (${actions.join(', ')})`);
  // Three-word commands ("database glossary set") take the third word too.
  const longer = positionals[2] === undefined ? undefined : `${group} ${action} ${positionals[2]}`;
  const command = longer !== undefined && isCommandName(longer) ? longer : `${group} ${action}`;
  if (!isCommandName(command)) {
    throw new UsageError(`unknown command${shown(`${group} ${action}`)} (${group}: ${actions.join(', ')})`);
  }
  if (positionals.length > command.split(' ').length) {
    throw new UsageError(`${command}: unexpected extra argument; options are written --name value`);
  }

  const spec: CommandSpec = commands[command];
  const allowed = new Set<string>([...spec.required, ...spec.optional, 'stage', 'help']);
  for (const name of Object.keys(values)) {
    if (!allowed.has(name)) throw new UsageError(`${command} does not take --${name}`);
  }
  for (const name of spec.required) {
    const value = values[name];
    if (value === undefined || value === '') throw new UsageError(`${command} needs --${name} (see --help)`);
  }
  const { stage, ...rest } = values;
  return { help: false, command, stage, values: rest };
};

// Small validators shared by the commands (all throw UsageError naming the option).

export const organizationIdOption = (value: string | undefined, option = 'org'): number => {
  const id = Number(value);
  if (!value || !/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(id)) {
    throw new UsageError(`--${option} must be an organization id (a positive integer)`);
  }
  return id;
};

export const listOption = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** Browser origins such as https://app.example.com (no path); returned normalised. */
export const originsOption = (value: string | undefined): string[] =>
  listOption(value).map((item) => {
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      throw new UsageError(
        `--origins: "${item.slice(0, 100)}" is not an origin like https://app.example.com`,
      );
    }
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    if (!/^https?:$/.test(url.protocol) || !bare) {
      throw new UsageError(
        `--origins: "${url.origin}" must be a bare http(s) origin like https://app.example.com`,
      );
    }
    return url.origin;
  });
