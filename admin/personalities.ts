// `admin personality create` and `admin personality list` (docs/model-engines.md "Personalities"): an
// organization's AI personalities, named by `personality_id` in chat messages. A personality
// carries instructions for the engine (tone, focus) and may choose the engine and model that
// answer its conversations (lib/answer/registry.ts).
import * as v from 'valibot';
import { AnsweringEngineName } from '#lib/answer/registry.ts';
import { addPersonality } from '#lib/manage/personalities.ts';
import { listPersonalities, NewPersonality, publicPersonality } from '#lib/store/personalities.ts';
import { organizationIdOption, UsageError } from './args.ts';
import { organizationMustExist, type Run } from './command.ts';

export const personalityCreate: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  if (values.engine !== undefined && !v.is(AnsweringEngineName, values.engine)) {
    throw new UsageError(`--engine must be one of ${AnsweringEngineName.options.join(', ')}`);
  }
  if (values.model !== undefined && (values.engine ?? 'builtin') === 'builtin') {
    throw new UsageError(
      '--model needs --engine openai or --engine bedrock (the builtin engine has no model)',
    );
  }
  const parsed = v.safeParse(NewPersonality, {
    organizationId,
    name: values.name,
    ...(values.instructions !== undefined ? { instructions: values.instructions } : {}),
    ...(values.engine !== undefined ? { engine: values.engine } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
  });
  if (!parsed.success) {
    throw new UsageError(
      parsed.issues.map((issue) => `--${v.getDotPath(issue) ?? 'input'}: ${issue.message}`).join('; '),
    );
  }
  await connect();
  await organizationMustExist(organizationId);
  // The control plane's operation (lib/manage/personalities.ts).
  const { organizationId: _organization, ...body } = parsed.output;
  return publicPersonality(await addPersonality(organizationId, body));
};

export const personalityList: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  await connect();
  await organizationMustExist(organizationId);
  return { personalities: (await listPersonalities(organizationId)).map(publicPersonality) };
};
