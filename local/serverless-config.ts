// The resolved serverless configuration (`serverless print`), cached under .local/ and rebuilt
// when serverless.yml, infra/, the route objects (lib/routes/, which make the functions' http
// events: infra/functions.ts) or package.json change. The local gateway and the invoke command
// read their routes, handlers and environment from it, so local runs match the deployed stage.
// Tests read serverless.yml as data instead (`readServerlessYml`), its functions built alike.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { type FunctionSettings, functionsOf } from '../infra/functions.ts';
import { routes as declaredRoutes } from '../lib/routes/index.ts';

export interface HttpEvent {
  path: string;
  method: string;
  response?: { transferMode?: string };
}

export interface FunctionConfig {
  handler: string;
  timeout?: number;
  environment?: Record<string, string>;
  events?: Array<{ http?: HttpEvent | string }>;
}

export interface ServerlessConfig {
  service: string;
  provider: { environment?: Record<string, string>; timeout?: number; stage?: string };
  functions: Record<string, FunctionConfig>;
  custom?: { tableName?: string };
}

export interface Route {
  functionName: string;
  handler: string;
  method: string;
  /** Template with API Gateway path parameters, always starting with `/`. */
  path: string;
  streaming: boolean;
  timeoutSeconds: number;
}

const run = promisify(execFile);

const inputsHash = (root: string): string => {
  const hash = createHash('sha256');
  const files = [
    'serverless.yml',
    'package.json',
    ...readdirSync(join(root, 'infra')).map((f) => join('infra', f)),
    ...readdirSync(join(root, 'lib/routes')).map((f) => join('lib/routes', f)),
  ];
  for (const file of files.sort()) hash.update(file).update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
};

export const loadServerlessConfig = async (root: string, stage: string): Promise<ServerlessConfig> => {
  const cacheDir = join(root, '.local');
  const cacheFile = join(cacheDir, `serverless-${stage}-${inputsHash(root)}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as ServerlessConfig;
  const bin = resolve(root, 'node_modules/.bin/serverless');
  const { stdout } = await run(bin, ['print', '--format', 'json', '--stage', stage], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off' },
  });
  const config = JSON.parse(stdout.slice(stdout.indexOf('{'))) as ServerlessConfig;
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(config));
  return config;
};

/**
 * serverless.yml read as data, with its functions as infra/functions.cjs builds them from the
 * route objects and `custom.functionSettings` (variables stay unresolved; no route depends on one).
 */
export const readServerlessYml = <T extends object = object>(
  root: string,
): T & ServerlessConfig & { custom: { functionSettings?: Record<string, FunctionSettings> } } => {
  const yml = parse(readFileSync(join(root, 'serverless.yml'), 'utf8')) as T &
    ServerlessConfig & { custom: { functionSettings?: Record<string, FunctionSettings> } };
  return { ...yml, functions: functionsOf(declaredRoutes, yml.custom.functionSettings) };
};

export const routesOf = (config: ServerlessConfig): Route[] => {
  const routes: Route[] = [];
  for (const [functionName, fn] of Object.entries(config.functions)) {
    for (const event of fn.events ?? []) {
      if (!event.http) continue;
      const http: HttpEvent =
        typeof event.http === 'string'
          ? { method: event.http.split(' ')[0] ?? 'get', path: event.http.split(' ')[1] ?? '/' }
          : event.http;
      routes.push({
        functionName,
        handler: fn.handler,
        method: http.method.toUpperCase(),
        path: `/${http.path.replace(/^\/+/, '')}`,
        streaming: http.response?.transferMode === 'STREAM',
        timeoutSeconds: fn.timeout ?? config.provider.timeout ?? 29,
      });
    }
  }
  return routes;
};

/** Environment of the functions: the provider's, then each function's (later wins). */
export const environmentOf = (config: ServerlessConfig): Record<string, string> => {
  const environment: Record<string, string> = { ...config.provider.environment };
  for (const fn of Object.values(config.functions)) Object.assign(environment, fn.environment);
  return environment;
};
