// Identifiers: UUIDv7 (RFC 9562) so ids sort by creation time, as message cursors rely on.
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

export const uuidv7 = (now = Date.now()): string => {
  const bytes = randomBytes(16);
  // Within one millisecond, a 12-bit counter in rand_a keeps ids of one process in order.
  if (now <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    now = lastMs;
  } else {
    lastMs = now;
    sequence = bytes.readUInt16BE(6) & 0x3ff;
  }
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
