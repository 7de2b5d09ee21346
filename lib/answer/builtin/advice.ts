// Questions that ask for a decision or an opinion ("should we put the rents up in Bath?", "do you
// think we should move Acme to the enterprise plan?"): the data can inform them, not answer them.
// Checked before reading, so that a name the question carries (now found by the value lookup)
// never turns advice into a list of rows.
import type { ClarificationProposal } from '../engine.ts';

/** Phrase knowledge: the ways a question asks for advice rather than data. */
const ADVICE = [
  /\b(?:do|would) you (?:think|recommend|suggest|advise|reckon)\b/i,
  /\b(?:should|shall|ought) (?:we|i)\b/i,
  /\b(?:is it|would it be) (?:worth|wise|better|a good idea)\b/i,
  /\bwhat (?:would|do) you (?:do|recommend|suggest)\b/i,
];

export const adviceRequest = (question: string): ClarificationProposal | undefined =>
  ADVICE.some((pattern) => pattern.test(question))
    ? {
        kind: 'clarification',
        message:
          'I can show what the data says, not decide for you. Could you ask for the figures you would decide on, for example a count, a total or a list?',
      }
    : undefined;
