// AI personalities of an organization (spec endpoint 6 `personality_id`): a name, optional
// instructions for the answering engine (tone, focus) and an optional engine and model that
// override the stage's and organization's choice (lib/answer/registry.ts).
// Item: PK ORG#<org>, SK PERSONALITY#<uuid>, so one Query lists an organization's personalities
// and a GetItem reads one; another organization's id is simply not found.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { ServiceError } from '#lib/errors.ts';
import { uuidv7 } from '#lib/ids.ts';
import { documents, isConditionFailure, queryAll, tableName } from './client.ts';

const PREFIX = 'PERSONALITY#';

export const personalityKey = (organizationId: number, id: string) => ({
  PK: `ORG#${organizationId}`,
  SK: `${PREFIX}${id}`,
});

export const MAX_INSTRUCTIONS_LENGTH = 4_000;

/** The language a personality answers in: a BCP 47 tag such as `en`, `de-CH`, `pt-BR`. */
export const Language = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/,
    'language must be a language tag such as en, de-CH or pt-BR',
  ),
);

/** What an operator gives `admin personality create`. */
export const NewPersonality = v.object({
  organizationId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'name must not be empty'), v.maxLength(200)),
  instructions: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'instructions must not be empty'),
      v.maxLength(
        MAX_INSTRUCTIONS_LENGTH,
        `instructions must be at most ${MAX_INSTRUCTIONS_LENGTH} characters`,
      ),
    ),
  ),
  /** An answering engine's name, checked by the caller (lib/answer/registry.ts AnsweringEngineName). */
  engine: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
  model: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^[\w.:/@-]{1,200}$/,
        'model must be a model id such as gpt-4o-mini or anthropic.claude-3-5-haiku',
      ),
    ),
  ),
  language: v.optional(Language),
});
export type NewPersonality = v.InferInput<typeof NewPersonality>;

export const Personality = v.object({
  id: v.string(),
  organizationId: v.number(),
  name: v.string(),
  instructions: v.optional(v.string()),
  /** The answering engine it chooses (lib/answer/registry.ts reads it). */
  engine: v.optional(v.string()),
  model: v.optional(v.string()),
  language: v.optional(v.string()),
  createdAt: v.string(),
  updatedAt: v.optional(v.string()),
});
export type Personality = v.InferOutput<typeof Personality>;

const toPersonality = (item: Record<string, unknown>): Personality => v.parse(Personality, item);

export const createPersonality = async (input: NewPersonality, now = new Date()): Promise<Personality> => {
  const parsed = v.parse(NewPersonality, input);
  const personality: Personality = {
    id: uuidv7(now.getTime()),
    organizationId: parsed.organizationId,
    name: parsed.name,
    ...(parsed.instructions !== undefined ? { instructions: parsed.instructions } : {}),
    ...(parsed.engine !== undefined ? { engine: parsed.engine } : {}),
    ...(parsed.model !== undefined ? { model: parsed.model } : {}),
    ...(parsed.language !== undefined ? { language: parsed.language } : {}),
    createdAt: now.toISOString(),
  };
  await documents().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...personalityKey(personality.organizationId, personality.id),
        type: 'personality',
        ...personality,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return personality;
};

/** One personality of the organization; undefined when unknown or another organization's. */
export const findPersonality = async (
  organizationId: number,
  id: string,
): Promise<Personality | undefined> => {
  const { Item } = await documents().send(
    new GetCommand({ TableName: tableName(), Key: personalityKey(organizationId, id) }),
  );
  return Item ? toPersonality(Item) : undefined;
};

const personalityNotFound = (id: string) =>
  new ServiceError('PERSONALITY_NOT_FOUND', { message: `Personality ${id} not found` });

/** Replaces a personality (its id and creation time stay); 404 NOT_FOUND_PERSONALITY when it is gone. */
export const replacePersonality = async (
  personality: Personality,
  now = new Date(),
): Promise<Personality> => {
  const updated: Personality = { ...v.parse(Personality, personality), updatedAt: now.toISOString() };
  try {
    await documents().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...personalityKey(updated.organizationId, updated.id), type: 'personality', ...updated },
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw personalityNotFound(updated.id);
    throw error;
  }
  return updated;
};

/** Deletes a personality; 404 NOT_FOUND_PERSONALITY when there is none. */
export const deletePersonality = async (organizationId: number, id: string): Promise<void> => {
  try {
    await documents().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: personalityKey(organizationId, id),
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw personalityNotFound(id);
    throw error;
  }
};

/** The organization's personalities, oldest first (ids are UUIDv7). */
export const listPersonalities = async (organizationId: number): Promise<Personality[]> => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :org AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':org': `ORG#${organizationId}`, ':prefix': PREFIX },
  });
  return items.map(toPersonality);
};

/** What the admin command prints. */
export const publicPersonality = (personality: Personality) => ({
  id: personality.id,
  organization_id: personality.organizationId,
  name: personality.name,
  instructions: personality.instructions ?? null,
  engine: personality.engine ?? null,
  model: personality.model ?? null,
  created_at: personality.createdAt,
});
