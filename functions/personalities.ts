// The organization's AI personalities (docs/design.md "The control plane"; docs/control-plane.md
// "Personalities"): one function for the resource's routes (lib/routes/personalities.ts), each with
// its own chain: list by page, create, read one, change, delete.
import { api } from '#lib/http/api.ts';
import { ok, paginated } from '#lib/http/response.ts';
import { routeTable } from '#lib/http/route-table.ts';
import {
  addPersonality,
  deletePersonality,
  getPersonality,
  listPersonalityPage,
  publicPersonality,
  updatePersonality,
} from '#lib/manage/personalities.ts';
import type { Deleted, Personality } from '#lib/routes/manage-schemas.ts';
import * as routes from '#lib/routes/personalities.ts';

const list = api(routes.listPersonalities).handler(async (_event, context) => {
  const { page, page_size: pageSize } = context.input.query;
  const { items, totalItems } = await listPersonalityPage(context.principal.organizationId, page, pageSize);
  return paginated<Personality>(items, { page, pageSize, totalItems });
});

const create = api(routes.createPersonality).handler(async (_event, context) =>
  ok<Personality>(
    publicPersonality(await addPersonality(context.principal.organizationId, context.input.body)),
    {
      status: 201,
    },
  ),
);

const read = api(routes.getPersonality).handler(async (_event, context) =>
  ok<Personality>(await getPersonality(context.principal.organizationId, context.input.path.id)),
);

const update = api(routes.updatePersonality).handler(async (_event, context) =>
  ok<Personality>(
    await updatePersonality(context.principal.organizationId, context.input.path.id, context.input.body),
  ),
);

const remove = api(routes.deletePersonality).handler(async (_event, context) =>
  ok<Deleted>(await deletePersonality(context.principal.organizationId, context.input.path.id)),
);

export const handler = routeTable([
  [routes.listPersonalities, list],
  [routes.createPersonality, create],
  [routes.getPersonality, read],
  [routes.updatePersonality, update],
  [routes.deletePersonality, remove],
]);
