// Conversation titles (docs/design.md "Smaller decisions"): the first user message, cut to 80
// characters at a word boundary with "…" added when cut.
import { describe, expect, it } from 'vitest';
import { TITLE_LENGTH, titleOf } from '#lib/conversations/title.ts';

describe('titleOf', () => {
  it('keeps a message of at most 80 characters as it is', () => {
    expect(titleOf('How many orders shipped last week?')).toBe('How many orders shipped last week?');
    const exactly = 'x'.repeat(TITLE_LENGTH);
    expect(titleOf(exactly)).toBe(exactly);
  });

  it('cuts a longer message at the last word boundary and adds …', () => {
    const words =
      'Which customers in Germany ordered more than three times in the last quarter and paid by invoice?';
    const title = titleOf(words)!;
    expect(title.endsWith('…')).toBe(true);
    const kept = title.slice(0, -1);
    expect(kept.length).toBeLessThanOrEqual(TITLE_LENGTH);
    expect(words.startsWith(kept)).toBe(true);
    expect(words[kept.length]).toBe(' ');
    expect(title).toBe('Which customers in Germany ordered more than three times in the last quarter and…');
  });

  it('keeps a word that ends exactly at the limit', () => {
    const text = `${'a'.repeat(79)}b rest`;
    expect(titleOf(text)).toBe(`${'a'.repeat(79)}b…`);
  });

  it('cuts inside a single word longer than the limit', () => {
    expect(titleOf('y'.repeat(200))).toBe(`${'y'.repeat(80)}…`);
  });

  it('puts the message on one line and trims it', () => {
    expect(titleOf('  first line\n\nsecond\tline  ')).toBe('first line second line');
  });

  it('counts characters, never splitting an emoji', () => {
    const title = titleOf('🙂'.repeat(100))!;
    expect(Array.from(title)).toHaveLength(81);
    expect(title).toBe(`${'🙂'.repeat(80)}…`);
  });

  it('gives no title for a message without visible text', () => {
    expect(titleOf(' \n\t ')).toBeUndefined();
  });
});
