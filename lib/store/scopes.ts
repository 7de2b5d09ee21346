// The partition of one end-user scope of one organization, shared by the two indexes of
// conversation data: GSI1 (conversations of a scope by last activity) and GSI2 (messages of a
// scope by time). docs/design.md "Scope": a scope is 1..255 printable characters and may contain `#`,
// so it is percent-encoded (encodeURIComponent is injective and never leaves a `#`), and a
// conversation created without X-Scope-Id gets a sentinel no header can produce: the encoder
// always follows `%` with two hex digits, never with `N`.
// docs/design.md "Embed sessions": a conversation's address is its organization, its tenant (when
// its database filters by tenant) and its scope, as separate parts. A tenant's address is
// `<encoded tenant>#<encoded scope>`: the one `#` sets it apart from every address without a
// tenant (an encoded scope has none), and splitting at it gives back both parts, so no scope id
// (`1/alice`, `1#alice`) can name another tenant's scope.

export const NO_SCOPE = '%NOSCOPE';

/** Where a caller's conversations live, besides its organization. */
export interface ConversationScope {
  /** X-Scope-Id or the embed session's scope, as given; undefined: created without one. */
  scopeId: string | undefined;
  /** The tenant, on a database that filters by tenant (X-Tenant-Id or the session's). */
  tenant?: string | undefined;
}

const encodedScope = (scopeId: string | undefined): string =>
  scopeId === undefined ? NO_SCOPE : encodeURIComponent(scopeId);

/** The address as it appears in keys (and what ownership is checked against). */
export const scopeKey = ({ scopeId, tenant }: ConversationScope): string =>
  tenant === undefined ? encodedScope(scopeId) : `${encodeURIComponent(tenant)}#${encodedScope(scopeId)}`;

/** `SCOPE#<organization>#<address>`: the partition key of GSI1 and GSI2 items. */
export const scopePartition = (organizationId: number, scope: ConversationScope): string =>
  `SCOPE#${organizationId}#${scopeKey(scope)}`;

/**
 * The key an embed session's conversation had before tenants were a part of their own: the
 * scope `<tenant>/<scope>` (tenant with `%` and `/` escaped). Only the address migration reads it
 * (lib/store/conversation-addresses.ts).
 */
export const legacySessionScopeId = (tenant: string, scopeId: string): string =>
  `${tenant.replaceAll('%', '%25').replaceAll('/', '%2F')}/${scopeId}`;
