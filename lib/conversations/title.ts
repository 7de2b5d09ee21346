// A conversation's title (docs/design.md "Smaller decisions"): its first user message, on one line,
// cut to 80 characters at a word boundary with "…" added when cut; "New conversation" until a
// user message exists. Characters are code points, so an emoji is never split in half.

export const TITLE_LENGTH = 80;
export const UNTITLED = 'New conversation';

/** The title a user message gives a conversation; undefined for a message with no visible text. */
export const titleOf = (content: string): string | undefined => {
  const line = content.replace(/\s+/gu, ' ').trim();
  if (line.length === 0) return undefined;
  const characters = Array.from(line);
  if (characters.length <= TITLE_LENGTH) return line;
  const head = characters.slice(0, TITLE_LENGTH);
  // The cut falls between words when the next character is a space; otherwise go back to the
  // last space in the head. One word longer than the limit is cut inside the word.
  const lastSpace = characters[TITLE_LENGTH] === ' ' ? TITLE_LENGTH : head.lastIndexOf(' ');
  const kept = lastSpace > 0 ? head.slice(0, lastSpace) : head;
  return `${kept.join('').trimEnd()}…`;
};
