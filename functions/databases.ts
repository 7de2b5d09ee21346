// GET /api/v1/organization/databases: the organization's connected databases, page by page
// (spec endpoint 10, in the spec's Paginated response wrapper).
import { api } from '#lib/http/api.ts';
import { paginated } from '#lib/http/response.ts';
import type { Database } from '#lib/openapi/schemas.ts';
import { PageNumberInput } from '#lib/params.ts';
import { listDatabasePage } from '#lib/store/databases.ts';

export const handler = api({
  access: { credentials: ['sk', 'jwt'] },
  scope: 'optional',
  input: PageNumberInput,
}).handler(async (_event, context) => {
  const { page, page_size: pageSize } = context.input.query;
  const { items, totalItems } = await listDatabasePage(context.principal.organizationId, { page, pageSize });
  return paginated<Database>(items, { page, pageSize, totalItems });
});
