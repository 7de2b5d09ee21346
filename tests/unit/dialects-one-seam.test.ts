// A dialect lives in its folder (docs/design.md "Databases as one seam"): outside lib/dialects/,
// no source file of the service (lib/, functions/, admin/) names one in its code — no string,
// template or regular-expression literal holding a dialect's name, no import of a file named
// after one. Comments may name them. A new dialect is then its folder, one line of the registry
// (lib/dialects/index.ts) and its corpus.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '#lib/dialects/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['lib', 'functions', 'admin'];
const SEAM = 'lib/dialects/';

/** Every dialect's name, engines and URL schemes, from the registry itself, plus the families' own words. */
const names = [
  ...new Set([
    ...DIALECTS.flatMap((dialect) => [
      dialect.name,
      ...dialect.engines.flatMap((engine) => [
        engine.name,
        // An embedded engine's `memory:` names no dialect.
        ...(engine.embedded ? [] : engine.urlSchemes.map((scheme) => scheme.replace(/:$/, ''))),
      ]),
    ]),
    'postgresql',
    'mariadb',
  ]),
];
const named = new RegExp(`\\b(?:${names.join('|')})\\b`, 'i');
const namedInPath = new RegExp(`(?:${names.join('|')})`, 'i');

const sourceFiles = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'));

/** The places a file names a dialect in its code: literals, and the paths it imports. */
const dialectNamesIn = (text: string): string[] => {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const specifier = node.moduleSpecifier.text;
      if (specifier.startsWith('.') || specifier.startsWith('#')) {
        if (namedInPath.test(specifier)) found.push(`${line(node)}: import ${specifier}`);
        return;
      }
    }
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      // A regular expression's escapes (`\\b`, `\\/`) are not letters of a word.
      const literal = ts.isStringLiteral(node) ? node.text : node.getText(source).replace(/\\./g, ' ');
      const specifier =
        ts.isCallExpression(node.parent) && node.parent.expression.kind === ts.SyntaxKind.ImportKeyword;
      if (specifier ? namedInPath.test(literal) : named.test(literal))
        found.push(`${line(node)}: ${literal}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

describe('dialects: one seam', () => {
  it('the registry lists the dialects the check looks for', () => {
    expect(names.length).toBeGreaterThanOrEqual(DIALECTS.length);
    expect(DIALECTS.length).toBeGreaterThan(1);
  });

  it('finds a planted name (the check can fail)', () => {
    expect(dialectNamesIn(`const engine = 'mysql';`)).toHaveLength(1);
    expect(dialectNamesIn(`const scheme = \`postgresql://$\{host}\`;`)).toHaveLength(1);
    expect(dialectNamesIn(`const url = /\\bmariadb:\\/\\//;`)).toHaveLength(1);
    expect(dialectNamesIn(`import { guard } from '#lib/sql/pglite-worker.ts';`)).toHaveLength(1);
    expect(dialectNamesIn(`const guard = await import('./postgres/guard.ts');`)).toHaveLength(1);
    expect(dialectNamesIn(`// a comment may say PostgreSQL or MySQL\nconst x = 'sql';`)).toEqual([]);
  });

  it('no file outside lib/dialects/ names a dialect in its code', () => {
    const offenders = FOLDERS.flatMap(sourceFiles)
      .filter((file) => !file.startsWith(SEAM))
      .flatMap((file) =>
        dialectNamesIn(readFileSync(join(ROOT, file), 'utf8')).map((hit) => `${file}:${hit}`),
      );
    expect(offenders).toEqual([]);
  });
});
