// Who may use the control plane (docs/design.md "The control plane", docs/control-plane.md
// "Credentials and roles"): reads take an organization key (sk_) or a portal token of any role;
// writes take a portal token of an owner or admin, or an sk_ key created with `manage`. Database
// keys (pk_) and embed-session tokens (et_) are refused everywhere here (403
// AUTH_INSUFFICIENT_PERMISSIONS), as are other sk_ keys and members on writes.
import * as v from 'valibot';
import type { AccessRule } from '#lib/auth/principal.ts';
import { uuidPattern } from '#lib/ids.ts';

export const readAccess: AccessRule = { credentials: ['sk', 'jwt'] };
export const writeAccess: AccessRule = { credentials: ['sk', 'jwt'], write: true };

/** A path id: a UUID, stored in lower case. */
export const pathId = (name: string) =>
  v.pipe(v.string(), v.regex(uuidPattern, `${name} must be a UUID`), v.toLowerCase());

/** `{id}` in the path. */
export const IdPathInput = v.object({ path: v.object({ id: pathId('id') }) });

/** A name: trimmed, 1 to 200 characters. */
export const Name = v.pipe(
  v.string('name must be a string'),
  v.trim(),
  v.minLength(1, 'name must not be empty'),
  v.maxLength(200, 'name must be at most 200 characters'),
);

/** One page of a page-numbered list (the spec's Paginated response). */
export interface NumberedPage<T> {
  items: T[];
  totalItems: number;
}

export const pageOf = <T>(all: readonly T[], page: number, pageSize: number): NumberedPage<T> => ({
  items: all.slice((page - 1) * pageSize, page * pageSize),
  totalItems: all.length,
});
