// A connected database's query patterns and glossary (functions/patterns.ts; docs/control-plane.md
// "Query patterns", "Glossary"), both checked by the SQL guard when saved.
import type { Route } from '#lib/http/route.ts';
import {
  GlossaryPathInput,
  GlossaryPutInput,
  PatternCreateInput,
  PatternListInput,
  PatternPathInput,
  PatternUpdateInput,
} from '#lib/manage/inputs.ts';
import { authenticated, controlPlaneRead, controlPlaneWrite, withBody } from './common.ts';
import {
  DeletedResponse,
  GlossaryResponse,
  QueryPatternResponse,
  QueryPatternsPage,
} from './manage-schemas.ts';

export const listPatterns = {
  method: 'GET',
  path: '/api/v1/organization/databases/{id}/patterns',
  functionName: 'patterns',
  operationId: 'listPatterns',
  summary: 'List query patterns',
  description:
    'The database’s question → SQL pairs, oldest first, page by page: `status=candidate` lists the ' +
    'candidates an answer’s feedback proposed, for an admin to approve; `status=approved` those in use.',
  ...controlPlaneRead,
  input: PatternListInput,
  responses: [{ status: 200, schema: QueryPatternsPage, description: 'One page of patterns' }],
  errors: [...authenticated, 'DATABASE_NOT_FOUND'],
} satisfies Route;

export const createPattern = {
  method: 'POST',
  path: '/api/v1/organization/databases/{id}/patterns',
  functionName: 'patterns',
  operationId: 'createPattern',
  summary: 'Add a query pattern',
  description:
    'An approved question and the SQL that answers it, shown to the model engines as an example. ' +
    'The SQL must pass the database’s SQL guard (against its schema index and row policy): a ' +
    'refused query is 400 VALIDATION_ERROR whose details entry (field `body.sql`) carries the ' +
    'guard’s code (NOT_SELECT, FUNCTION_NOT_ALLOWED, RELATION_NOT_ALLOWED, …). A second pattern ' +
    'for the same question is 400 BUSINESS_DUPLICATE_ENTRY; a database not indexed yet is 422 ' +
    '(details code SCHEMA_NOT_INDEXED). At most 100 per database.',
  ...controlPlaneWrite,
  input: PatternCreateInput,
  responses: [{ status: 201, schema: QueryPatternResponse, description: 'The pattern is added' }],
  errors: [...withBody, 'DATABASE_NOT_FOUND', 'DUPLICATE_ENTRY', 'CONNECTION_TEST_FAILED'],
} satisfies Route;

export const updatePattern = {
  method: 'PATCH',
  path: '/api/v1/organization/databases/{id}/patterns/{pattern_id}',
  functionName: 'patterns',
  operationId: 'updatePattern',
  summary: 'Change a query pattern',
  description:
    'Changes the question, the SQL (checked by the guard again), the notes (`null` clears them) or the ' +
    'status: `approved` approves a candidate (its SQL is checked by the guard again), `candidate` sets ' +
    'a pattern aside.',
  ...controlPlaneWrite,
  input: PatternUpdateInput,
  responses: [{ status: 200, schema: QueryPatternResponse, description: 'The pattern is changed' }],
  errors: [
    ...withBody,
    'DATABASE_NOT_FOUND',
    'PATTERN_NOT_FOUND',
    'DUPLICATE_ENTRY',
    'CONNECTION_TEST_FAILED',
  ],
} satisfies Route;

export const deletePattern = {
  method: 'DELETE',
  path: '/api/v1/organization/databases/{id}/patterns/{pattern_id}',
  functionName: 'patterns',
  operationId: 'deletePattern',
  summary: 'Delete a query pattern',
  description: 'Deletes the pattern.',
  ...controlPlaneWrite,
  input: PatternPathInput,
  responses: [{ status: 200, schema: DeletedResponse, description: 'Deleted' }],
  errors: [...authenticated, 'DATABASE_NOT_FOUND', 'PATTERN_NOT_FOUND'],
} satisfies Route;

export const getGlossary = {
  method: 'GET',
  path: '/api/v1/organization/databases/{id}/glossary',
  functionName: 'patterns',
  operationId: 'getGlossary',
  summary: 'Get the glossary',
  description: 'The database’s glossary (empty maps when none was saved).',
  ...controlPlaneRead,
  input: GlossaryPathInput,
  responses: [{ status: 200, schema: GlossaryResponse, description: 'The glossary' }],
  errors: [...authenticated, 'DATABASE_NOT_FOUND'],
} satisfies Route;

export const putGlossary = {
  method: 'PUT',
  path: '/api/v1/organization/databases/{id}/glossary',
  functionName: 'patterns',
  operationId: 'putGlossary',
  summary: 'Replace the glossary',
  description:
    'Synonyms (a word → a table or table.column), metrics and named filters (a word → an SQL ' +
    'expression over qualified columns), used by every engine. Each metric and filter must pass ' +
    'the database’s SQL guard and each synonym name a table or column of its index: a refused ' +
    'entry is 400 naming it (details field and code), and nothing is saved. A database not ' +
    'indexed yet is 422 (SCHEMA_NOT_INDEXED).',
  ...controlPlaneWrite,
  input: GlossaryPutInput,
  responses: [{ status: 200, schema: GlossaryResponse, description: 'The glossary is saved' }],
  errors: [...withBody, 'DATABASE_NOT_FOUND', 'CONNECTION_TEST_FAILED'],
} satisfies Route;
