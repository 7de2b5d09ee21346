// Plans as data (spec "Limits" and "Plan gating", docs/design.md "Credentials" and "Limits"): each
// plan's features, its rate limits, its monthly API quota and its indexing quota. The limiter
// (lib/limits/limiter.ts), the indexing quota (lib/limits/indexing.ts) and authorisation
// (lib/auth/principal.ts) read this table and nothing else. docs/limits.md "Plans" shows it. The
// plans' names and an organization's own figures are declared with the organization's record
// (lib/store/organizations.ts).
import { settings } from '#lib/config.ts';
import type { LimitOverrides, PlanName } from '#lib/store/organizations.ts';

export type Feature = 'api_access' | 'custom_api_access' | 'widget';

/** What one organization may do; the limiter applies these figures. */
export interface Limits {
  requestsPerMinute: number;
  requestsPerHour: number;
  /** Answering requests in flight at once (the concurrency lease, lib/limits/limiter.ts). */
  concurrentRequests: number;
  /** Requests per calendar month (UTC), every endpoint. */
  monthlyRequests: number;
  /** Schema indexing operations per billing period (calendar month, UTC). */
  indexingOperations: number;
  /** The message endpoints' own limits (spec "Limits": 30 per minute, 200 per hour). */
  messagesPerMinute: number;
  messagesPerHour: number;
  /**
   * Messages per minute, hour and day (UTC) of one embed session's scope (its tenant and scope;
   * for tokens that name no scope, their database and tenant), counted inside the organization's message limits, so
   * that one visitor cannot spend them (docs/design.md "Embed sessions", docs/limits.md).
   */
  embedScopeMessagesPerMinute: number;
  embedScopeMessagesPerHour: number;
  embedScopeMessagesPerDay: number;
  /**
   * Messages per minute, hour and day of one pk_ key, counted inside the organization's message
   * limits: a pk_ key sits in a public page, so one visitor could otherwise spend the
   * organization's 30 a minute and 200 an hour.
   */
  databaseKeyMessagesPerMinute: number;
  databaseKeyMessagesPerHour: number;
  databaseKeyMessagesPerDay: number;
}

export interface Plan extends Limits {
  name: PlanName;
  features: ReadonlySet<Feature>;
}

/** Spec "Limits", message endpoint: per organization, on every plan (enterprise may override). */
export const MESSAGE_LIMITS = { messagesPerMinute: 30, messagesPerHour: 200 } as const;

/**
 * A visitor's own message windows, unless a plan gives others: an embed session's scope (one
 * person) and a pk_ key (every visitor of one public page). Each hour is well under the
 * organization's 200 (15 % and 30 %), so neither one browser nor the page's public key can spend
 * the organization's messages; a day holds a few hours' worth.
 */
export const VISITOR_MESSAGE_LIMITS = {
  embedScopeMessagesPerMinute: 10,
  embedScopeMessagesPerHour: 30,
  embedScopeMessagesPerDay: 100,
  databaseKeyMessagesPerMinute: 20,
  databaseKeyMessagesPerHour: 60,
  databaseKeyMessagesPerDay: 300,
} as const;
type VisitorLimit = keyof typeof VISITOR_MESSAGE_LIMITS;

const plan = (
  name: PlanName,
  features: Feature[],
  figures: Omit<Limits, keyof typeof MESSAGE_LIMITS | VisitorLimit> & Partial<Pick<Limits, VisitorLimit>>,
): Plan => ({
  name,
  features: new Set(features),
  ...VISITOR_MESSAGE_LIMITS,
  ...figures,
  ...MESSAGE_LIMITS,
});

const everything: Feature[] = ['widget', 'api_access', 'custom_api_access'];

// Free, starter and professional rate limits are the spec's table. The spec gives business no
// figures: it sits between professional and enterprise. Enterprise is "custom": its figures
// here are defaults that the organization's own overrides replace (`admin org set-limits`).
// Monthly and indexing quotas are this service's defaults (the spec leaves their size open).
export const plans: Record<PlanName, Plan> = {
  free: plan('free', ['widget'], {
    requestsPerMinute: 10,
    requestsPerHour: 100,
    concurrentRequests: 2,
    monthlyRequests: 1_000,
    indexingOperations: 10,
  }),
  starter: plan('starter', ['widget', 'api_access'], {
    requestsPerMinute: 100,
    requestsPerHour: 5_000,
    concurrentRequests: 10,
    monthlyRequests: 100_000,
    indexingOperations: 50,
  }),
  professional: plan('professional', everything, {
    requestsPerMinute: 500,
    requestsPerHour: 25_000,
    concurrentRequests: 50,
    monthlyRequests: 500_000,
    indexingOperations: 200,
  }),
  business: plan('business', everything, {
    requestsPerMinute: 1_000,
    requestsPerHour: 50_000,
    concurrentRequests: 100,
    monthlyRequests: 2_000_000,
    indexingOperations: 500,
  }),
  enterprise: plan('enterprise', everything, {
    requestsPerMinute: 2_000,
    requestsPerHour: 100_000,
    concurrentRequests: 200,
    monthlyRequests: 10_000_000,
    indexingOperations: 2_000,
  }),
};

export const hasFeature = (name: PlanName, feature: Feature): boolean => plans[name].features.has(feature);

/**
 * A visitor's hourly window is at most half the organization's messages per hour, whatever the
 * overrides say: an enterprise organization that lowers its own hour below a visitor's keeps
 * its guarantee that one visitor cannot spend it.
 */
const withinOrganization = (limits: Limits): Limits => {
  const half = Math.max(1, Math.floor(limits.messagesPerHour / 2));
  return {
    ...limits,
    embedScopeMessagesPerHour: Math.min(limits.embedScopeMessagesPerHour, half),
    databaseKeyMessagesPerHour: Math.min(limits.databaseKeyMessagesPerHour, half),
  };
};

/** The limits that apply to an organization on `name` with these overrides. */
export const effectiveLimits = (name: PlanName, overrides?: LimitOverrides): Limits => {
  const { features: _features, name: _name, ...limits } = plans[name];
  // MONTHLY_QUOTAS (lib/config.ts) replaces a plan's monthly quota per stage.
  limits.monthlyRequests = settings().monthlyQuotas[name] ?? limits.monthlyRequests;
  if (name !== 'enterprise' || !overrides) return withinOrganization(limits);
  const own: Partial<Limits> = {};
  for (const [key, value] of Object.entries(overrides) as [keyof LimitOverrides, number | undefined][]) {
    if (value !== undefined) own[key] = value;
  }
  return withinOrganization({ ...limits, ...own });
};
