import { type ThemeConfig, theme } from 'antd';
import { readableShade } from './contrast.ts';

/** antd's light greys for secondary text (45 % black, #8c8c8c on white) read at 3.4:1; these read at 4.5:1 or more. */
const LIGHT_GREYS = {
  // Descriptions' labels, statistic titles, breadcrumbs, secondary Typography, table sorters, footers:
  // 60 % black is #666 on white (5.7:1) and on the #f5f5f5 of the layout (5.6:1).
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextDescription: 'rgba(0, 0, 0, 0.6)',
  // Placeholders stay a step lighter than a value: 56 % black is #707070 on white (4.9:1).
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
};

type StatusName = 'Success' | 'Info' | 'Warning' | 'Error';
type DesignToken = ReturnType<typeof theme.getDesignToken>;

/** Each status colour's shade that reads as text on white and on the status's own tint. */
function statusShades(token: DesignToken): Record<StatusName, string> {
  const shade = (name: StatusName) =>
    readableShade(token[`color${name}`], ['#ffffff', token[`color${name}Bg`]]);
  return { Success: shade('Success'), Info: shade('Info'), Warning: shade('Warning'), Error: shade('Error') };
}

/** antd's preset colours (its PresetColors); a tag of one writes shade 7 on shade 1. */
const PRESET_COLOURS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'lime',
  'gold',
] as const;

function presetTextShades(token: DesignToken): Partial<DesignToken> {
  return Object.fromEntries(
    PRESET_COLOURS.map((colour) => [
      `${colour}7`,
      readableShade(token[`${colour}7`], ['#ffffff', token[`${colour}1`]]),
    ]),
  );
}

/**
 * Theme tokens that keep text readable (WCAG 2.1 AA, 4.5:1 for text of normal size) whatever primary colour is
 * picked. The primary colour itself stays what it is for what is not text (ink bars, borders, focus rings,
 * checkboxes, switches, icons, tinted backgrounds); text drawn in it (links, the selected menu item and tab,
 * the active page number) takes the darkest needed shade of its hue, and so do the fills behind white labels
 * (primary buttons): white on #0184FE reads at 3.66:1 only. docs/accessibility.md tells why.
 */
export function accessibleTheme(primary: string, dark: boolean): Pick<ThemeConfig, 'token' | 'components'> {
  const fill = readableShade(primary, ['#ffffff']);
  const fillHover = readableShade(primary, ['#ffffff'], 5.5);
  const fillActive = readableShade(primary, ['#ffffff'], 6.5);
  const button = { colorPrimary: fill, colorPrimaryHover: fillHover, colorPrimaryActive: fillActive };
  // A switch that is on writes its label (启用) in white on the primary colour, as a primary button does.
  const onSwitch = { colorPrimary: fill, colorPrimaryHover: fillHover };
  // On dark backgrounds antd's own text colours hold; only the white labels on primary fills need help there.
  if (dark) return { token: {}, components: { Button: button, Switch: onSwitch } };

  const light = theme.getDesignToken({ token: { colorPrimary: primary } });
  const tint = light.colorPrimaryBg;
  const status = statusShades(light);
  const text = readableShade(primary, ['#ffffff', '#f5f5f5', tint]);
  const textHover = readableShade(primary, ['#ffffff', '#f5f5f5', tint], 5.5);
  const textActive = readableShade(primary, ['#ffffff', '#f5f5f5', tint], 6.5);
  return {
    token: {
      ...LIGHT_GREYS,
      colorPrimaryText: text,
      colorPrimaryTextHover: textHover,
      colorPrimaryTextActive: textActive,
      colorLink: text,
      colorLinkHover: textHover,
      colorLinkActive: textActive,
      colorSuccessText: status.Success,
      colorInfoText: status.Info,
      colorWarningText: status.Warning,
      colorErrorText: status.Error,
    },
    components: {
      // Danger buttons and links: red text on white, white on a red fill.
      Button: {
        ...button,
        colorError: status.Error,
        colorErrorHover: readableShade(light.colorError, ['#ffffff'], 5.5),
        colorErrorActive: readableShade(light.colorError, ['#ffffff'], 6.5),
      },
      Switch: onSwitch,
      // Tags draw their text in a colour on its tint: the status ones (success, processing, warning, error)
      // in the status colour, the preset ones (green, orange, gold…) in shade 7 of their palette.
      Tag: {
        ...presetTextShades(light),
        colorSuccess: status.Success,
        colorInfo: status.Info,
        colorWarning: status.Warning,
        colorError: status.Error,
      },
      Menu: {
        itemSelectedColor: text,
        horizontalItemSelectedColor: text,
        horizontalItemHoverColor: text,
        subMenuItemSelectedColor: text,
      },
      Tabs: { itemSelectedColor: text, itemHoverColor: textHover, itemActiveColor: textActive },
      Pagination: { itemActiveColor: text, itemActiveColorHover: textHover },
    },
  };
}
