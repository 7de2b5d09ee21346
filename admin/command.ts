// What every admin command is and shares (admin/commands.ts lists them): its signature, and the
// helpers that read its input. A command validates its whole input first (UsageError, nothing
// touched), then calls `connect()` once and works through lib/store.
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as v from 'valibot';
import { uuidPattern } from '#lib/ids.ts';
import { type DatabaseRecord, findDatabaseById } from '#lib/store/databases.ts';
import { findOrganization } from '#lib/store/organizations.ts';
import { AdminError, type OptionValues, UsageError } from './args.ts';

export type Connect = () => Promise<void>;
/** Writes one JSON line to stdout at once (commands that print a line per item, like sql check). */
type Emit = (line: unknown) => Promise<void>;
/** A command's result is printed as one JSON document; a command that emitted lines returns undefined. */
export type Run = (values: OptionValues, connect: Connect, emit: Emit) => Promise<unknown>;

// ---- input helpers -------------------------------------------------------------------------

/** Relative paths are relative to where the user ran `npm run admin` (npm itself runs in the project root). */
const inputPath = (path: string): string =>
  isAbsolute(path)
    ? path
    : resolve(
        process.env.npm_lifecycle_event === 'admin' ? (process.env.INIT_CWD ?? process.cwd()) : process.cwd(),
        path,
      );

export const existingFile = (option: string, path: string): string => {
  const absolute = inputPath(path);
  let isFile = false;
  try {
    isFile = statSync(absolute).isFile();
  } catch {
    throw new UsageError(`--${option}: no such file ${absolute}`);
  }
  if (!isFile) throw new UsageError(`--${option}: ${absolute} is not a file`);
  return absolute;
};

export const readJsonFile = (option: string, path: string): unknown => {
  const absolute = existingFile(option, path);
  try {
    return JSON.parse(readFileSync(absolute, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `--${option}: ${absolute} is not valid JSON (${(error as Error).message.split('\n')[0]})`,
    );
  }
};

/** A warning: one line on stderr, so that stdout stays the command's JSON. */
export const warn = (text: string): Promise<void> =>
  new Promise((done) => {
    process.stderr.write(`admin: warning: ${text}\n`, () => done());
  });

/** One line naming every invalid field, e.g. `colors.primary: must be a hex color like #1a2b3c`. */
const describeIssues = (issues: readonly v.BaseIssue<unknown>[]): string =>
  issues
    .map((issue) => {
      const path = v.getDotPath(issue);
      const message =
        issue.type === 'strict_object' && issue.expected === 'never' ? 'unknown field' : issue.message;
      return `${path ?? '(top level)'}: ${message}`;
    })
    .join('; ');

export const validated = <S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  what: string,
): v.InferOutput<S> => {
  const result = v.safeParse(schema, input);
  if (!result.success) throw new UsageError(`invalid ${what}: ${describeIssues(result.issues)}`);
  return result.output;
};

export const uuidOption = (option: string, value: string | undefined): string => {
  if (!value || !uuidPattern.test(value)) throw new UsageError(`--${option} must be a UUID`);
  return value.toLowerCase();
};

/** The database with this id, or an AdminError naming it. */
export const databaseById = async (id: string): Promise<DatabaseRecord> => {
  const database = await findDatabaseById(id);
  if (!database) throw new AdminError(`database ${id} not found`);
  return database;
};

export const organizationMustExist = async (id: number) => {
  const organization = await findOrganization(id);
  if (!organization) throw new AdminError(`organization ${id} not found`);
  return organization;
};
