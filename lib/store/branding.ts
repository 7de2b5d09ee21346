// An organization's branding (spec "Branding object"), stored as set and served over defaults.
// Item: PK ORG#<org>, SK BRANDING.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { settings } from '#lib/config.ts';
import { documents, tableName } from './client.ts';

const brandingKey = (organizationId: number) => ({ PK: `ORG#${organizationId}`, SK: 'BRANDING' });

const hexColor = v.pipe(
  v.string(),
  v.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex color like #1a2b3c'),
);
const httpUrl = v.pipe(v.string(), v.url('must be a URL'), v.regex(/^https?:\/\//, 'must be an http(s) URL'));

/** What `admin branding set --file` accepts: any subset of the Branding object. */
export const BrandingUpdate = v.strictObject({
  colors: v.optional(
    v.strictObject({
      primary: v.optional(hexColor),
      secondary: v.optional(hexColor),
      accent: v.optional(hexColor),
      text_primary: v.optional(hexColor),
      text_secondary: v.optional(hexColor),
    }),
  ),
  logo_url: v.optional(httpUrl),
  logo_dark_url: v.optional(httpUrl),
  widget_theme: v.optional(
    v.strictObject({
      position: v.optional(v.picklist(['bottom-right', 'bottom-left', 'top-right', 'top-left'])),
      greeting_message: v.optional(v.pipe(v.string(), v.maxLength(500))),
      placeholder_text: v.optional(v.pipe(v.string(), v.maxLength(200))),
      header_color: v.optional(hexColor),
    }),
  ),
  hide_dialektai_branding: v.optional(v.boolean()),
});
export type BrandingUpdate = v.InferOutput<typeof BrandingUpdate>;

/** PUT /api/v1/branding (the control plane): the GET shape, any subset of it. */
export const BrandingPutInput = v.object({ body: BrandingUpdate });

export const defaultBranding = () => {
  const { assetsUrl } = settings();
  return {
    colors: {
      primary: '#2563eb',
      secondary: '#1e293b',
      accent: '#f59e0b',
      text_primary: '#0f172a',
      text_secondary: '#475569',
    },
    logo_url: `${assetsUrl}/logo.svg`,
    logo_dark_url: `${assetsUrl}/logo-dark.svg`,
    widget_theme: {
      position: 'bottom-right',
      greeting_message: 'Hi! Ask me anything about your data.',
      placeholder_text: 'Ask a question…',
      header_color: '#2563eb',
    },
    hide_dialektai_branding: false,
  };
};
export type Branding = ReturnType<typeof defaultBranding>;

/** `base` with every value of `override` that is set (undefined leaves the base value). */
const overlay = <T extends Record<string, unknown>>(
  base: T,
  override: { [K in keyof T]?: T[K] | undefined } = {},
): T => {
  const merged = { ...base };
  for (const key of Object.keys(override) as (keyof T)[]) {
    const value = override[key];
    if (value !== undefined) merged[key] = value;
  }
  return merged;
};

export const brandingOver = (stored: BrandingUpdate | undefined): Branding => {
  const base = defaultBranding();
  if (!stored) return base;
  return {
    colors: overlay(base.colors, stored.colors),
    logo_url: stored.logo_url ?? base.logo_url,
    logo_dark_url: stored.logo_dark_url ?? base.logo_dark_url,
    widget_theme: overlay(base.widget_theme, stored.widget_theme),
    hide_dialektai_branding: stored.hide_dialektai_branding ?? base.hide_dialektai_branding,
  };
};

export const readBranding = async (organizationId: number): Promise<Branding> => {
  const { Item } = await documents().send(
    new GetCommand({ TableName: tableName(), Key: brandingKey(organizationId) }),
  );
  return brandingOver(Item ? v.parse(BrandingUpdate, Item.branding) : undefined);
};

/** Replaces the organization's stored branding; fields not given fall back to the defaults. */
export const saveBranding = async (
  organizationId: number,
  update: unknown,
  now = new Date(),
): Promise<Branding> => {
  const branding = v.parse(BrandingUpdate, update);
  await documents().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...brandingKey(organizationId), type: 'branding', branding, updatedAt: now.toISOString() },
    }),
  );
  return brandingOver(branding);
};
