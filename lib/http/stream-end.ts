// Streamed response bodies watched to their end, for middlewares that act once a stream is over
// (the concurrency lease given back, the request's metrics recorded).
import { pipeline, type Readable, Transform } from 'node:stream';

/**
 * `body` passed through unchanged, calling `done` when it has ended (before its reader sees the
 * end; a promise is awaited and its failure becomes the stream's), failed or been dropped. A
 * pass-through rather than a generator, so that a reader that goes away destroys the body at once
 * (a generator would only notice at its next chunk).
 */
export const onStreamEnd = (body: Readable, done: () => void | Promise<void>): Readable => {
  const objectMode = body.readableObjectMode;
  const out = new Transform({
    readableObjectMode: objectMode,
    writableObjectMode: objectMode,
    transform: (chunk, _encoding, callback) => callback(null, chunk),
    flush: (callback) => {
      const ending = done();
      if (ending instanceof Promise) ending.then(() => callback(), callback);
      else callback();
    },
  });
  pipeline(body, out, (error) => {
    if (error) void done();
  });
  return out;
};
