// The widget's colours from the organization's branding, for the page's light or dark scheme.
// Every pair of text and background is checked for contrast (color.ts) and falls back when the
// branding's pair fails, so no branding makes the widget unreadable.
import type { Branding } from './api.ts';
import { readableOn, UI_CONTRAST } from './color.ts';

export type Scheme = 'light' | 'dark';

const SURFACES: Record<Scheme, { surface: string; raised: string }> = {
  light: { surface: '#ffffff', raised: '#f1f5f9' },
  dark: { surface: '#111827', raised: '#1f2937' },
};

/** CSS custom properties for the shadow root's host. */
export const themeOf = (branding: Branding, scheme: Scheme): Record<string, string> => {
  const { colors, widget_theme: widget } = branding;
  const { surface, raised } = SURFACES[scheme];
  const primary = colors.primary;
  const header = widget.header_color || primary;
  return {
    '--tt-primary': primary,
    '--tt-on-primary': readableOn(primary, '#ffffff'),
    '--tt-header': header,
    '--tt-on-header': readableOn(header, '#ffffff'),
    '--tt-secondary': colors.secondary,
    '--tt-on-secondary': readableOn(colors.secondary, '#ffffff'),
    '--tt-surface': surface,
    '--tt-raised': raised,
    '--tt-text': readableOn(surface, colors.text_primary),
    '--tt-text-raised': readableOn(raised, colors.text_primary),
    '--tt-muted': readableOn(surface, colors.text_secondary),
    '--tt-muted-raised': readableOn(raised, colors.text_secondary),
    // The focus ring must stand out from the surface (3:1); the text colour is the fallback.
    '--tt-accent': readableOn(surface, colors.accent, UI_CONTRAST),
  };
};
