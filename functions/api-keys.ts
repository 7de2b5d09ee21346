// The organization's API keys (docs/design.md "The control plane"; docs/control-plane.md "API
// keys"): one function for the resource's routes (lib/routes/api-keys.ts), each with its own chain:
// list (prefix, kind, database, origins, use) by page; create (the key's value is in this 201
// only); delete (refused on its next request).
import { api } from '#lib/http/api.ts';
import { ok, paginated } from '#lib/http/response.ts';
import { routeTable } from '#lib/http/route-table.ts';
import { createKey, deleteKey, listKeyPage } from '#lib/manage/api-keys.ts';
import * as routes from '#lib/routes/api-keys.ts';
import type { ApiKey, ApiKeyCreated, Deleted } from '#lib/routes/manage-schemas.ts';

const list = api(routes.listApiKeys).handler(async (_event, context) => {
  const { page, page_size: pageSize } = context.input.query;
  const { items, totalItems } = await listKeyPage(context.principal.organizationId, page, pageSize);
  return paginated<ApiKey>(items, { page, pageSize, totalItems });
});

const create = api(routes.createApiKey).handler(async (_event, context) =>
  ok<ApiKeyCreated>(await createKey(context.principal.organizationId, context.input.body), { status: 201 }),
);

const remove = api(routes.deleteApiKey).handler(async (_event, context) =>
  ok<Deleted>(await deleteKey(context.principal.organizationId, context.input.path.id)),
);

export const handler = routeTable([
  [routes.listApiKeys, list],
  [routes.createApiKey, create],
  [routes.deleteApiKey, remove],
]);
