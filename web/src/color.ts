// Colour contrast (WCAG 2.x relative luminance): every text/background pair the widget draws from
// the organization's branding is checked, and a pair below the threshold falls back to a
// readable one, so any branding stays legible.

export type Rgb = readonly [number, number, number];

/** `#abc` or `#aabbcc`; undefined for anything else. */
export const parseHex = (value: string | undefined): Rgb | undefined => {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value?.trim() ?? '');
  if (!match?.[1]) return undefined;
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb;
};

const channel = (value: number): number => {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

export const luminance = ([r, g, b]: Rgb): number =>
  0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);

/** The contrast ratio of two colours, 1 to 21. */
export const contrast = (a: Rgb, b: Rgb): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** Normal text (WCAG AA). */
export const TEXT_CONTRAST = 4.5;
/** Focus rings, borders and large text (WCAG AA, non-text). */
export const UI_CONTRAST = 3;

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [17, 24, 39];

export const toHex = (rgb: Rgb): string => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/**
 * `preferred` when it contrasts with `background` by at least `minimum`, otherwise whichever of
 * near-black and white contrasts more (one of them always reaches 4.5 on any background).
 */
export const readableOn = (
  background: string,
  preferred: string | undefined,
  minimum = TEXT_CONTRAST,
): string => {
  const bg = parseHex(background) ?? WHITE;
  const wanted = parseHex(preferred);
  if (wanted && contrast(wanted, bg) >= minimum) return toHex(wanted);
  return contrast(WHITE, bg) >= contrast(BLACK, bg) ? toHex(WHITE) : toHex(BLACK);
};

/**
 * A background for `foreground` text: `preferred` when the pair reaches `minimum`, otherwise
 * `fallback` (a colour known to pass, e.g. the theme's text colour's opposite).
 */
export const backgroundFor = (
  preferred: string | undefined,
  foreground: string,
  fallback: string,
): string => {
  const bg = parseHex(preferred);
  const fg = parseHex(foreground);
  return bg && fg && contrast(bg, fg) >= TEXT_CONTRAST ? toHex(bg) : fallback;
};
