// Rows with no related row of a relation cannot be joined through that relation as well
// (lib/answer/builtin/check.ts): the answer would always be empty, so it is asked back. On two
// schemas of different domains: a co-op hiring out machinery and a library lending books.
import { describe, expect, it } from 'vitest';
import { askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';

const coopCatalog = catalogOf([
  {
    name: 'members',
    columns: [
      col('id', 'integer', 'integer'),
      col('coop_id', 'integer', 'integer'),
      col('farm_name', 'text', 'text'),
    ],
  },
  {
    name: 'machines',
    columns: [
      col('id', 'integer', 'integer'),
      col('coop_id', 'integer', 'integer'),
      col('machine_name', 'text', 'text'),
    ],
  },
  {
    name: 'machine_hires',
    columns: [
      col('id', 'integer', 'integer'),
      col('coop_id', 'integer', 'integer'),
      col('member_id', 'integer', 'integer', { references: 'members' }),
      col('machine_id', 'integer', 'integer', { references: 'machines' }),
      col('hired_dt', 'date', 'date'),
    ],
  },
]);

const libraryCatalog = catalogOf([
  {
    name: 'borrowers',
    columns: [
      col('id', 'integer', 'integer'),
      col('library_id', 'integer', 'integer'),
      col('full_name', 'text', 'text'),
    ],
  },
  {
    name: 'books',
    columns: [
      col('id', 'integer', 'integer'),
      col('library_id', 'integer', 'integer'),
      col('title', 'text', 'text'),
    ],
  },
  {
    name: 'loans',
    columns: [
      col('id', 'integer', 'integer'),
      col('library_id', 'integer', 'integer'),
      col('borrower_id', 'integer', 'integer', { references: 'borrowers' }),
      col('book_id', 'integer', 'integer', { references: 'books' }),
      col('loaned_dt', 'date', 'date'),
    ],
  },
]);

const askers = {
  coop: askOn(coopCatalog, 'coop_id'),
  library: askOn(libraryCatalog, 'library_id'),
} as const;

describe('no related rows, joined through the same relation, is asked back', () => {
  it.each<[keyof typeof askers, string]>([
    ['coop', 'members who have never hired a machine'],
    ['library', 'borrowers who have never loaned a book'],
  ])('%s: %s', (schema, question) => {
    const proposal = askers[schema](question);
    expect(proposal.kind).toBe('clarification');
  });

  it.each<[keyof typeof askers, string]>([
    ['coop', 'members with no machine hires'],
    ['library', 'borrowers with no loans'],
  ])('%s: without the relation beyond, answered: %s', (schema, question) => {
    expect(sqlOf(askers[schema](question))).toContain('NOT EXISTS');
  });
});
