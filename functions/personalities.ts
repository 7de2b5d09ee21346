// The organization's AI personalities (docs/design.md "The control plane"; docs/control-plane.md
// "Personalities"): one function for the resource's routes, each with its own chain.
//   GET    /api/v1/organization/personalities        list, by page
//   POST   /api/v1/organization/personalities        create
//   GET    /api/v1/organization/personalities/{id}   one
//   PATCH  /api/v1/organization/personalities/{id}   change
//   DELETE /api/v1/organization/personalities/{id}   delete
import { api } from '#lib/http/api.ts';
import { ok, paginated } from '#lib/http/response.ts';
import { routeTable } from '#lib/http/route-table.ts';
import { IdPathInput, readAccess, writeAccess } from '#lib/manage/access.ts';
import { PersonalityCreateInput, PersonalityUpdateInput } from '#lib/manage/inputs.ts';
import {
  addPersonality,
  deletePersonality,
  getPersonality,
  listPersonalityPage,
  publicPersonality,
  updatePersonality,
} from '#lib/manage/personalities.ts';
import type { Deleted, Personality } from '#lib/openapi/manage-schemas.ts';
import { PageNumberInput } from '#lib/params.ts';

const list = api({ access: readAccess, scope: 'optional', input: PageNumberInput }).handler(
  async (_event, context) => {
    const { page, page_size: pageSize } = context.input.query;
    const { items, totalItems } = await listPersonalityPage(context.principal.organizationId, page, pageSize);
    return paginated<Personality>(items, { page, pageSize, totalItems });
  },
);

const create = api({
  access: writeAccess,
  scope: 'optional',
  body: true,
  input: PersonalityCreateInput,
}).handler(async (_event, context) =>
  ok<Personality>(
    publicPersonality(await addPersonality(context.principal.organizationId, context.input.body)),
    {
      status: 201,
    },
  ),
);

const read = api({ access: readAccess, scope: 'optional', input: IdPathInput }).handler(
  async (_event, context) =>
    ok<Personality>(await getPersonality(context.principal.organizationId, context.input.path.id)),
);

const update = api({
  access: writeAccess,
  scope: 'optional',
  body: true,
  input: PersonalityUpdateInput,
}).handler(async (_event, context) =>
  ok<Personality>(
    await updatePersonality(context.principal.organizationId, context.input.path.id, context.input.body),
  ),
);

const remove = api({ access: writeAccess, scope: 'optional', input: IdPathInput }).handler(
  async (_event, context) =>
    ok<Deleted>(await deletePersonality(context.principal.organizationId, context.input.path.id)),
);

export const handler = routeTable({
  'GET /api/v1/organization/personalities': list,
  'POST /api/v1/organization/personalities': create,
  'GET /api/v1/organization/personalities/{id}': read,
  'PATCH /api/v1/organization/personalities/{id}': update,
  'DELETE /api/v1/organization/personalities/{id}': remove,
});
