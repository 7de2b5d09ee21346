// The builtin engine's first step: words (identifiers split, singular and plural forms, phrase
// keys) and the tokenizer (numbers, money, dates, quoted literals, possessives, symbols).
import { describe, expect, it } from 'vitest';
import { tokenize } from '#lib/answer/builtin/tokens.ts';
import { joinAnd, phraseKey, plural, singular, splitIdentifier } from '#lib/answer/builtin/words.ts';

describe('splitIdentifier', () => {
  it('splits snake_case, camelCase, PascalCase, kebab-case and acronyms into lower-case words', () => {
    expect(splitIdentifier('order_items')).toEqual(['order', 'items']);
    expect(splitIdentifier('orderItems')).toEqual(['order', 'items']);
    expect(splitIdentifier('OrderItems')).toEqual(['order', 'items']);
    expect(splitIdentifier('order-items')).toEqual(['order', 'items']);
    expect(splitIdentifier('createdAt')).toEqual(['created', 'at']);
    expect(splitIdentifier('HTTPRequests')).toEqual(['http', 'requests']);
    expect(splitIdentifier('address2_line')).toEqual(['address2', 'line']);
  });
});

describe('singular and plural', () => {
  it('folds regular and irregular plurals', () => {
    const pairs: [string, string][] = [
      ['orders', 'order'],
      ['categories', 'category'],
      ['addresses', 'address'],
      ['boxes', 'box'],
      ['branches', 'branch'],
      ['people', 'person'],
      ['status', 'status'],
      ['statuses', 'status'],
      ['analyses', 'analysis'],
      ['days', 'day'],
      ['bus', 'bus'],
      ['studios', 'studio'],
      ['videos', 'video'],
      ['photos', 'photo'],
      ['chaos', 'chaos'],
      ['species', 'species'],
      ['series', 'series'],
    ];
    for (const [many, one] of pairs) expect(singular(many), many).toBe(one);
  });

  it('forms plurals for display', () => {
    expect(plural('category')).toBe('categories');
    expect(plural('order')).toBe('orders');
    expect(plural('box')).toBe('boxes');
    expect(plural('person')).toBe('people');
    expect(plural('status')).toBe('statuses');
    expect(plural('day')).toBe('days');
    expect(plural('studio')).toBe('studios');
    expect(plural('species')).toBe('species');
  });

  it('keys phrases by their singular words, so both forms match', () => {
    expect(phraseKey(['order', 'items'])).toBe(phraseKey(['orders', 'item']));
    expect(phraseKey(['Categories'.toLowerCase()])).toBe('category');
  });

  it('joins lists in English', () => {
    expect(joinAnd([])).toBe('');
    expect(joinAnd(['a'])).toBe('a');
    expect(joinAnd(['a', 'b'])).toBe('a and b');
    expect(joinAnd(['a', 'b', 'c'], 'or')).toBe('a, b or c');
  });
});

describe('tokenize', () => {
  it('reads words in lower case, without possessives, with spellings folded', () => {
    expect(tokenize("Customer's canceled Orders")).toEqual([
      { kind: 'word', text: 'customer', cased: 'Customer', possessive: true },
      { kind: 'word', text: 'cancelled' },
      { kind: 'word', text: 'orders', cased: 'Orders' },
    ]);
  });

  it('marks a possessive, with or without an s after the apostrophe', () => {
    expect(tokenize("Northwind Athletics' members")[1]).toEqual({
      kind: 'word',
      text: 'athletics',
      cased: 'Athletics',
      possessive: true,
    });
  });

  it('keeps a capitalized word as written, a hint of a name', () => {
    expect(tokenize('the Harbor Depot')).toEqual([
      { kind: 'word', text: 'the' },
      { kind: 'word', text: 'harbor', cased: 'Harbor' },
      { kind: 'word', text: 'depot', cased: 'Depot' },
    ]);
  });

  it('reads money, thousands separators, decimals, k suffixes and percentages', () => {
    const [dollars, euros, plain, thousands, percent] = tokenize('$1,250.50 €20 3.5 5k 20%');
    expect(dollars).toMatchObject({ kind: 'number', value: 1250.5, money: true });
    expect(euros).toMatchObject({ kind: 'number', value: 20, money: true });
    expect(plain).toMatchObject({ kind: 'number', value: 3.5, money: false });
    expect(thousands).toMatchObject({ kind: 'number', value: 5000 });
    expect(percent).toMatchObject({ kind: 'number', value: 20, percent: true });
  });

  it('turns a currency word after a number into money and drops it', () => {
    expect(tokenize('over 100 dollars')).toEqual([
      { kind: 'word', text: 'over' },
      { kind: 'number', value: 100, money: true, percent: false, raw: '100' },
    ]);
  });

  it('reads ISO dates (also with slashes) and pads them', () => {
    expect(tokenize('since 2025-3-1')).toContainEqual({ kind: 'date', iso: '2025-03-01' });
    expect(tokenize('before 2025/12/31')).toContainEqual({ kind: 'date', iso: '2025-12-31' });
  });

  it('keeps quoted literals whole, but not apostrophes inside words', () => {
    expect(tokenize(`customers named "Ada Moreno" and 'Victor O'Neil'`)).toContainEqual({
      kind: 'quoted',
      text: 'Ada Moreno',
    });
    // Contractions are expanded, with or without the apostrophe.
    expect(tokenize("don't")).toEqual([
      { kind: 'word', text: 'do' },
      { kind: 'word', text: 'not' },
    ]);
    expect(tokenize("we've").map((token) => token.kind === 'word' && token.text)).toEqual(['we', 'have']);
    expect(tokenize('whats').map((token) => token.kind === 'word' && token.text)).toEqual(['what', 'is']);
  });

  it('splits typed identifiers and hyphenated words into words', () => {
    expect(tokenize('order_items best-selling').map((token) => token.kind === 'word' && token.text)).toEqual([
      'order',
      'items',
      'best',
      'selling',
    ]);
  });

  it('keeps comparison symbols and sentence breaks as their own tokens', () => {
    expect(tokenize('price >= 10, please?')).toEqual([
      { kind: 'word', text: 'price' },
      { kind: 'symbol', text: '>=' },
      { kind: 'number', value: 10, money: false, percent: false, raw: '10' },
      { kind: 'break', text: ',' },
      { kind: 'word', text: 'please' },
      { kind: 'break', text: '?' },
    ]);
  });
});

describe('words that are names of Object’s own properties', () => {
  it('are ordinary words: no table of words answers to constructor, toString or __proto__', () => {
    for (const word of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'].map((w) =>
      w.toLowerCase(),
    )) {
      expect(typeof singular(word)).toBe('string');
      expect(typeof plural(word)).toBe('string');
      expect(tokenize(word).every((token) => token.kind !== 'word' || typeof token.text === 'string')).toBe(
        true,
      );
    }
    expect(singular('constructors')).toBe('constructor');
    expect(tokenize('constructor')).toEqual([{ kind: 'word', text: 'constructor' }]);
  });
});
