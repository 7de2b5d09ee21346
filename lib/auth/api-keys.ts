// API key material: `sk_` organization keys and `pk_` database keys. Keys carry 256 bits of
// randomness; only their SHA-256 hash is ever stored or compared (lib/store/api-keys.ts).
import { createHash, randomBytes } from 'node:crypto';
import { type ApiKeyRecord, type KeyKind, type NewApiKey, putApiKey } from '#lib/store/api-keys.ts';

export const generateApiKey = (kind: KeyKind): string => `${kind}_${randomBytes(32).toString('base64url')}`;

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export const keyKindOf = (key: string): KeyKind | undefined =>
  key.startsWith('sk_') ? 'sk' : key.startsWith('pk_') ? 'pk' : undefined;

/** A short, non-secret label for logs and listings: the prefix and the last four characters. */
export const keyHint = (key: string): string => `${key.slice(0, 3)}…${key.slice(-4)}`;

/**
 * Mints a key and stores it (its hash and hint, never the key): the only time the key is seen,
 * so the caller shows it once.
 */
export const createApiKey = async (
  input: NewApiKey,
  now = new Date(),
): Promise<ApiKeyRecord & { key: string }> => {
  const key = generateApiKey(input.kind);
  const record = await putApiKey(input, { hash: hashApiKey(key), hint: keyHint(key) }, now);
  return { ...record, key };
};
