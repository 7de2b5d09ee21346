// A database's glossary through the control plane (docs/control-plane.md "Glossary"):
// `{synonyms, metrics, filters}` read and replaced whole; the store checks it against the
// database's schema index and SQL guard before saving (lib/store/glossary.ts). The container that
// saved it forgets its cached copy, so its next answer uses the new glossary.
import { forgetAnswerGlossary } from '#lib/answer/catalog.ts';
import { type Glossary, readGlossary, saveGlossary } from '#lib/store/glossary.ts';

import { databaseOf } from './databases.ts';

export const getGlossary = async (organizationId: number, databaseId: string): Promise<Glossary> => {
  await databaseOf(organizationId, databaseId);
  return readGlossary(databaseId);
};

export const putGlossary = async (
  organizationId: number,
  databaseId: string,
  body: Glossary,
): Promise<Glossary> => {
  const saved = await saveGlossary(await databaseOf(organizationId, databaseId), body, { field: 'body' });
  forgetAnswerGlossary(databaseId);
  return saved;
};
