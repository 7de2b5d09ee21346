// `admin org …`, `admin key …` and `admin branding set`: organizations, their plans and limit
// overrides, their API keys and the widget's branding. What they print uses the API's field names.
import * as v from 'valibot';
import { isServiceError } from '#lib/errors.ts';
import { effectiveLimits } from '#lib/limits/plans.ts';
import { createKey, publicApiKey, revokeKey } from '#lib/manage/api-keys.ts';
import { ApiKeyCreateBody } from '#lib/manage/inputs.ts';
import { type ApiKeyRecord, listApiKeys } from '#lib/store/api-keys.ts';
import { BrandingUpdate, saveBranding } from '#lib/store/branding.ts';
import {
  createOrganization,
  type LimitOverrides,
  NewOrganization,
  type Organization,
  PlanName,
  setOrganizationLimits,
  setOrganizationPlan,
} from '#lib/store/organizations.ts';
import { AdminError, type OptionValues, organizationIdOption, originsOption, UsageError } from './args.ts';
import { organizationMustExist, type Run, readJsonFile, uuidOption, validated } from './command.ts';

const planOption = (value: string | undefined): PlanName => {
  const result = v.safeParse(PlanName, value);
  if (!result.success) throw new UsageError(`--plan must be one of ${PlanName.options.join(', ')}`);
  return result.output;
};

// ---- output ----------------------------------------------------------------------------------
// What the commands print uses the API's field names (snake_case: created_at, prefix,
// organization_id…), so that a record reads the same from the admin command and the API.

/** `requestsPerMinute` → `requests_per_minute`. */
const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Limits (or overrides) with the API's names. */
const limitsOutput = (limits: object): Record<string, number> =>
  Object.fromEntries(Object.entries(limits).map(([name, value]) => [snakeCase(name), value as number]));

const organizationOutput = (organization: Organization) => ({
  id: organization.id,
  name: organization.name,
  plan: organization.plan,
  status: organization.status,
  created_at: organization.createdAt,
  ...(organization.limits ? { limits: limitsOutput(organization.limits) } : {}),
});

/** A key as GET /organization/api-keys shows it, with its organization and, once revoked, when. */
const keyOutput = (key: ApiKeyRecord) => ({
  ...publicApiKey(key),
  organization_id: key.organizationId,
  revoked_at: key.revokedAt ?? null,
});

// ---- org -----------------------------------------------------------------------------------

export const orgCreate: Run = async (values, connect) => {
  const input = validated(
    NewOrganization,
    { name: values.name, plan: planOption(values.plan ?? 'free') },
    '--name',
  );
  await connect();
  return organizationOutput(await createOrganization(input));
};

export const orgSetPlan: Run = async (values, connect) => {
  const id = organizationIdOption(values.org);
  const plan = planOption(values.plan);
  await connect();
  await organizationMustExist(id);
  return organizationOutput(await setOrganizationPlan(id, plan));
};

/** `org set-limits` options and the override each one sets. */
const limitOptions = {
  'per-minute': 'requestsPerMinute',
  'per-hour': 'requestsPerHour',
  concurrent: 'concurrentRequests',
  monthly: 'monthlyRequests',
  indexing: 'indexingOperations',
  'messages-per-minute': 'messagesPerMinute',
  'messages-per-hour': 'messagesPerHour',
} as const satisfies Partial<Record<keyof OptionValues, keyof LimitOverrides>>;

export const orgSetLimits: Run = async (values, connect) => {
  const id = organizationIdOption(values.org);
  const changes: Partial<Record<keyof LimitOverrides, number | 'default'>> = {};
  for (const [option, field] of Object.entries(limitOptions) as [
    keyof typeof limitOptions,
    keyof LimitOverrides,
  ][]) {
    const value = values[option];
    if (value === undefined) continue;
    if (value === 'default') changes[field] = 'default';
    else if (/^[1-9][0-9]{0,8}$/.test(value)) changes[field] = Number(value);
    else throw new UsageError(`--${option} must be a positive whole number (at most 999999999) or default`);
  }
  if (Object.keys(changes).length === 0) {
    throw new UsageError(
      `org set-limits needs at least one of ${Object.keys(limitOptions)
        .map((option) => `--${option}`)
        .join(', ')}`,
    );
  }
  await connect();
  const organization = await organizationMustExist(id);
  if (organization.plan !== 'enterprise') {
    throw new AdminError(
      `organization ${id} is on the ${organization.plan} plan: limit overrides apply to enterprise organizations only (org set-plan --org ${id} --plan enterprise first)`,
    );
  }
  const overrides: LimitOverrides = { ...organization.limits };
  for (const [field, value] of Object.entries(changes) as [keyof LimitOverrides, number | 'default'][]) {
    if (value === 'default') delete overrides[field];
    else overrides[field] = value;
  }
  const updated = await setOrganizationLimits(id, overrides);
  return {
    ...organizationOutput(updated),
    effective_limits: limitsOutput(effectiveLimits(updated.plan, updated.limits)),
  };
};

// ---- key -----------------------------------------------------------------------------------

export const keyCreate: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  const kind = values.kind;
  if (kind !== 'sk' && kind !== 'pk')
    throw new UsageError('--kind must be sk (organization key) or pk (database key)');
  if (kind === 'sk' && values.database !== undefined)
    throw new UsageError('an sk key belongs to the organization: leave out --database');
  if (kind === 'sk' && values.origins !== undefined)
    throw new UsageError('--origins applies to pk keys only');
  if (kind === 'pk' && values.database === undefined)
    throw new UsageError('a pk key needs --database <uuid> (a database of the organization)');
  if (kind === 'pk' && values.manage !== undefined)
    throw new UsageError('--manage applies to sk keys only (a pk key never changes the organization)');
  const databaseId = kind === 'pk' ? uuidOption('database', values.database) : undefined;
  const allowedOrigins = originsOption(values.origins);
  const body = validated(
    ApiKeyCreateBody,
    {
      kind,
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(databaseId ? { database_id: databaseId } : {}),
      ...(allowedOrigins.length ? { origins: allowedOrigins } : {}),
      ...(values.manage ? { manage: true } : {}),
    },
    'key',
  );

  await connect();
  await organizationMustExist(organizationId);
  // The control plane's operation (lib/manage/api-keys.ts), with the command's messages.
  const created = await createKey(organizationId, body).catch((error: unknown) => {
    if (isServiceError(error) && error.kind === 'DATABASE_NOT_FOUND')
      throw new AdminError(`database ${databaseId} not found in organization ${organizationId}`);
    throw error;
  });
  // The API's answer (POST /organization/api-keys), with the organization it belongs to.
  return { ...created, organization_id: organizationId };
};

export const keyRevoke: Run = async (values, connect) => {
  const id = uuidOption('id', values.id);
  await connect();
  return keyOutput(await revokeKey(id));
};

export const keyList: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  await connect();
  await organizationMustExist(organizationId);
  return { keys: (await listApiKeys(organizationId)).map(keyOutput) };
};

// ---- branding ------------------------------------------------------------------------------

export const brandingSet: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  const file = values.file ?? '';
  const branding = validated(BrandingUpdate, readJsonFile('file', file), `branding in ${file}`);
  await connect();
  await organizationMustExist(organizationId);
  return saveBranding(organizationId, branding);
};
