// The scopes of a request made with an embed session (docs/design.md "Embed sessions"), in a
// module of its own with no imports: the scope middleware of every chain uses it.

/**
 * The scope an embed session's conversations are kept under. On a tenant-filtered database it is
 * the tenant and the scope together (`<tenant>/<scope>`, the tenant with `%` and `/` escaped), so
 * that a scope id two tenants both use (`user-7`) never shows one tenant's conversations to the
 * other's visitors; the row filter still uses the token's scope itself. An integrator's server
 * reads them with `X-Scope-Id: <tenant>/<scope>`.
 */
export const sessionConversationScope = (session: {
  tenant?: string | undefined;
  scope?: string | undefined;
}): string | undefined => {
  if (session.scope === undefined) return undefined;
  if (session.tenant === undefined) return session.scope;
  return `${session.tenant.replaceAll('%', '%25').replaceAll('/', '%2F')}/${session.scope}`;
};

/** The value the scope filter of the row policy compares with: the token's scope, or X-Scope-Id. */
export const rowScopeOf = (
  principal: { session?: { scope?: string | undefined } | undefined },
  scopeId: string | undefined,
): string | undefined => (principal.session ? principal.session.scope : scopeId);
