// The organization's API keys (functions/api-keys.ts; docs/control-plane.md "API keys").
import type { Route } from '#lib/http/route.ts';
import { IdPathInput } from '#lib/manage/access.ts';
import { ApiKeyCreateInput } from '#lib/manage/inputs.ts';
import { PageNumberInput } from '#lib/params.ts';
import { authenticated, controlPlaneRead, controlPlaneWrite, withBody } from './common.ts';
import { ApiKeyCreatedResponse, ApiKeysPage, DeletedResponse } from './manage-schemas.ts';

export const listApiKeys = {
  method: 'GET',
  path: '/api/v1/organization/api-keys',
  functionName: 'apiKeys',
  operationId: 'listApiKeys',
  summary: 'List API keys',
  description:
    'The organization’s keys that work, oldest first, page by page: prefix, kind, database, ' +
    'origins, manage, created and last used (to within 10 minutes). Never a key’s value.',
  ...controlPlaneRead,
  input: PageNumberInput,
  responses: [{ status: 200, schema: ApiKeysPage, description: 'One page of keys' }],
  errors: authenticated,
} satisfies Route;

export const createApiKey = {
  method: 'POST',
  path: '/api/v1/organization/api-keys',
  functionName: 'apiKeys',
  operationId: 'createApiKey',
  summary: 'Create an API key',
  description:
    'An organization key (`sk`, for your servers; `manage: true` lets it change the organization ' +
    'here) or a database key (`pk`, for the widget: `database_id` required, `origins` optional). ' +
    'The key’s value is in this answer only.',
  ...controlPlaneWrite,
  input: ApiKeyCreateInput,
  responses: [{ status: 201, schema: ApiKeyCreatedResponse, description: 'The key is created' }],
  errors: [...withBody, 'DATABASE_NOT_FOUND'],
} satisfies Route;

export const deleteApiKey = {
  method: 'DELETE',
  path: '/api/v1/organization/api-keys/{id}',
  functionName: 'apiKeys',
  operationId: 'deleteApiKey',
  summary: 'Delete an API key',
  description:
    'Revokes the key: its next request is 401. (A container of the service that resolved the key ' +
    'in the last 60 seconds may accept it until its key cache expires; the one that deleted it ' +
    'refuses it at once.)',
  ...controlPlaneWrite,
  input: IdPathInput,
  responses: [{ status: 200, schema: DeletedResponse, description: 'Deleted' }],
  errors: [...authenticated, 'API_KEY_NOT_FOUND'],
} satisfies Route;
