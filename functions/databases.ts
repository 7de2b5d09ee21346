// GET /api/v1/organization/databases: the organization's connected databases, page by page
// (spec endpoint 10, in the spec's Paginated response wrapper).
import * as v from 'valibot';
import { api } from '#lib/http/api.ts';
import { integerParam } from '#lib/http/params.ts';
import { paginated } from '#lib/http/response.ts';
import { listDatabasePage } from '#lib/store/databases.ts';

const ListDatabasesInput = v.object({
  query: v.object({
    page: integerParam('page', { min: 1, max: 100_000, fallback: 1 }),
    page_size: integerParam('page_size', { min: 1, max: 100, fallback: 20 }),
  }),
});

export const handler = api({
  access: { credentials: ['sk', 'jwt'] },
  scope: 'optional',
  input: ListDatabasesInput,
}).handler(async (_event, context) => {
  const { page, page_size: pageSize } = context.input.query;
  const { items, totalItems } = await listDatabasePage(context.principal.organizationId, { page, pageSize });
  return paginated(items, { page, pageSize, totalItems });
});
