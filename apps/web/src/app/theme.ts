import {
  Badge,
  createTheme,
  DEFAULT_THEME,
  Drawer,
  type MantineColorsTuple,
  type MantineThemeColors,
  Modal,
  Notification,
  rem,
} from '@mantine/core';

/*
 * Contrast (WCAG 2.1 AA, 4.5:1 for text; docs/decisions/020-accessibility-phones-footer.md). Mantine's default
 * palettes are light: the shades it uses for text and for white text on a fill fail on white (gray 6, the
 * `dimmed` text, is 3.3:1; red 6, the error text, 3.3:1; red 7 3.8:1; teal 9 on teal 1, a light badge,
 * 4.3:1; green, lime, yellow and orange fail even at shade 9). So the theme fixes the palettes, not the
 * components: shades 6 to 9 of every palette are darkened, each just as far as needed, until they read at
 * 4.5:1 or more on every light surface the app puts text on: white, gray 0 of the page, the primary shade 1
 * of a selected row or the current menu item, the palette's own shade 0, and for shade 9 also shades 1 and
 * 2, the background of its light variant and its hover. Shades 0 to 5 (backgrounds, borders) stay as they
 * are. Every place that takes text from a palette then passes: `c="dimmed"` (gray 6), errors (red 6),
 * `c="red"` and fills under white text (shade 7, the primary shade), light variants (shade 9 on shade 1),
 * outline variants (shade 7), explicit shades such as `c="red.8"`.
 */
const MIN_CONTRAST = 4.6; // 4.5 and a little margin for rounding in the browser's blending

function channels(hex: string): [number, number, number] {
  const value = hex.replace('#', '');
  return [0, 2, 4].map((at) => Number.parseInt(value.slice(at, at + 2), 16)) as [number, number, number];
}

function toHex(rgb: [number, number, number]): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The colour, darkened (towards black, keeping its hue) until it reads on every one of the surfaces. */
function readableOn(color: string, surfaces: string[]): string {
  const rgb = channels(color);
  for (let factor = 1; factor > 0; factor -= 0.01) {
    const candidate = toHex(rgb.map((c) => c * factor) as [number, number, number]);
    if (surfaces.every((surface) => contrast(candidate, surface) >= MIN_CONTRAST)) return candidate;
  }
  return '#000000';
}

/**
 * Where the app puts text: white (cards, tables, dialogs), gray 0 (the page) and the primary colour's
 * shade 1 (a selected table row, the current menu item).
 */
const PAGE_SURFACES = ['#ffffff', DEFAULT_THEME.colors.gray[0], DEFAULT_THEME.colors.indigo[1]];

/** The colour, darkened until its luminance is at most `share` of the given colour's. */
function darkerThan(color: string, share: number): string {
  const rgb = channels(color);
  const target = luminance(color) * share;
  for (let factor = 1; factor > 0; factor -= 0.01) {
    const candidate = toHex(rgb.map((c) => c * factor) as [number, number, number]);
    if (luminance(candidate) <= target) return candidate;
  }
  return '#000000';
}

/**
 * A palette whose text shades (6 to 9) read at 4.5:1 on the page's surfaces and the palette's shade 0;
 * shade 9, the text of the light variant, also on shades 1 and 2, that variant's background and its hover. Each of these shades stays a
 * step darker than the one before it (shade 8 is the hover of a fill of shade 7).
 */
function readablePalette(palette: MantineColorsTuple): MantineColorsTuple {
  const shades: string[] = [...palette];
  for (let shade = 6; shade <= 9; shade += 1) {
    const surfaces = [...PAGE_SURFACES, palette[0], ...(shade === 9 ? [palette[1], palette[2]] : [])];
    const readable = readableOn(palette[shade] as string, surfaces);
    const previous = shades[shade - 1] as string;
    shades[shade] =
      shade > 6 && luminance(readable) > luminance(previous) * 0.9 ? darkerThan(previous, 0.9) : readable;
  }
  return shades as unknown as MantineColorsTuple;
}

const READABLE_COLORS = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors)
    .filter(([name]) => name !== 'dark')
    .map(([name, palette]) => [name, readablePalette(palette)]),
) as Partial<MantineThemeColors>;

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7 },
  colors: READABLE_COLORS,
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  focusRing: 'auto',
  cursorType: 'pointer',
  components: {
    Card: { defaultProps: { withBorder: true, radius: 'md', padding: 'lg' } },
    // Badges are labels people read (roles, statuses, "Invitation pending"): Mantine's default size writes them
    // at 11 px, too small on a phone (issue 33). 12 px from the default size up; the smaller sizes stay for
    // counts and tags chosen small on purpose.
    Badge: Badge.extend({
      vars: (_theme, props) =>
        props.size === undefined || props.size === 'md' ? { root: { '--badge-fz': rem(12) } } : { root: {} },
    }),
    Paper: { defaultProps: { radius: 'md' } },
    Tooltip: { defaultProps: { withArrow: true } },
    // Mantine puts an empty role="presentation" element first in a menu to take the focus on opening; a
    // menu may only hold menu items (axe: aria-required-children). The first item takes the focus instead.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Every dialog's × is a button named "Close" (Mantine renders it without a name).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // A notification's × too (axe: button-name), e.g. the one after revoking an integration key.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
    }),
    // A dialog's header is a <header> inside role="dialog", which assistive technology takes for a second
    // banner landmark next to the page's: a plain <div> (the dialog is named by its title already).
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
  },
});
