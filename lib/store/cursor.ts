// Signed page cursors (docs/design.md "Lists and cursors"). A cursor is opaque base64url of
//   version (1 byte) ‖ HMAC-SHA256 (32 bytes) ‖ JSON of the position (the key parts of the last item)
// where the MAC covers the position AND the identity of the query it was issued for (which list,
// organization, scope and tenant, conversation, order, and an embed session's database). The identity is not carried in the cursor: the
// reader recomputes the MAC with the identity of the request at hand, so a cursor replayed on
// another scope, conversation, order or list fails exactly like an altered one: 400 on field
// `cursor`. The key is a per-stage secret (CURSOR_SECRET); without one nothing is signed or read.
// Reading the key is asynchronous (a deployed stage keeps it in Secrets Manager): callers await
// `cursorCodec()` once per request, then encode and decode synchronously.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fromSettings, settings } from '#lib/config.ts';
import { invalidField, ServiceError } from '#lib/errors.ts';
import { serviceSecret } from '#lib/secrets-provider.ts';

export type ListName = 'conversations' | 'scope-messages' | 'conversation-messages';
export type SortOrder = 'asc' | 'desc';

/** What a cursor is bound to: the query it continues. */
export interface CursorQuery {
  list: ListName;
  organizationId: number;
  /** undefined: conversations created without X-Scope-Id. */
  scopeId: string | undefined;
  /** The tenant part of the conversations' address (lib/store/scopes.ts), when there is one. */
  tenant?: string | undefined;
  conversationId?: string | undefined;
  order: SortOrder;
  /** An embed session's database: its cursors continue on that database's sessions only. */
  databaseId?: string | undefined;
}

/** The position after which the next page starts, as the key parts of the last item returned. */
export type CursorPosition = string[];

export interface CursorCodec {
  encode(query: CursorQuery, position: CursorPosition): string;
  /** The position of a cursor issued for `query`; a 400 on field `cursor` for anything else. */
  decode(query: CursorQuery, cursor: string): CursorPosition;
}

const VERSION = 1;
const MAC_BYTES = 32;
const HEADER_BYTES = 1 + MAC_BYTES;
/** Our cursors are ~100 characters; anything much longer was not made here. */
export const MAX_CURSOR_LENGTH = 1024;
/** HMAC-SHA256 keys shorter than this are refused (docs/configuration.md). */
export const MIN_SECRET_LENGTH = 32;
const base64url = /^[A-Za-z0-9_-]+$/;

export const invalidCursor = (): ServiceError =>
  invalidField(
    'cursor',
    'The cursor is invalid or was issued for another list, scope, conversation or order; send back the cursor of the previous page unchanged',
    'INVALID_CURSOR',
  );

// JSON of an array is unambiguous (no separator can be forged), and stable across processes.
const identityOf = (query: CursorQuery): string =>
  JSON.stringify([
    query.list,
    query.organizationId,
    query.scopeId ?? null,
    query.conversationId ?? null,
    query.order,
    // Only when present, so that cursors of addresses without a tenant stay as they were.
    ...(query.tenant === undefined ? [] : [query.tenant]),
    // An object, so it can never be read as a tenant; only when present, likewise.
    ...(query.databaseId === undefined ? [] : [{ database: query.databaseId }]),
  ]);

// The codec built from the current secret, kept for the container (rebuilt after a settings reset).
const codecs = fromSettings(() => ({
  codec: undefined as { secret: string; codec: CursorCodec } | undefined,
}));

export const createCursorCodec = (secret: string): CursorCodec => {
  if (secret.length < MIN_SECRET_LENGTH) throw new Error('cursor secret too short');
  const macOf = (query: CursorQuery, payload: Buffer): Buffer =>
    createHmac('sha256', secret)
      .update(`tabletalk/cursor/v${VERSION}\n${identityOf(query)}\n`)
      .update(payload)
      .digest();

  return {
    encode(query, position) {
      const payload = Buffer.from(JSON.stringify(position), 'utf8');
      return Buffer.concat([Buffer.of(VERSION), macOf(query, payload), payload]).toString('base64url');
    },
    decode(query, cursor) {
      if (cursor.length > MAX_CURSOR_LENGTH || !base64url.test(cursor)) throw invalidCursor();
      const bytes = Buffer.from(cursor, 'base64url');
      // Node's decoder ignores the spare low bits of the last character: re-encoding must give the
      // same text, or two different strings would be accepted as one cursor.
      if (bytes.toString('base64url') !== cursor) throw invalidCursor();
      if (bytes.length <= HEADER_BYTES || bytes[0] !== VERSION) throw invalidCursor();
      const mac = bytes.subarray(1, HEADER_BYTES);
      const payload = bytes.subarray(HEADER_BYTES);
      if (!timingSafeEqual(mac, macOf(query, payload))) throw invalidCursor();
      let position: unknown;
      try {
        position = JSON.parse(payload.toString('utf8'));
      } catch {
        throw invalidCursor();
      }
      if (!Array.isArray(position) || !position.every((part) => typeof part === 'string'))
        throw invalidCursor();
      return position;
    },
  };
};

/**
 * The codec of this stage, built on first use from the stage's cursor secret (CURSOR_SECRET, read
 * through lib/secrets-provider.ts: Secrets Manager when deployed). Fails closed: without a secret
 * of at least MIN_SECRET_LENGTH characters every list request is a 500 whose log line says why,
 * rather than signing with a weak or empty key.
 */
export const cursorCodec = async (): Promise<CursorCodec> => {
  const secret = (await serviceSecret('CURSOR_SECRET')) ?? '';
  const holder = codecs();
  if (holder.codec?.secret === secret) return holder.codec.codec;
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ServiceError('INTERNAL', {
      cause: new Error(
        `CURSOR_SECRET is ${secret ? `shorter than ${MIN_SECRET_LENGTH} characters` : 'not set'} in stage ${settings().stage}: ` +
          'refusing to sign or read page cursors (deployed: put CURSOR_SECRET into the secret SECRETS_ARN names)',
      ),
    });
  }
  holder.codec = { secret, codec: createCursorCodec(secret) };
  return holder.codec.codec;
};
