// The partition of one end-user scope of one organization, shared by the two indexes of
// conversation data: GSI1 (conversations of a scope by last activity) and GSI2 (messages of a
// scope by time). docs/design.md "Scope": a scope is 1..255 printable characters and may contain `#`,
// so it is percent-encoded (encodeURIComponent is injective and never leaves a `#`), and a
// conversation created without X-Scope-Id gets a sentinel no header can produce: the encoder
// always follows `%` with two hex digits, never with `N`.

export const NO_SCOPE = '%NOSCOPE';

/** The scope as it appears in keys: percent-encoded, or NO_SCOPE for "sent no X-Scope-Id". */
export const scopeKey = (scopeId: string | undefined): string =>
  scopeId === undefined ? NO_SCOPE : encodeURIComponent(scopeId);

/** `SCOPE#<organization>#<encoded scope>`: the partition key of GSI1 and GSI2 items. */
export const scopePartition = (organizationId: number, scopeId: string | undefined): string =>
  `SCOPE#${organizationId}#${scopeKey(scopeId)}`;
