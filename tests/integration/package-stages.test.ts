// What packaging refuses (infra/stage-settings.cjs, docs/operator-guide.md "Per-stage settings and
// secrets"): a stage nobody gave settings to, and a deployed stage without its portal-token issuer
// and audience or its secret's ARN, or with a secret in the environment. And what a deployed
// stage's functions get instead: issuer, audience and the secret's ARN, never a secret value.
// The refusals happen while serverless.yml is resolved, before anything is built, so these runs
// are quick; the full package is checked by package.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { deployedStageSettings, packagingEnvironment } from '../helpers/packaged.ts';

const run = promisify(execFile);
const serverless = resolve(process.cwd(), 'node_modules/.bin/serverless');
const TIMEOUT_MS = 60_000;
const outDir = mkdtempSync(join(tmpdir(), 'tabletalk-package-stages-'));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** `serverless <args>` with `env`; its output, and whether it failed. */
const serverlessRun = async (args: string[], env: NodeJS.ProcessEnv) => {
  try {
    const { stdout, stderr } = await run(serverless, args, {
      cwd: process.cwd(),
      env,
      timeout: TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { failed: false, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return { failed: true, output: `${stdout ?? ''}\n${stderr ?? ''}` };
  }
};

const packageStage = (stage: string, env: NodeJS.ProcessEnv, extra: string[] = []) =>
  serverlessRun(['package', '--stage', stage, '--package', join(outDir, stage), ...extra], env);

/** The resolved configuration of a stage (`serverless print`), as data. */
const printStage = async (stage: string, env: NodeJS.ProcessEnv, extra: string[] = []) => {
  const { failed, output } = await serverlessRun(
    ['print', '--format', 'json', '--stage', stage, ...extra],
    env,
  );
  expect(failed, output).toBe(false);
  return JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as {
    provider: {
      environment: Record<string, string>;
      iam: { role: { statements: { Action: string[]; Resource: unknown[] }[] } };
    };
  };
};

/** A deployed stage's environment without one of its settings. */
const without = (stage: string, ...names: string[]): NodeJS.ProcessEnv => {
  const env = packagingEnvironment(stage);
  for (const name of names) delete env[name];
  return env;
};

describe('serverless package refuses', () => {
  it(
    'an unknown stage, instead of giving it dev’s settings',
    async () => {
      // Act
      const { failed, output } = await packageStage('nosuch', packagingEnvironment('nosuch'));

      // Assert
      expect(failed).toBe(true);
      expect(output).toContain('Unknown stage "nosuch"');
      expect(output).toContain('custom.stages lists local, dev, demo, prod');
      expect(output).toContain('--param="stage-settings=');
    },
    TIMEOUT_MS,
  );

  it(
    'prod without its JWT issuer, audience and secret ARN, naming each',
    async () => {
      // Act
      const { failed, output } = await packageStage(
        'prod',
        without('prod', 'TABLETALK_JWT_ISSUER', 'TABLETALK_JWT_AUDIENCE', 'TABLETALK_SECRETS_ARN'),
      );

      // Assert
      expect(failed).toBe(true);
      expect(output).toContain('Stage "prod" cannot be packaged without its settings');
      expect(output).toContain('TABLETALK_JWT_ISSUER is not set');
      expect(output).toContain('TABLETALK_JWT_AUDIENCE is not set');
      // The secret that holds the cursor and JWT secrets.
      expect(output).toMatch(/TABLETALK_SECRETS_ARN is not set.*CURSOR_SECRET, JWT_SECRET/);
    },
    TIMEOUT_MS,
  );

  it(
    'prod with only the secret ARN missing',
    async () => {
      const { failed, output } = await packageStage('prod', without('prod', 'TABLETALK_SECRETS_ARN'));
      expect(failed).toBe(true);
      expect(output).toContain('TABLETALK_SECRETS_ARN is not set');
      expect(output).not.toContain('TABLETALK_JWT_ISSUER is not set');
    },
    TIMEOUT_MS,
  );

  it(
    'an audience that does not name the stage, and a secret passed in the environment',
    async () => {
      // Arrange: dev's audience on prod, and the old way of passing the JWT secret.
      const env = {
        ...packagingEnvironment('prod'),
        TABLETALK_JWT_AUDIENCE: 'tabletalk:dev',
        TABLETALK_JWT_SECRET: 'a-secret-that-must-not-become-an-environment-value',
      };

      // Act
      const { failed, output } = await packageStage('prod', env);

      // Assert
      expect(failed).toBe(true);
      expect(output).toContain('TABLETALK_JWT_AUDIENCE "tabletalk:dev" does not name the stage "prod"');
      expect(output).toContain(
        'TABLETALK_JWT_SECRET is set: a deployed stage takes no secret from the environment',
      );
      expect(output).not.toContain('a-secret-that-must-not-become-an-environment-value');
    },
    TIMEOUT_MS,
  );
});

describe('alarms that notify nobody', () => {
  it(
    'refuse prod without TABLETALK_ALARM_EMAIL, or with something that is not one address',
    async () => {
      const missing = await packageStage('prod', without('prod', 'TABLETALK_ALARM_EMAIL'));
      expect(missing.failed).toBe(true);
      expect(missing.output).toContain(
        "TABLETALK_ALARM_EMAIL is not set: the address the stage's alarms notify",
      );
      expect(missing.output).toContain('or none to deploy alarms that notify nobody');

      const wrong = await packageStage('prod', {
        ...packagingEnvironment('prod'),
        TABLETALK_ALARM_EMAIL: 'ops',
      });
      expect(wrong.failed).toBe(true);
      expect(wrong.output).toContain('TABLETALK_ALARM_EMAIL "ops" is not one email address');
    },
    TIMEOUT_MS,
  );

  it(
    'are packaged when chosen with TABLETALK_ALARM_EMAIL=none, and packaging says so loudly',
    async () => {
      const { failed, output } = await serverlessRun(['print', '--format', 'json', '--stage', 'prod'], {
        ...packagingEnvironment('prod'),
        TABLETALK_ALARM_EMAIL: 'none',
      });
      expect(failed, output).toBe(false);
      expect(output).toContain('WARNING: stage "prod" is packaged with TABLETALK_ALARM_EMAIL=none');
      expect(output).toContain('NOTIFY NOBODY');
      const config = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as {
        resources: { Resources: { AlarmTopic?: { Properties: { Subscription: unknown } } } };
      };
      const topic = config.resources.Resources.AlarmTopic;
      expect(topic?.Properties.Subscription).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    'are not what an address gets: the topic subscribes it, without a warning',
    async () => {
      const { failed, output } = await serverlessRun(
        ['print', '--format', 'json', '--stage', 'prod'],
        packagingEnvironment('prod'),
      );
      expect(failed, output).toBe(false);
      expect(output).not.toContain('NOTIFY NOBODY');
      expect(output).toContain('"Endpoint": "alarms@test.example"');
    },
    TIMEOUT_MS,
  );
});

describe('a deployed stage’s functions', () => {
  it(
    'get the issuer, the audience and the secret’s ARN, with read access to that secret, and no secret value',
    async () => {
      // Act
      const config = await printStage('prod', packagingEnvironment('prod'));

      // Assert
      const environment = config.provider.environment;
      const expected = deployedStageSettings('prod');
      expect(environment).toMatchObject({
        STAGE: 'prod',
        JWT_ISSUER: expected.TABLETALK_JWT_ISSUER,
        JWT_AUDIENCE: 'tabletalk:prod',
        SECRETS_ARN: expected.TABLETALK_SECRETS_ARN,
      });
      for (const name of ['JWT_SECRET', 'CURSOR_SECRET', 'EMBED_SESSION_SECRET', 'OPENAI_API_KEY'])
        expect(environment[name] ?? '', name).toBe('');
      const readers = config.provider.iam.role.statements.filter((statement) =>
        statement.Action.includes('secretsmanager:GetSecretValue'),
      );
      expect(readers.flatMap((statement) => statement.Resource)).toContain(expected.TABLETALK_SECRETS_ARN);
    },
    TIMEOUT_MS,
  );

  it(
    'of a stage given another stage’s settings explicitly get those settings',
    async () => {
      // Act
      const config = await printStage('alice', { ...packagingEnvironment('alice') }, [
        '--param=stage-settings=dev',
      ]);

      // Assert: dev's log level, alice's own audience.
      expect(config.provider.environment).toMatchObject({
        STAGE: 'alice',
        POWERTOOLS_LOG_LEVEL: 'DEBUG',
        JWT_AUDIENCE: 'tabletalk:alice',
      });
    },
    TIMEOUT_MS,
  );
});
