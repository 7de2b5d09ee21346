// Plans as data (spec "Limits" and "Plan gating", DESIGN.md "Credentials"). The rate limiter
// reads the same table.
import * as v from 'valibot';

export const PlanName = v.picklist(['free', 'starter', 'professional', 'business', 'enterprise']);
export type PlanName = v.InferOutput<typeof PlanName>;

export type Feature = 'api_access' | 'custom_api_access' | 'widget';

export interface Plan {
  name: PlanName;
  features: ReadonlySet<Feature>;
  requestsPerMinute: number;
  requestsPerHour: number;
  concurrentRequests: number;
}

const plan = (
  name: PlanName,
  features: Feature[],
  perMinute: number,
  perHour: number,
  concurrent: number,
): Plan => ({
  name,
  features: new Set(features),
  requestsPerMinute: perMinute,
  requestsPerHour: perHour,
  concurrentRequests: concurrent,
});

// Business sits between professional and enterprise; the spec gives it no figures, so it gets
// professional's limits. Enterprise figures are defaults an organization override replaces.
export const plans: Record<PlanName, Plan> = {
  free: plan('free', ['widget'], 10, 100, 2),
  starter: plan('starter', ['widget', 'api_access'], 100, 5_000, 10),
  professional: plan('professional', ['widget', 'api_access', 'custom_api_access'], 500, 25_000, 50),
  business: plan('business', ['widget', 'api_access', 'custom_api_access'], 500, 25_000, 50),
  enterprise: plan('enterprise', ['widget', 'api_access', 'custom_api_access'], 2_000, 100_000, 200),
};

export const hasFeature = (name: PlanName, feature: Feature): boolean => plans[name].features.has(feature);
