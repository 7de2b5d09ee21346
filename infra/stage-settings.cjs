// The settings of the stage being packaged or deployed: serverless.yml's `custom.stageSettings`
// resolves here (a `${file(...)}` variable source). It refuses what would deploy a stage with
// settings nobody chose (docs/operator-guide.md "Per-stage settings and secrets"):
//
// - A stage must be listed under `custom.stages`, or be given a listed stage's settings with
//   `--param="stage-settings=<stage>"`: an unknown name must not quietly get dev's (DEBUG logs, no
//   point-in-time recovery, no deletion protection).
// - Every stage but `local` is deployed, and needs at package time:
//     TABLETALK_JWT_ISSUER    the `iss` every portal token of the stage must carry
//     TABLETALK_JWT_AUDIENCE  the `aud` every portal token must carry; it names the stage
//                             (`tabletalk:prod`, `https://api.example.com/prod`), so that no two
//                             stages share one and a token minted for one never opens another
//     TABLETALK_SECRETS_ARN   the full ARN of the stage's Secrets Manager secret, in the stage's
//                             region: a JSON object with CURSOR_SECRET, JWT_SECRET (unless
//                             TABLETALK_JWT_JWKS_URL is set), EMBED_SESSION_SECRET, OPENAI_API_KEY
//     TABLETALK_ALARM_EMAIL   the address the stage's alarms notify (infra/monitoring.yml), or
//                             `none` to deploy alarms that notify nobody, which packaging then
//                             says loudly (docs/design.md "Alarms notify someone")
//   and optionally TABLETALK_JWT_JWKS_URL (https). Secret values are never taken from the
//   environment for a deployed stage: TABLETALK_JWT_SECRET and its kind are refused there.
// - The local stage (npm start, npm run offline) keeps its secrets as plain values, which
//   local/stack.ts fills from files under .local/ (or TABLETALK_<NAME>).
'use strict';

const LOCAL = 'local';
const PARAM = 'stage-settings';

/** Plain secrets: the local stage's only; a deployed stage reads them from SECRETS_ARN. */
const PLAIN_SECRETS = {
  jwtSecret: 'TABLETALK_JWT_SECRET',
  cursorSecret: 'TABLETALK_CURSOR_SECRET',
  embedSessionSecret: 'TABLETALK_EMBED_SESSION_SECRET',
  openaiApiKey: 'TABLETALK_OPENAI_API_KEY',
};

const ALARMS_TO_NOBODY = 'none';
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:([a-z0-9-]+):\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/;

/** An error serverless prints as it is, without a stack trace. */
const refusal = (message) => {
  const error = new Error(message);
  error.stack = message;
  return error;
};

const env = (name) => {
  const value = process.env[name];
  return value === undefined ? '' : value.trim();
};

/** The same rule as lib/auth/jwt.ts `audienceNamesStage`: the stage name as a whole word. */
const audienceNamesStage = (audience, stage) => {
  const escaped = stage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`, 'i').test(audience);
};

const paramValue = (options, name) => {
  const params = [].concat(options.param || []);
  for (const item of params) {
    const match = /^([^=]+)=(.*)$/.exec(String(item));
    if (match && match[1].trim() === name) return match[2].trim();
  }
  return undefined;
};

const baseSettings = (stage, stages, options) => {
  if (Object.hasOwn(stages, stage)) return stages[stage];
  const known = Object.keys(stages).join(', ');
  const base = paramValue(options, PARAM);
  if (base === undefined) {
    throw refusal(
      `Unknown stage "${stage}": serverless.yml custom.stages lists ${known}. Add the stage there with ` +
        `its own settings, or package it with --param="${PARAM}=<one of them>" to give it that stage's ` +
        'settings explicitly (docs/operator-guide.md "Per-stage settings and secrets").',
    );
  }
  if (!Object.hasOwn(stages, base) || base === LOCAL) {
    throw refusal(
      `--param="${PARAM}=${base}" names no deployable stage: use one of ` +
        `${Object.keys(stages)
          .filter((name) => name !== LOCAL)
          .join(', ')}.`,
    );
  }
  return stages[base];
};

/** Said once per process (serverless may resolve the settings more than once), on stderr. */
let warnedAlarmsToNobody = false;
const warnAlarmsToNobody = (stage) => {
  if (warnedAlarmsToNobody) return;
  warnedAlarmsToNobody = true;
  const line = '!'.repeat(78);
  process.stderr.write(
    `\n${line}\n!! WARNING: stage "${stage}" is packaged with TABLETALK_ALARM_EMAIL=${ALARMS_TO_NOBODY}:\n` +
      '!! its alarms change state but NOTIFY NOBODY (their SNS topic has no subscriber). Set\n' +
      '!! TABLETALK_ALARM_EMAIL to an address before deploying a stage people rely on\n' +
      `!! (docs/operator-guide.md "Alarms").\n${line}\n\n`,
  );
};

const deployedSettings = (stage, region) => {
  const issuer = env('TABLETALK_JWT_ISSUER');
  const audience = env('TABLETALK_JWT_AUDIENCE');
  const jwksUrl = env('TABLETALK_JWT_JWKS_URL');
  const secretsArn = env('TABLETALK_SECRETS_ARN');
  const alarmEmail = env('TABLETALK_ALARM_EMAIL');
  const problems = [];
  if (!issuer) problems.push('TABLETALK_JWT_ISSUER is not set: the issuer (iss) of the portal tokens');
  if (!audience) {
    problems.push(
      `TABLETALK_JWT_AUDIENCE is not set: the audience (aud) of the portal tokens, e.g. tabletalk:${stage}`,
    );
  } else if (!audienceNamesStage(audience, stage)) {
    problems.push(
      `TABLETALK_JWT_AUDIENCE "${audience}" does not name the stage "${stage}" (e.g. tabletalk:${stage}): ` +
        'each stage needs its own audience, or a token of one stage would open another',
    );
  }
  if (jwksUrl && !/^https:\/\//.test(jwksUrl))
    problems.push('TABLETALK_JWT_JWKS_URL must be an https:// URL');
  const arn = SECRET_ARN.exec(secretsArn);
  if (!secretsArn) {
    problems.push(
      "TABLETALK_SECRETS_ARN is not set: the ARN of the stage's Secrets Manager secret, a JSON object " +
        `with CURSOR_SECRET${jwksUrl ? '' : ', JWT_SECRET (or set TABLETALK_JWT_JWKS_URL)'}, EMBED_SESSION_SECRET and OPENAI_API_KEY`,
    );
  } else if (!arn) {
    problems.push(
      `TABLETALK_SECRETS_ARN "${secretsArn}" is not a Secrets Manager secret ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>-<suffix>)`,
    );
  } else if (arn[1] !== region) {
    problems.push(
      `TABLETALK_SECRETS_ARN is in ${arn[1]}, the stage deploys to ${region}: use a secret of ${region}`,
    );
  }
  if (!alarmEmail) {
    problems.push(
      "TABLETALK_ALARM_EMAIL is not set: the address the stage's alarms notify (an SNS topic with that " +
        `address subscribed), or ${ALARMS_TO_NOBODY} to deploy alarms that notify nobody`,
    );
  } else if (alarmEmail !== ALARMS_TO_NOBODY && !EMAIL.test(alarmEmail)) {
    problems.push(`TABLETALK_ALARM_EMAIL "${alarmEmail}" is not one email address (or ${ALARMS_TO_NOBODY})`);
  }
  for (const name of Object.values(PLAIN_SECRETS)) {
    if (env(name)) {
      problems.push(
        `${name} is set: a deployed stage takes no secret from the environment; put ` +
          `${name.replace('TABLETALK_', '')} into the secret TABLETALK_SECRETS_ARN names, and unset ${name}`,
      );
    }
  }
  if (problems.length > 0) {
    throw refusal(
      `Stage "${stage}" cannot be packaged without its settings (docs/operator-guide.md "Per-stage settings and secrets"):\n` +
        problems.map((problem) => `  - ${problem}`).join('\n'),
    );
  }
  if (alarmEmail === ALARMS_TO_NOBODY) warnAlarmsToNobody(stage);
  return {
    jwtIssuer: issuer,
    jwtAudience: audience,
    jwtJwksUrl: jwksUrl,
    secretsArn,
    secretsArnResource: secretsArn,
    alarmSubscriptions: alarmEmail === ALARMS_TO_NOBODY ? [] : [{ Protocol: 'email', Endpoint: alarmEmail }],
    ...Object.fromEntries(Object.keys(PLAIN_SECRETS).map((key) => [key, ''])),
  };
};

const localSettings = (region) => ({
  // Checked locally only when set.
  jwtIssuer: env('TABLETALK_JWT_ISSUER'),
  jwtAudience: env('TABLETALK_JWT_AUDIENCE'),
  jwtJwksUrl: env('TABLETALK_JWT_JWKS_URL'),
  // Never Secrets Manager: the local stack's secrets are plain values.
  secretsArn: '',
  // The IAM statement needs a resource; the local stage is never deployed.
  secretsArnResource: `arn:aws:secretsmanager:${region}:000000000000:secret:tabletalk/local/none`,
  // The local stage is never deployed: nobody to notify.
  alarmSubscriptions: [],
  ...Object.fromEntries(Object.entries(PLAIN_SECRETS).map(([key, name]) => [key, env(name)])),
});

module.exports = async ({ options, resolveVariable }) => {
  const stage = await resolveVariable('sls:stage');
  const stages = await resolveVariable('self:custom.stages');
  const region = await resolveVariable('self:provider.region');
  const base = baseSettings(stage, stages, options);
  return { ...base, ...(stage === LOCAL ? localSettings(region) : deployedSettings(stage, region)) };
};
