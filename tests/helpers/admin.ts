// Runs the admin command as a real child process (Node 24 from node_modules/.bin, as
// `npm run admin` does) against the suite's DynamoDB Local, found through the environment the
// integration global setup exports.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';

export const root = new URL('../..', import.meta.url).pathname;
const node = join(root, 'node_modules/.bin/node');

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

export const admin = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<AdminRun> =>
  new Promise((done) => {
    execFile(
      node,
      ['admin/main.ts', ...args],
      { cwd: root, env: { ...process.env, ...env }, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });

/** A command that must succeed with one JSON document on stdout. */
export const adminOk = async <T = Record<string, unknown>>(
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<T> => {
  const run = await admin(args, env);
  expect(run.stderr, `stderr of admin ${args.join(' ')}`).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout) as T;
};

/** A command that must succeed with one JSON line per item. */
export const adminLines = async <T = Record<string, unknown>>(
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<T[]> => {
  const run = await admin(args, env);
  expect(run.stderr, `stderr of admin ${args.join(' ')}`).toBe('');
  expect(run.code).toBe(0);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);
};

/** A command that must fail: nothing on stdout, one line on stderr, no stack trace. */
export const adminFails = async (
  expectedCode: number,
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<string> => {
  const run = await admin(args, env);
  expect(run.stdout).toBe('');
  expect(run.code, run.stderr).toBe(expectedCode);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  return run.stderr;
};
