// node-sql-parser in MySQL mode, the grammar behind the MySQL/MariaDB guard (lib/dialects/mysql/sql-guard.ts):
// parse, print, and the tree comparison the guard's fail-closed reprint check relies on.
// The MySQL-only build keeps the bundle small (the full package carries every dialect).
import { isDeepStrictEqual } from 'node:util';
import nodeSqlParser from 'node-sql-parser/build/mysql.js';

/** A node of node-sql-parser's tree: plain JSON objects, typed loosely on purpose. */
export type AstNode = Record<string, unknown>;

const parser = new nodeSqlParser.Parser();
// The MySQL grammar, not node-sql-parser's MariaDB one: the MariaDB build of 5.4 cannot parse
// window functions or `->`; printed SQL stays within what MariaDB 10.11 also runs.
const OPTIONS = { database: 'MySQL' };

/**
 * Numbers MySQL reads that node-sql-parser 5 does not: an exponent without a decimal point
 * (`1e308`, `2E-3`: it reads a column `1e308`, or `2E` minus 3) and a leading decimal point
 * (`.5`, `.5e1`: a parse error). Each is written with its point and digits (`1.0e308`, `0.5e1`),
 * the same value for the server, outside strings, quoted identifiers and comments; a number
 * after an identifier character or a point (`t1e3`, `t.1e3`) is part of an identifier and left
 * alone, as is a name that starts with digits and is no number (`123abc`, `1ea`). Text the server
 * reads as a number but node-sql-parser as a name or another number (`0b1`, `0X1`, `0xg`, `1e3e3`,
 * `1e3x`, `1e3.5`) throws, so the guard refuses it as a parse error.
 */
export const normaliseNumbers = (sql: string): string => {
  let out = '';
  let at = 0;
  const identifierChar = /[A-Za-z0-9_$\u0080-\uffff]/;
  while (at < sql.length) {
    const char = sql[at]!;
    const next = sql[at + 1];
    // Strings and quoted identifiers, with their escapes; comments to their end.
    if (char === "'" || char === '"' || char === '`') {
      let end = at + 1;
      while (end < sql.length) {
        if (sql[end] === '\\' && char !== '`') end += 2;
        else if (sql[end] === char && sql[end + 1] === char) end += 2;
        else if (sql[end] === char) break;
        else end += 1;
      }
      out += sql.slice(at, end + 1);
      at = end + 1;
      continue;
    }
    if ((char === '-' && next === '-') || char === '#') {
      const end = sql.indexOf('\n', at);
      out += sql.slice(at, end === -1 ? sql.length : end);
      at = end === -1 ? sql.length : end;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = sql.indexOf('*/', at + 2);
      out += sql.slice(at, end === -1 ? sql.length : end + 2);
      at = end === -1 ? sql.length : end + 2;
      continue;
    }
    const previous = out.at(-1) ?? ' ';
    const number = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?/.exec(sql.slice(at));
    const text = number?.[0] ?? '';
    const startsNumber = /\d/.test(char) || (char === '.' && /\d/.test(next ?? ''));
    if (startsNumber && text.length > 0 && !identifierChar.test(previous) && previous !== '.') {
      const after = sql[at + text.length] ?? ' ';
      const word = /^[A-Za-z0-9_$\u0080-\uffff]*/.exec(sql.slice(at))?.[0] ?? '';
      // MySQL reads `0b1` as a bit value, `0X1` as a name, `1e3e3` / `1e3x` as the number 1e3
      // named e3 / x; node-sql-parser reads each as a name or a hex number. Refused, never
      // turned into a name the server would read otherwise.
      if (/^0[bBX]/.test(word) || (/^0x/.test(word) && !/^0x[0-9a-fA-F]+$/.test(word)))
        throw new SyntaxError(`${word.slice(0, 40)} is not a number this service reads`);
      if (number?.[3] !== undefined && (identifierChar.test(after) || after === '.'))
        throw new SyntaxError(`${sql.slice(at, at + 40).split(/\s/)[0]} is not a number this service reads`);
      if (!identifierChar.test(after) && after !== '.') {
        const [, whole, fraction, exponent] = number as RegExpExecArray;
        const hasPoint = text.includes('.');
        out +=
          exponent === undefined && (!hasPoint || (whole !== '' && fraction !== ''))
            ? text
            : `${whole || '0'}.${fraction || '0'}${exponent === undefined ? '' : `e${exponent}`}`;
        at += text.length;
        continue;
      }
    }
    // An identifier (or a keyword) is copied whole, so digits inside it are never read as a number.
    if (identifierChar.test(char)) {
      let end = at;
      while (end < sql.length && identifierChar.test(sql[end]!)) end += 1;
      out += sql.slice(at, end);
      at = end;
      continue;
    }
    out += char;
    at += 1;
  }
  return out;
};

/** Every statement of the text (an empty text gives none); throws on a syntax error. */
export const parseStatements = (sql: string): AstNode[] => {
  const ast = parser.astify(normaliseNumbers(sql), OPTIONS) as unknown;
  if (Array.isArray(ast)) return ast as AstNode[];
  return ast === null || ast === undefined ? [] : [ast as AstNode];
};

/** Prints a tree. `sqlify` mutates the tree it prints, so it prints a copy. */
export const printStatement = (ast: AstNode): string =>
  parser.sqlify(structuredClone(ast) as unknown as Parameters<typeof parser.sqlify>[0], OPTIONS);

/**
 * node-sql-parser keeps an identifier as written between its backticks (a backtick doubled) and
 * prints it back between backticks unchanged: names read from a tree are unescaped before they
 * meet the catalog, and catalog names are escaped before they go into a tree.
 */
export const identifierValue = (raw: string): string => raw.replaceAll('``', '`');
export const identifierText = (name: string): string => name.replaceAll('`', '``');

export const isNode = (value: unknown): value is AstNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys that record where or how something was written, not what it means. */
const COSMETIC_KEYS = new Set(['loc', 'tableList', 'columnList']);

/**
 * The tree with the printer's cosmetic choices undone, so that a tree and the tree of its
 * printed text compare equal exactly when they mean the same: a backticked column qualifier
 * parses as `{type: 'backticks_quote_string'}` and a bare one as a string; an ORDER BY item
 * without direction parses as `null` and prints as `ASC`. `param` nodes named in `markers`
 * become the `?` the guard substitutes for them.
 */
export const canonicalTree = (value: unknown, markers?: ReadonlySet<string>): unknown => {
  if (Array.isArray(value)) return value.map((item) => canonicalTree(item, markers));
  if (!isNode(value)) return value;
  if (markers && value.type === 'param' && typeof value.value === 'string' && markers.has(value.value)) {
    return { type: 'origin', value: '?' };
  }
  const out: AstNode = {};
  for (const [key, child] of Object.entries(value)) {
    if (COSMETIC_KEYS.has(key) || child === undefined) continue;
    if (
      key === 'table' &&
      value.type === 'column_ref' &&
      isNode(child) &&
      child.type === 'backticks_quote_string'
    ) {
      out[key] = child.value;
    } else if ((key === 'orderby' || key === '_orderby') && Array.isArray(child)) {
      out[key] = child.map((item) =>
        isNode(item) && item.type === null
          ? { ...(canonicalTree(item, markers) as AstNode), type: 'ASC' }
          : canonicalTree(item, markers),
      );
    } else {
      out[key] = canonicalTree(child, markers);
    }
  }
  return out;
};

/** Whether a reparsed tree means the checked one, its bound-value `markers` read as `?`. */
export const sameTree = (reparsed: unknown, checked: unknown, markers: ReadonlySet<string>): boolean =>
  isDeepStrictEqual(canonicalTree(reparsed), canonicalTree(checked, markers));
