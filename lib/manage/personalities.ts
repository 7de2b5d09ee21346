// AI personalities through the control plane (docs/control-plane.md "Personalities") and the
// admin command: a name, instructions for the answering engine (tone, focus) and optionally the
// language it answers in. The engine and model a personality may choose are set by an operator
// (`admin personality create --engine`) and shown here, not changed.
import type * as v from 'valibot';
import { ServiceError } from '#lib/errors.ts';
import {
  createPersonality,
  deletePersonality as deletePersonalityRecord,
  findPersonality,
  listPersonalities,
  type NewPersonality,
  type Personality,
  replacePersonality,
} from '#lib/store/personalities.ts';
import { pageOf } from './access.ts';
import type { PersonalityUpdateBody } from './inputs.ts';

export const publicPersonality = (personality: Personality) => ({
  id: personality.id,
  name: personality.name,
  instructions: personality.instructions ?? null,
  language: personality.language ?? null,
  engine: personality.engine ?? null,
  model: personality.model ?? null,
  created_at: personality.createdAt,
  updated_at: personality.updatedAt ?? personality.createdAt,
});
export type PublicPersonality = ReturnType<typeof publicPersonality>;

const personalityOf = async (organizationId: number, id: string): Promise<Personality> => {
  const personality = await findPersonality(organizationId, id);
  if (!personality)
    throw new ServiceError('PERSONALITY_NOT_FOUND', { message: `Personality ${id} not found` });
  return personality;
};

/** Creates a personality (the admin command may also choose its engine and model). */
export const addPersonality = (
  organizationId: number,
  body: Omit<NewPersonality, 'organizationId'>,
): Promise<Personality> => createPersonality({ ...body, organizationId });

export const listPersonalityPage = async (organizationId: number, page: number, pageSize: number) => {
  const { items, totalItems } = pageOf(await listPersonalities(organizationId), page, pageSize);
  return { items: items.map(publicPersonality), totalItems };
};

export const getPersonality = async (organizationId: number, id: string): Promise<PublicPersonality> =>
  publicPersonality(await personalityOf(organizationId, id));

export const updatePersonality = async (
  organizationId: number,
  id: string,
  body: v.InferOutput<typeof PersonalityUpdateBody>,
): Promise<PublicPersonality> => {
  const current = await personalityOf(organizationId, id);
  const { language: _language, ...rest } = current;
  const next: Personality = {
    ...rest,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.instructions !== undefined ? { instructions: body.instructions } : {}),
    ...(body.language === undefined
      ? current.language !== undefined
        ? { language: current.language }
        : {}
      : body.language === null
        ? {}
        : { language: body.language }),
  };
  return publicPersonality(await replacePersonality(next));
};

/**
 * Deletes a personality. Conversations that began with it go on without it (lib/answer/chat.ts);
 * a new message that names it is 404 NOT_FOUND_PERSONALITY.
 */
export const deletePersonality = async (organizationId: number, id: string): Promise<{ message: string }> => {
  await deletePersonalityRecord(organizationId, id);
  return { message: `Personality ${id} is deleted` };
};
