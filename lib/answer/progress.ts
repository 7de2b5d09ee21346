// A streamed answer's progress (docs/model-engines.md "Progress while the model works"): the
// steps reported before the first piece of the answer, and the emitter that hands a streaming
// caller its statuses and pieces.
import type { PieceSink } from './engine.ts';

/** The steps a streamed answer reports before its first piece (docs/model-engines.md "Progress"). */
export type AnswerStep = 'reading_question' | 'writing_query' | 'running_query' | 'writing_answer';

export const STEP_MESSAGES: Record<AnswerStep, string> = {
  reading_question: 'Reading the question…',
  writing_query: 'Writing the query…',
  running_query: 'Running the query…',
  writing_answer: 'Writing the answer…',
};

export interface AnswerStatus {
  step: AnswerStep;
  message: string;
}

/**
 * Hands pieces to a streaming caller as they are produced, until `signal` aborts; `handed` is
 * what the caller received. Without `onPiece` it hands nothing over.
 */
export interface Emitter {
  emit: (piece: string) => Promise<void>;
  /** A step's status, only before the first piece. */
  status: (step: AnswerStep) => Promise<void>;
  readonly handed: string[];
  readonly streaming: boolean;
}

export const emitter = (
  onPiece: PieceSink | undefined,
  signal: AbortSignal | undefined,
  onStatus?: (status: AnswerStatus) => void | Promise<void>,
): Emitter => {
  const handed: string[] = [];
  let last: AnswerStep | undefined;
  return {
    handed,
    streaming: onPiece !== undefined,
    status: async (step) => {
      if (!onStatus || handed.length > 0 || step === last || signal?.aborted) return;
      last = step;
      await onStatus({ step, message: STEP_MESSAGES[step] });
      // One turn of the event loop lets the frame out to the client before the step's work,
      // which may hold the loop for a while (a model engine builds its prompt synchronously).
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    emit: async (piece) => {
      if (!onPiece || piece === '' || signal?.aborted) return;
      await onPiece(piece);
      handed.push(piece);
    },
  };
};
