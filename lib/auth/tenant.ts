// X-Tenant-Id and the scope value of a request against a connected database (docs/design.md "Tenant
// filtering and the SQL guard", spec "Tenant header"). `resolveTenant` is the pure rule, shared
// by the answering endpoints (through the `tenant` middleware of lib/http) and `admin sql check`:
//   - each value is validated against the type of the column it will be compared with: an
//     integer column takes a positive integer (1 … 2^53−1, and within the column's range: `0`
//     and `-1` are no tenant), a uuid column a UUID, anything else 1 to 255 printable
//     characters; the values go to SQL only as bound parameters;
//   - tenant header invalid → 403 INVALID_TENANT_ID, details [{field: 'X-Tenant-Id', code: 'INVALID_FORMAT'}];
//   - missing while the database requires scoping → the same with code MISSING_REQUIRED_HEADER;
//   - sent to a database without scoping → 403 "Organization scoping is not enabled for this database";
//   - X-Scope-Id missing while the row policy says `scope_required` → 403 AUTH_INSUFFICIENT_PERMISSIONS,
//     details [{field: 'X-Scope-Id', code: 'MISSING_REQUIRED_HEADER'}]. Without `scope_required`
//     a request without X-Scope-Id is filtered by tenant only: it reads every scope of its tenant.
// A scope value that does not fit its column is a 400 on X-Scope-Id, as the header's other
// bounds are (docs/design.md "Smaller decisions").
import type { Catalog, CatalogColumn } from '#lib/core/catalog.ts';
import { type EffectivePolicy, effectivePolicy, relationAccess } from '#lib/core/row-policy.ts';
import { dialectNamed } from '#lib/dialects/index.ts';
import { invalidField, ServiceError } from '#lib/errors.ts';
import { uuidPattern } from '#lib/ids.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';

export const TENANT_HEADER = 'X-Tenant-Id';
export const SCOPING_NOT_ENABLED = 'Organization scoping is not enabled for this database';

/** The validated values, as the guard binds them. */
export interface TenantValues {
  tenant?: string | number;
  scope?: string | number;
}

type PolicySource = Pick<
  DatabaseRecord,
  'requiresOrganizationScoping' | 'tenantFilterColumn' | 'scopeFilterColumn' | 'policy'
>;

const MAX_TEXT_LENGTH = 255;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

// ---- value rules -------------------------------------------------------------------------------

type Rule =
  | { kind: 'integer'; min: bigint; max: bigint; column: string }
  | { kind: 'uuid'; column: string }
  | { kind: 'decimal'; column: string }
  | { kind: 'text'; column: string };

const signedRange = (bits: number): [bigint, bigint] => [
  -(2n ** BigInt(bits - 1)),
  2n ** BigInt(bits - 1) - 1n,
];
const unsignedRange = (bits: number): [bigint, bigint] => [0n, 2n ** BigInt(bits) - 1n];

/** The range of an integer column from its native type (PostgreSQL or MySQL spelling). */
export const integerRange = (nativeType: string): [bigint, bigint] => {
  const type = nativeType.toLowerCase();
  const unsigned = /\bunsigned\b/.test(type);
  const bits = /^(tinyint|int1)\b/.test(type)
    ? 8
    : /^(smallint|int2|smallserial)\b/.test(type)
      ? 16
      : /^(mediumint|int3)\b/.test(type)
        ? 24
        : /^(bigint|int8|bigserial)\b/.test(type)
          ? 64
          : 32;
  return unsigned ? unsignedRange(bits) : signedRange(bits);
};

/** Tenant and scope ids on integer columns are positive and exact in JSON: 1 … 2^53−1. */
const MAX_ID = BigInt(Number.MAX_SAFE_INTEGER);

const ruleOf = (column: CatalogColumn): Rule => {
  switch (column.kind) {
    case 'integer': {
      const [min, max] = integerRange(column.nativeType);
      return {
        kind: 'integer',
        min: min > 1n ? min : 1n,
        max: max < MAX_ID ? max : MAX_ID,
        column: column.name,
      };
    }
    case 'uuid':
      return { kind: 'uuid', column: column.name };
    case 'decimal':
      return { kind: 'decimal', column: column.name };
    default:
      return { kind: 'text', column: column.name };
  }
};

/** Checks one value against one rule: the normalised value, or the reason it does not fit. */
const apply = (
  rule: Rule,
  value: string,
): { ok: true; value: string | number } | { ok: false; reason: string } => {
  switch (rule.kind) {
    case 'integer': {
      if (!/^-?[0-9]{1,20}$/.test(value))
        return { ok: false, reason: `must be a positive integer (column ${rule.column})` };
      const number = BigInt(value);
      if (number < rule.min || number > rule.max) {
        return {
          ok: false,
          reason: `must be a positive integer from ${rule.min} to ${rule.max} (column ${rule.column})`,
        };
      }
      return { ok: true, value: Number(number) };
    }
    case 'uuid':
      return uuidPattern.test(value)
        ? { ok: true, value: value.toLowerCase() }
        : { ok: false, reason: `must be a UUID (column ${rule.column})` };
    case 'decimal':
      return /^-?[0-9]{1,30}(\.[0-9]{1,30})?$/.test(value)
        ? { ok: true, value }
        : { ok: false, reason: `must be a number (column ${rule.column})` };
    case 'text':
      if ([...value].length > MAX_TEXT_LENGTH)
        return { ok: false, reason: `must be at most ${MAX_TEXT_LENGTH} characters` };
      if (controlCharacter.test(value))
        return { ok: false, reason: 'must contain printable characters only' };
      return { ok: true, value };
  }
};

/**
 * Every column a value will be compared with: the tenant (or scope) column of each relation the
 * policy filters. One value must fit them all; an integer wins over text for the bound value.
 */
const columnsOf = (catalog: Catalog | undefined, policy: EffectivePolicy, which: 'tenant' | 'scope') => {
  const columns: CatalogColumn[] = [];
  for (const relation of catalog?.relations ?? []) {
    const access = relationAccess(
      catalog as Catalog,
      policy,
      relation.schema,
      relation.name,
      dialectNamed((catalog as Catalog).dialect),
    );
    if (access.kind === 'refused') continue;
    const name =
      which === 'tenant'
        ? access.kind === 'filtered'
          ? access.tenantColumn
          : undefined
        : access.scopeColumn;
    const column = name === undefined ? undefined : relation.columns.find((c) => c.name === name);
    if (column) columns.push(column);
  }
  return columns;
};

const validate = (
  raw: string,
  columns: readonly CatalogColumn[],
): { ok: true; value: string | number } | { ok: false; reason: string } => {
  const rules = columns.length > 0 ? columns.map(ruleOf) : [{ kind: 'text', column: '' } as const];
  // Text first, so the general bounds are reported even for typed columns; then each type.
  const text = apply({ kind: 'text', column: '' }, raw);
  if (!text.ok) return text;
  let value: string | number = raw;
  for (const rule of rules) {
    const result = apply(rule, raw);
    if (!result.ok) return result;
    if (typeof result.value === 'number' || rule.kind === 'uuid') value = result.value;
  }
  return { ok: true, value };
};

const tenantError = (code: 'INVALID_FORMAT' | 'MISSING_REQUIRED_HEADER', message: string) =>
  new ServiceError('INVALID_TENANT', {
    message,
    detail: code,
    issues: [{ field: TENANT_HEADER, message, code }],
  });

const present = (raw: string | number | undefined): string | undefined => {
  if (raw === undefined) return undefined;
  const value = String(raw).trim();
  return value === '' ? undefined : value;
};

/**
 * Validates a request's tenant header and scope for one database. `catalog` gives the columns'
 * types (the schema index); without it both values are held to the text rule.
 */
export const resolveTenant = (
  database: PolicySource,
  catalog: Catalog | undefined,
  rawTenant: string | number | undefined,
  scopeId: string | number | undefined,
): TenantValues => {
  const policy = effectivePolicy(database);
  const result: TenantValues = {};
  const tenant = present(rawTenant);
  if (tenant !== undefined && !policy.requiresScoping) {
    throw new ServiceError('INVALID_TENANT', { message: SCOPING_NOT_ENABLED, detail: SCOPING_NOT_ENABLED });
  }
  if (policy.requiresScoping) {
    if (tenant === undefined) {
      throw tenantError(
        'MISSING_REQUIRED_HEADER',
        `The ${TENANT_HEADER} header is required for this database`,
      );
    }
    const checked = validate(tenant, columnsOf(catalog, policy, 'tenant'));
    if (!checked.ok) throw tenantError('INVALID_FORMAT', `${TENANT_HEADER} ${checked.reason}`);
    result.tenant = checked.value;
  }
  const scope = present(scopeId);
  if (scope === undefined && policy.scopeRequired) {
    // docs/design.md "A missing scope is not 'all scopes'": without the header the request would
    // read every scope of its tenant.
    const message = 'The X-Scope-Id header is required for this database';
    throw new ServiceError('SCOPE_REQUIRED', {
      message,
      issues: [{ field: 'X-Scope-Id', message, code: 'MISSING_REQUIRED_HEADER' }],
    });
  }
  const hasScopeColumn =
    policy.scopeColumn !== undefined || Object.values(policy.tables ?? {}).some((t) => t.scope_column);
  if (scope !== undefined && hasScopeColumn) {
    const checked = validate(scope, columnsOf(catalog, policy, 'scope'));
    if (!checked.ok) throw invalidField('X-Scope-Id', `X-Scope-Id ${checked.reason}`, 'INVALID_FORMAT');
    result.scope = checked.value;
  }
  return result;
};
