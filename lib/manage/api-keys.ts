// API keys through the control plane (docs/control-plane.md "API keys") and the admin command.
// A key's value is shown once, in the answer that creates it; only its SHA-256 hash is stored.
// Deleting a key revokes it: this container forgets it at once (lib/auth/principal.ts
// forgetApiKey), so its next request here is 401; another warm container may still accept it
// for up to KEY_CACHE_TTL_SECONDS (60 s at most). A pk_ key for a database that filters rows by
// tenant is refused (400, details code EMBED_SESSION_REQUIRED): that database takes embed sessions.
import { createApiKey } from '#lib/auth/api-keys.ts';
import { forgetApiKey } from '#lib/auth/principal.ts';
import { invalidField, ServiceError } from '#lib/errors.ts';
import { type ApiKeyRecord, findApiKey, listApiKeys, revokeApiKey } from '#lib/store/api-keys.ts';
import { findDatabase } from '#lib/store/databases.ts';
import { pageOf } from './access.ts';
import type { ApiKeyCreateBody } from './inputs.ts';

/** What a list shows of a key: never its value or hash. */
export const publicApiKey = (key: ApiKeyRecord) => ({
  id: key.id,
  kind: key.kind,
  name: key.name ?? null,
  prefix: key.hint,
  database_id: key.databaseId ?? null,
  origins: key.allowedOrigins ?? [],
  manage: key.manage === true,
  created_at: key.createdAt,
  last_used_at: key.lastUsedAt ?? null,
});
export type PublicApiKey = ReturnType<typeof publicApiKey>;

export const createKey = async (
  organizationId: number,
  body: ApiKeyCreateBody,
): Promise<PublicApiKey & { key: string }> => {
  if (body.database_id !== undefined) {
    const database = await findDatabase(organizationId, body.database_id);
    if (!database)
      throw new ServiceError('DATABASE_NOT_FOUND', { message: `Database ${body.database_id} not found` });
    // Such a key could never ask there (lib/auth/embed-sessions.ts refuseDatabaseKey): refused here.
    if (database.requiresOrganizationScoping)
      throw invalidField(
        'body.database_id',
        `Database ${body.database_id} filters rows by tenant, so a database (pk_) key could never query it: its widgets use embed sessions (create an sk_ key for your backend, which calls POST /api/v1/embed/sessions for the signed-in user; docs/widget.md "Embed sessions")`,
        'EMBED_SESSION_REQUIRED',
      );
  }
  const created = await createApiKey({
    organizationId,
    kind: body.kind,
    ...(body.database_id !== undefined ? { databaseId: body.database_id } : {}),
    ...(body.origins?.length ? { allowedOrigins: body.origins } : {}),
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.manage ? { manage: true } : {}),
  });
  return { ...publicApiKey(created), key: created.key };
};

/** The organization's keys that work (revoked ones are gone), oldest first. */
export const listKeyPage = async (organizationId: number, page: number, pageSize: number) => {
  const live = (await listApiKeys(organizationId)).filter((key) => !key.revokedAt);
  const { items, totalItems } = pageOf(live, page, pageSize);
  return { items: items.map(publicApiKey), totalItems };
};

/**
 * Revokes a key (404 NOT_FOUND_API_KEY when unknown or, with `organizationId`, another
 * organization's) and forgets it in this container's key cache. The admin command's `key revoke`.
 */
export const revokeKey = async (id: string, organizationId?: number) => {
  const revoked = await revokeApiKey(id, new Date(), organizationId);
  forgetApiKey(revoked.hash);
  return revoked;
};

/** Revokes a key of the organization (404 NOT_FOUND_API_KEY when unknown, another's or revoked). */
export const deleteKey = async (organizationId: number, id: string): Promise<{ message: string }> => {
  const key = await findApiKey(id, organizationId);
  if (!key || key.revokedAt)
    throw new ServiceError('API_KEY_NOT_FOUND', { message: `API key ${id} not found` });
  await revokeKey(id, organizationId);
  return { message: `API key ${id} is deleted` };
};
