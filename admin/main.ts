// The admin command (docs/design.md "Operating it: the admin command"): `npm run --silent admin -- <args>`.
// stdout carries one JSON document per command and nothing else; errors are one line on stderr,
// exit code 2 for a bad command line or input file, 1 for a command that failed.
// Connection URLs and passwords are never printed, on either stream.
import { URL_SCHEMES } from '#lib/dialects/index.ts';
import { AdminError, parseCommandLine, USAGE, UsageError } from './args.ts';
import { runners } from './commands.ts';
import { applyTarget, checkTarget, describeTarget, resolveTarget, type Target } from './target.ts';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/** A URL of any engine's scheme (lib/dialects/index.ts). */
const databaseUrl = new RegExp(
  `\\b(?:${URL_SCHEMES.map((scheme) => scheme.slice(0, -1)).join('|')}):\\/\\/[^\\s)]+`,
  'gi',
);

/** Defence in depth: whatever a message carries, database URLs and their credentials are cut out. */
const redact = (text: string, secrets: readonly string[]): string => {
  let safe = text;
  for (const secret of secrets) if (secret.length > 3) safe = safe.split(secret).join('<redacted>');
  return safe
    .replace(databaseUrl, '<redacted url>')
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@'"]*@/gi, '$1<redacted>@');
};

const write = (stream: NodeJS.WriteStream, text: string): Promise<void> =>
  new Promise((done) => {
    stream.write(text, () => done());
  });

/** Turns any failure into [exit code, one line]. */
const describeFailure = (error: unknown, target: Target | undefined): [number, string] => {
  if (error instanceof UsageError) return [EXIT_USAGE, error.message];
  if (error instanceof AdminError) return [EXIT_FAILED, error.message];
  if (error instanceof Error) {
    // ServiceError from lib/manage and lib/store (e.g. "API key … not found") carries a message
    // made for people; a refused input (VALIDATION) is bad usage.
    if (error.name === 'ServiceError')
      return [(error as { kind?: string }).kind === 'VALIDATION' ? EXIT_USAGE : EXIT_FAILED, error.message];
    const code = (error as { code?: unknown }).code;
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (
      target?.kind === 'local' &&
      status === undefined &&
      typeof code === 'string' &&
      /^E[A-Z]+$/.test(code)
    ) {
      return [
        EXIT_FAILED,
        `DynamoDB not reachable at ${target.endpoint}: start the local stack with npm start`,
      ];
    }
    if (error.name === 'CredentialsProviderError') {
      return [
        EXIT_FAILED,
        `no AWS credentials for ${target ? describeTarget(target) : 'AWS'}: ${error.message}`,
      ];
    }
    const where = target ? ` (${describeTarget(target)})` : '';
    return [EXIT_FAILED, `${error.name}${where}: ${error.message}`];
  }
  return [EXIT_FAILED, String(error)];
};

const main = async (argv: readonly string[]): Promise<number> => {
  let target: Target | undefined;
  const secrets: string[] = [];
  try {
    const line = parseCommandLine(argv);
    if (line.help) {
      await write(process.stdout, USAGE);
      return 0;
    }
    if (line.command === undefined) {
      await write(process.stdout, USAGE);
      return EXIT_USAGE;
    }
    if (line.values.url !== undefined && line.values.url !== 'memory:') secrets.push(line.values.url);
    target = resolveTarget(line.stage);
    applyTarget(target);
    let connected = false;
    const connect = async () => {
      if (connected) return;
      await checkTarget(target as Target);
      connected = true;
    };
    const emit = (item: unknown) => write(process.stdout, `${JSON.stringify(item)}\n`);
    const result = await runners[line.command](line.values, connect, emit);
    // A command that printed a line per item (sql check) returns nothing more to print.
    if (result !== undefined) await emit(result);
    return 0;
  } catch (error) {
    const [code, message] = describeFailure(error, target);
    const oneLine = redact(message, secrets)
      .replace(/\s*\n\s*/g, ' ')
      .trim();
    await write(process.stderr, `admin: ${oneLine}\n`);
    return code;
  }
};

// Exit by letting the event loop end, not with process.exit: process.exit right after the
// guard's parser ran can deadlock Node 24 at shutdown (a V8 background compile job waits for a
// main-thread GC while the main thread joins it; nodejs/node#54918), leaving the command hung
// after its output. The unref'd timer still ends a process that some handle keeps alive.
const exitCode = await main(process.argv.slice(2));
process.exitCode = exitCode;
setTimeout(() => process.exit(exitCode), 1_000).unref();
