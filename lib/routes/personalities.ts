// The organization's AI personalities (functions/personalities.ts; docs/control-plane.md
// "Personalities").
import type { Route } from '#lib/http/route.ts';
import { IdPathInput } from '#lib/manage/access.ts';
import { PersonalityCreateInput, PersonalityUpdateInput } from '#lib/manage/inputs.ts';
import { PageNumberInput } from '#lib/params.ts';
import { authenticated, controlPlaneRead, controlPlaneWrite, withBody } from './common.ts';
import { DeletedResponse, PersonalitiesPage, PersonalityResponse } from './manage-schemas.ts';

export const listPersonalities = {
  method: 'GET',
  path: '/api/v1/organization/personalities',
  functionName: 'personalities',
  operationId: 'listPersonalities',
  summary: 'List personalities',
  description: 'The organization’s AI personalities, oldest first, page by page.',
  ...controlPlaneRead,
  input: PageNumberInput,
  responses: [{ status: 200, schema: PersonalitiesPage, description: 'One page of personalities' }],
  errors: authenticated,
} satisfies Route;

export const createPersonality = {
  method: 'POST',
  path: '/api/v1/organization/personalities',
  functionName: 'personalities',
  operationId: 'createPersonality',
  summary: 'Create a personality',
  description:
    'An AI personality: a name, instructions for the answering engine (tone, focus) and optionally ' +
    'the language it answers in. Name it with `personality_id` in chat messages.',
  ...controlPlaneWrite,
  input: PersonalityCreateInput,
  responses: [{ status: 201, schema: PersonalityResponse, description: 'The personality is created' }],
  errors: withBody,
} satisfies Route;

export const getPersonality = {
  method: 'GET',
  path: '/api/v1/organization/personalities/{id}',
  functionName: 'personalities',
  operationId: 'getPersonality',
  summary: 'Get a personality',
  description: 'One personality.',
  ...controlPlaneRead,
  input: IdPathInput,
  responses: [{ status: 200, schema: PersonalityResponse, description: 'The personality' }],
  errors: [...authenticated, 'PERSONALITY_NOT_FOUND'],
} satisfies Route;

export const updatePersonality = {
  method: 'PATCH',
  path: '/api/v1/organization/personalities/{id}',
  functionName: 'personalities',
  operationId: 'updatePersonality',
  summary: 'Change a personality',
  description: 'Changes the name, the instructions or the language (`null` clears it).',
  ...controlPlaneWrite,
  input: PersonalityUpdateInput,
  responses: [{ status: 200, schema: PersonalityResponse, description: 'The personality is changed' }],
  errors: [...withBody, 'PERSONALITY_NOT_FOUND'],
} satisfies Route;

export const deletePersonality = {
  method: 'DELETE',
  path: '/api/v1/organization/personalities/{id}',
  functionName: 'personalities',
  operationId: 'deletePersonality',
  summary: 'Delete a personality',
  description:
    'Deletes the personality. Conversations that began with it go on without it; a message that names it is 404.',
  ...controlPlaneWrite,
  input: IdPathInput,
  responses: [{ status: 200, schema: DeletedResponse, description: 'Deleted' }],
  errors: [...authenticated, 'PERSONALITY_NOT_FOUND'],
} satisfies Route;
