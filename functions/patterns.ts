// A connected database's query patterns and glossary (docs/design.md "The control plane";
// docs/control-plane.md "Query patterns", "Glossary"): one function for both, because both check
// what is saved with the database's SQL guard (and so carry its parsers, loaded on demand).
//   GET    /api/v1/organization/databases/{id}/patterns                list, by page
//   POST   /api/v1/organization/databases/{id}/patterns                add (the guard checks the SQL)
//   PATCH  /api/v1/organization/databases/{id}/patterns/{pattern_id}   change
//   DELETE /api/v1/organization/databases/{id}/patterns/{pattern_id}   delete
//   GET    /api/v1/organization/databases/{id}/glossary                read
//   PUT    /api/v1/organization/databases/{id}/glossary                replace (the guard checks it)
import { api } from '#lib/http/api.ts';
import { ok, paginated } from '#lib/http/response.ts';
import { routeTable } from '#lib/http/route-table.ts';
import { readAccess, writeAccess } from '#lib/manage/access.ts';
import { getGlossary, putGlossary } from '#lib/manage/glossary.ts';
import {
  GlossaryPathInput,
  GlossaryPutInput,
  PatternCreateInput,
  PatternListInput,
  PatternPathInput,
  PatternUpdateInput,
} from '#lib/manage/inputs.ts';
import { addDatabasePattern, deletePattern, listPatternPage, updatePattern } from '#lib/manage/patterns.ts';
import type { Deleted, Glossary, QueryPattern } from '#lib/openapi/manage-schemas.ts';

const list = api({ access: readAccess, scope: 'optional', input: PatternListInput }).handler(
  async (_event, context) => {
    const { page, page_size: pageSize, status } = context.input.query;
    const { items, totalItems } = await listPatternPage(
      context.principal.organizationId,
      context.input.path.id,
      page,
      pageSize,
      status,
    );
    return paginated<QueryPattern>(items, { page, pageSize, totalItems });
  },
);

const create = api({ access: writeAccess, scope: 'optional', body: true, input: PatternCreateInput }).handler(
  async (_event, context) =>
    ok<QueryPattern>(
      await addDatabasePattern(context.principal.organizationId, context.input.path.id, context.input.body),
      { status: 201 },
    ),
);

const update = api({ access: writeAccess, scope: 'optional', body: true, input: PatternUpdateInput }).handler(
  async (_event, context) => {
    const { id, pattern_id: patternId } = context.input.path;
    return ok<QueryPattern>(
      await updatePattern(context.principal.organizationId, id, patternId, context.input.body),
    );
  },
);

const remove = api({ access: writeAccess, scope: 'optional', input: PatternPathInput }).handler(
  async (_event, context) => {
    const { id, pattern_id: patternId } = context.input.path;
    return ok<Deleted>(await deletePattern(context.principal.organizationId, id, patternId));
  },
);

const readGlossary = api({ access: readAccess, scope: 'optional', input: GlossaryPathInput }).handler(
  async (_event, context) =>
    ok<Glossary>(await getGlossary(context.principal.organizationId, context.input.path.id)),
);

const replaceGlossary = api({
  access: writeAccess,
  scope: 'optional',
  body: true,
  input: GlossaryPutInput,
}).handler(async (_event, context) =>
  ok<Glossary>(
    await putGlossary(context.principal.organizationId, context.input.path.id, context.input.body),
  ),
);

export const handler = routeTable({
  'GET /api/v1/organization/databases/{id}/patterns': list,
  'POST /api/v1/organization/databases/{id}/patterns': create,
  'PATCH /api/v1/organization/databases/{id}/patterns/{pattern_id}': update,
  'DELETE /api/v1/organization/databases/{id}/patterns/{pattern_id}': remove,
  'GET /api/v1/organization/databases/{id}/glossary': readGlossary,
  'PUT /api/v1/organization/databases/{id}/glossary': replaceGlossary,
});
