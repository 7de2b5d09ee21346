// Which engine answers a question (docs/model-engines.md "Choosing an engine"), most specific first:
//   1. the personality's `engine` (and `model`), set with `admin personality create`;
//   2. the organization's override in ANSWER_ENGINE_ORGS (`7=openai:gpt-4o-mini,12=bedrock`);
//   3. the stage's default ANSWER_ENGINE (`builtin` when unset).
// A setting is `<engine>[:<model>]`; only the first colon separates them, so Bedrock model ids
// (`anthropic.claude-3-5-haiku-20241022-v1:0`) pass whole. Without a model the engine's own
// default applies: OPENAI_MODEL, BEDROCK_MODEL. The OpenAI-compatible engine also reads
// OPENAI_BASE_URL (default https://api.openai.com/v1) and OPENAI_API_KEY; Bedrock uses the
// function's role and region.
// The builtin engine is part of every bundle, loaded with a dynamic import on the first question
// it answers (its tables and rules are not evaluated at a cold start: BENCHMARKS.md (c)). The
// model engines are loaded with a dynamic import only when selected, so a deployment without one of them (or
// without its credentials) fails only for the requests configured to use it, with
// EXTERNAL_LLM_ERROR naming the provider; everything else keeps answering.
import * as v from 'valibot';
import { settings } from '#lib/config.ts';
import { ServiceError } from '#lib/errors.ts';
import { logger } from '#lib/log.ts';
import { serviceSecret } from '#lib/secrets-provider.ts';
import type { Engine } from './engine.ts';

/**
 * The answering engines an answer can come from (not a database's engine: that is
 * lib/store/databases.ts DatabaseEngine): what a personality, an organization or a stage chooses.
 */
export const AnsweringEngineName = v.picklist(['builtin', 'openai', 'bedrock']);
export type AnsweringEngineName = v.InferOutput<typeof AnsweringEngineName>;

export const ENGINE_NAMES: readonly AnsweringEngineName[] = AnsweringEngineName.options;

export interface EngineChoice {
  engine: AnsweringEngineName;
  model?: string;
  /** Where the choice came from, for logs and the Server-Timing description. */
  source: 'personality' | 'organization' | 'stage';
}

const isEngineName = (name: string): name is AnsweringEngineName => v.is(AnsweringEngineName, name);

/** `openai:gpt-4o-mini` → {engine, model}; undefined for anything else. */
export const parseEngineSetting = (raw: string | undefined): Omit<EngineChoice, 'source'> | undefined => {
  const text = raw?.trim();
  if (!text) return undefined;
  const colon = text.indexOf(':');
  const name = (colon < 0 ? text : text.slice(0, colon)).trim().toLowerCase();
  const model = colon < 0 ? '' : text.slice(colon + 1).trim();
  if (!isEngineName(name)) return undefined;
  return model ? { engine: name, model } : { engine: name };
};

/** ANSWER_ENGINE_ORGS: `<organization id>=<engine>[:<model>]`, comma-separated. */
export const parseOrganizationSettings = (
  raw: string | undefined,
): Map<number, Omit<EngineChoice, 'source'>> => {
  const settings = new Map<number, Omit<EngineChoice, 'source'>>();
  for (const entry of (raw ?? '').split(',')) {
    const match = /^\s*([1-9][0-9]{0,14})\s*=\s*(.+?)\s*$/.exec(entry);
    const setting = match ? parseEngineSetting(match[2]) : undefined;
    if (match && setting) settings.set(Number(match[1]), setting);
    else if (entry.trim())
      logger.warn('ANSWER_ENGINE_ORGS entry ignored', { entry: entry.trim().slice(0, 100) });
  }
  return settings;
};

let organizationCache:
  | { raw: string | undefined; settings: Map<number, Omit<EngineChoice, 'source'>> }
  | undefined;

const organizationSetting = (organizationId: number) => {
  const raw = settings().answering.organizations;
  if (organizationCache === undefined || organizationCache.raw !== raw) {
    organizationCache = { raw, settings: parseOrganizationSettings(raw) };
  }
  return organizationCache.settings.get(organizationId);
};

const stageSetting = (): Omit<EngineChoice, 'source'> =>
  parseEngineSetting(settings().answering.engine) ?? { engine: 'builtin' };

/** The engine for one request: personality, then organization, then stage. */
export const chooseEngine = (
  organizationId: number,
  personality?: { engine?: string | undefined; model?: string | undefined },
): EngineChoice => {
  if (personality?.engine && isEngineName(personality.engine)) {
    return {
      engine: personality.engine,
      ...(personality.model ? { model: personality.model } : {}),
      source: 'personality',
    };
  }
  const organization = organizationSetting(organizationId);
  const base = organization
    ? { ...organization, source: 'organization' as const }
    : { ...stageSetting(), source: 'stage' as const };
  // A personality may name a model for the engine chosen elsewhere.
  return personality?.model && base.engine !== 'builtin' ? { ...base, model: personality.model } : base;
};

type Factory = (options: Record<string, unknown>) => Engine | Promise<Engine>;

/**
 * What each factory is given: the model, and the provider's settings (lib/config.ts); the API key
 * is one of the stage's secrets (lib/secrets-provider.ts: Secrets Manager when deployed).
 */
const factoryOptions = async (name: Exclude<AnsweringEngineName, 'builtin'>, model: string | undefined) => {
  const { timeoutMs, openai, bedrock } = settings().answering;
  const defined = (options: Record<string, string | number | undefined>) =>
    Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return name === 'openai'
    ? defined({
        baseUrl: openai.baseUrl,
        model: model ?? openai.model,
        apiKey: await serviceSecret('OPENAI_API_KEY'),
        timeoutMs,
      })
    : defined({ model: model ?? bedrock.model, timeoutMs });
};

const factoryNames: Record<Exclude<AnsweringEngineName, 'builtin'>, string> = {
  openai: 'createOpenAiEngine',
  bedrock: 'createBedrockEngine',
};

const unavailable = (engine: string, reason: string, cause?: unknown) =>
  new ServiceError('LLM_FAILED', {
    message: `The answering engine ${engine} is not available: ${reason}`,
    detail: 'ENGINE_UNAVAILABLE',
    issues: [{ field: 'provider', message: engine, code: 'ENGINE_UNAVAILABLE' }],
    ...(cause === undefined ? {} : { cause }),
  });

/**
 * Loads lib/answer/engines/<name>.ts. The specifier is a template so that neither TypeScript nor
 * esbuild requires the module to exist; esbuild still bundles every file of lib/answer/engines/
 * that exists at build time (a glob import), so deployed functions load it like any other code.
 */
const loadModule = (name: string): Promise<Record<string, unknown>> => import(`./engines/${name}.ts`);

const engines = new Map<string, Promise<Engine>>();

let builtin: Promise<Engine> | undefined;

/** The builtin engine, its module loaded on first use (a failed load is retried next time). */
export const builtinEngine = (): Promise<Engine> => {
  if (!builtin) {
    const loading = import('./builtin/index.ts').then((module) => module.builtinEngine);
    builtin = loading;
    loading.catch(() => {
      if (builtin === loading) builtin = undefined;
    });
  }
  return builtin;
};

const createModelEngine = async (
  name: Exclude<AnsweringEngineName, 'builtin'>,
  model?: string,
): Promise<Engine> => {
  let module: Record<string, unknown>;
  try {
    module = await loadModule(name);
  } catch (error) {
    throw unavailable(name, 'its module is not part of this deployment', error);
  }
  const factory = module[factoryNames[name]];
  if (typeof factory !== 'function') throw unavailable(name, `its module exports no ${factoryNames[name]}`);
  // Outside the try: a secret store that cannot be read is an outage (503), not a missing engine.
  const options = await factoryOptions(name, model);
  try {
    return await (factory as Factory)(options);
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw unavailable(
      name,
      error instanceof Error ? error.message.slice(0, 200) : 'it could not be created',
      error,
    );
  }
};

/** The engine of a choice, created once per container (a failed creation is retried next time). */
export const engineFor = (choice: Pick<EngineChoice, 'engine' | 'model'>): Promise<Engine> => {
  if (choice.engine === 'builtin') return builtinEngine();
  const key = `${choice.engine}:${choice.model ?? ''}`;
  let engine = engines.get(key);
  if (!engine) {
    engine = createModelEngine(choice.engine, choice.model);
    engines.set(key, engine);
    engine.catch(() => {
      if (engines.get(key) === engine) engines.delete(key);
    });
  }
  return engine;
};

/** Tests: forget created engines. */
export const clearEngines = (): void => {
  engines.clear();
  organizationCache = undefined;
};
