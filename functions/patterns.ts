// A connected database's query patterns and glossary (docs/design.md "The control plane";
// docs/control-plane.md "Query patterns", "Glossary"): one function for both, because both check
// what is saved with the database's SQL guard (and so carry its parsers, loaded on demand). Its
// routes (lib/routes/patterns.ts): patterns listed by page, added (the guard checks the SQL),
// changed and deleted; the glossary read and replaced (the guard checks it).
import { api } from '#lib/http/api.ts';
import { ok, paginated } from '#lib/http/response.ts';
import { routeTable } from '#lib/http/route-table.ts';
import { getGlossary, putGlossary } from '#lib/manage/glossary.ts';
import { addDatabasePattern, deletePattern, listPatternPage, updatePattern } from '#lib/manage/patterns.ts';
import type { Deleted, Glossary, QueryPattern } from '#lib/routes/manage-schemas.ts';
import * as routes from '#lib/routes/patterns.ts';

const list = api(routes.listPatterns).handler(async (_event, context) => {
  const { page, page_size: pageSize, status } = context.input.query;
  const { items, totalItems } = await listPatternPage(
    context.principal.organizationId,
    context.input.path.id,
    page,
    pageSize,
    status,
  );
  return paginated<QueryPattern>(items, { page, pageSize, totalItems });
});

const create = api(routes.createPattern).handler(async (_event, context) =>
  ok<QueryPattern>(
    await addDatabasePattern(context.principal.organizationId, context.input.path.id, context.input.body),
    { status: 201 },
  ),
);

const update = api(routes.updatePattern).handler(async (_event, context) => {
  const { id, pattern_id: patternId } = context.input.path;
  return ok<QueryPattern>(
    await updatePattern(context.principal.organizationId, id, patternId, context.input.body),
  );
});

const remove = api(routes.deletePattern).handler(async (_event, context) => {
  const { id, pattern_id: patternId } = context.input.path;
  return ok<Deleted>(await deletePattern(context.principal.organizationId, id, patternId));
});

const readGlossary = api(routes.getGlossary).handler(async (_event, context) =>
  ok<Glossary>(await getGlossary(context.principal.organizationId, context.input.path.id)),
);

const replaceGlossary = api(routes.putGlossary).handler(async (_event, context) =>
  ok<Glossary>(
    await putGlossary(context.principal.organizationId, context.input.path.id, context.input.body),
  ),
);

export const handler = routeTable([
  [routes.listPatterns, list],
  [routes.createPattern, create],
  [routes.updatePattern, update],
  [routes.deletePattern, remove],
  [routes.getGlossary, readGlossary],
  [routes.putGlossary, replaceGlossary],
]);
