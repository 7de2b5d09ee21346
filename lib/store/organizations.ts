// Organizations: integer ids from an atomic counter, a plan, a name, and for enterprise
// organizations their own limits (what each plan allows: lib/limits/plans.ts).
// Item: PK ORG#<id>, SK ORG. Counter: PK COUNTER#ORG, SK COUNTER.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { ServiceError } from '#lib/errors.ts';
import { documents, isConditionFailure, tableName } from './client.ts';

/** The plans (their features and limits: lib/limits/plans.ts). */
export const PlanName = v.picklist(['free', 'starter', 'professional', 'business', 'enterprise']);
export type PlanName = v.InferOutput<typeof PlanName>;

const positive = (what: string) =>
  v.pipe(
    v.number(),
    v.integer(`${what} must be a whole number`),
    v.minValue(1, `${what} must be at least 1`),
    v.maxValue(1_000_000_000, `${what} must be at most 1000000000`),
  );

/**
 * An organization's own figures, stored on its record (`limits`) by `admin org set-limits`.
 * They apply to enterprise organizations only: an organization moved to another plan keeps
 * them stored but gets that plan's figures until it is enterprise again.
 */
export const LimitOverrides = v.strictObject({
  requestsPerMinute: v.optional(positive('requestsPerMinute')),
  requestsPerHour: v.optional(positive('requestsPerHour')),
  concurrentRequests: v.optional(positive('concurrentRequests')),
  monthlyRequests: v.optional(positive('monthlyRequests')),
  indexingOperations: v.optional(positive('indexingOperations')),
  messagesPerMinute: v.optional(positive('messagesPerMinute')),
  messagesPerHour: v.optional(positive('messagesPerHour')),
  embedScopeMessagesPerMinute: v.optional(positive('embedScopeMessagesPerMinute')),
  embedScopeMessagesPerHour: v.optional(positive('embedScopeMessagesPerHour')),
  embedScopeMessagesPerDay: v.optional(positive('embedScopeMessagesPerDay')),
  databaseKeyMessagesPerMinute: v.optional(positive('databaseKeyMessagesPerMinute')),
  databaseKeyMessagesPerHour: v.optional(positive('databaseKeyMessagesPerHour')),
  databaseKeyMessagesPerDay: v.optional(positive('databaseKeyMessagesPerDay')),
});
export type LimitOverrides = v.InferOutput<typeof LimitOverrides>;

export const organizationKey = (id: number) => ({ PK: `ORG#${id}`, SK: 'ORG' });
const counterKey = { PK: 'COUNTER#ORG', SK: 'COUNTER' };

export const Organization = v.object({
  id: v.pipe(v.number(), v.integer()),
  name: v.string(),
  plan: PlanName,
  status: v.picklist(['active', 'suspended']),
  createdAt: v.string(),
  /** Set by `admin org set-limits`; applied while the plan is enterprise. */
  limits: v.optional(LimitOverrides),
});
export type Organization = v.InferOutput<typeof Organization>;

export const NewOrganization = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'name must not be empty'), v.maxLength(200)),
  plan: v.optional(PlanName, 'free'),
});
export type NewOrganization = v.InferInput<typeof NewOrganization>;

const toOrganization = (item: Record<string, unknown>): Organization => v.parse(Organization, item);

export const createOrganization = async (input: NewOrganization, now = new Date()): Promise<Organization> => {
  const { name, plan } = v.parse(NewOrganization, input);
  const counter = await documents().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: counterKey,
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const id = Number(counter.Attributes?.value);
  const organization: Organization = { id, name, plan, status: 'active', createdAt: now.toISOString() };
  await documents().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...organizationKey(id), type: 'organization', ...organization },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return organization;
};

export const findOrganization = async (id: number): Promise<Organization | undefined> => {
  const { Item } = await documents().send(
    new GetCommand({ TableName: tableName(), Key: organizationKey(id) }),
  );
  return Item ? toOrganization(Item) : undefined;
};

export const setOrganizationPlan = async (id: number, plan: PlanName): Promise<Organization> => {
  try {
    const { Attributes } = await documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: organizationKey(id),
        UpdateExpression: 'SET #plan = :plan',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: { ':plan': plan },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toOrganization(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error))
      throw new ServiceError('NOT_FOUND', { message: `Organization ${id} not found` });
    throw error;
  }
};

/** Replaces the organization's limit overrides; an empty set removes them. */
export const setOrganizationLimits = async (id: number, limits: LimitOverrides): Promise<Organization> => {
  const overrides = v.parse(LimitOverrides, limits);
  const empty = Object.keys(overrides).length === 0;
  try {
    const { Attributes } = await documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: organizationKey(id),
        UpdateExpression: empty ? 'REMOVE #limits' : 'SET #limits = :limits',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#limits': 'limits' },
        ...(empty ? {} : { ExpressionAttributeValues: { ':limits': overrides } }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toOrganization(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error))
      throw new ServiceError('NOT_FOUND', { message: `Organization ${id} not found` });
    throw error;
  }
};
