import { z } from 'zod';
import { idSchema } from './envelope.ts';

/**
 * The cockpit `/jsc` (issue 20 §4, docs/dashboards.md "The cockpit"): a 1920×1080 big screen of the tenant's
 * collection this period — progress, on-time rate, top forms, latest submissions, overdue units, key figures of
 * chosen forms, the district map and the weather. An admin chooses the panels and forms (cockpit:config); one
 * call answers every configured panel for the caller's data scope (cockpit:view), or for a signed link's
 * publisher when opened without a login.
 */

/** Panels an admin may show; the map and the weather are panels too. */
export const COCKPIT_PANELS = [
  'progress',
  'onTime',
  'topForms',
  'latest',
  'alerts',
  'figures',
  'map',
  'weather',
] as const;
export type CockpitPanel = (typeof COCKPIT_PANELS)[number];

/** `fit`: letterboxed at 16:9; `stretch`: fills the screen, the design scaled unevenly. */
export const COCKPIT_SCALE_MODES = ['fit', 'stretch'] as const;

/** Forms chosen for the cockpit, at most. */
export const COCKPIT_MAX_FORMS = 8;
/** Latest submissions listed, at most. */
export const COCKPIT_LATEST = 20;
/** Overdue units listed, at most. */
export const COCKPIT_ALERTS = 50;
/** The design's size in CSS pixels. */
export const COCKPIT_WIDTH = 1920;
export const COCKPIT_HEIGHT = 1080;
/** The header carrying a signed cockpit link's code on the login-free data call. */
export const COCKPIT_CODE_HEADER = 'x-cockpit-code';

/** `GET /api/cockpit/config` / `POST /api/cockpit/config` (cockpit:config). */
export const cockpitConfigSchema = z.object({
  panels: z
    .array(z.enum(COCKPIT_PANELS))
    .max(COCKPIT_PANELS.length)
    .refine((list) => new Set(list).size === list.length, 'each panel once'),
  /** Report forms whose figures the cockpit shows; empty: the first periodic forms the viewer may read. */
  formIds: z
    .array(idSchema)
    .max(COCKPIT_MAX_FORMS)
    .refine((list) => new Set(list).size === list.length, 'each form once'),
  scaleMode: z.enum(COCKPIT_SCALE_MODES),
  /** Seconds between refreshes of the screen. */
  refreshSeconds: z.number().int().min(30).max(3600),
});
export type CockpitConfig = z.infer<typeof cockpitConfigSchema>;

export const DEFAULT_COCKPIT_CONFIG: CockpitConfig = {
  panels: [...COCKPIT_PANELS],
  formIds: [],
  scaleMode: 'fit',
  refreshSeconds: 60,
};

const figureSchema = z.object({
  label: z.string(),
  value: z.number().nullable(),
  /** The same figure of the period before (null: no such period or no records). */
  last: z.number().nullable(),
});

const formFiguresSchema = z.object({
  tableId: z.number(),
  title: z.string(),
  periodName: z.string().nullable(),
  dueDate: z.string().nullable(),
  /** Counted (submitted or approved) records of the period. */
  records: z.number(),
  /** Units expected to file and those that have (the roll-up's units under the tenant's districts). */
  expectedUnits: z.number(),
  reportedUnits: z.number(),
  /** Counted records filed by the period's due date, of `records`. */
  onTime: z.number(),
  figures: z.array(figureSchema),
});
export type CockpitForm = z.infer<typeof formFiguresSchema>;

const weatherSchema = z.object({
  /** `off`: no provider configured; `failed`: the provider could not be reached or answered nonsense. */
  status: z.enum(['ok', 'off', 'failed']),
  city: z.string(),
  text: z.string().nullable(),
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  wind: z.string().nullable(),
  /** When the provider was asked (the answer is kept 30 minutes). */
  fetchedAt: z.string().nullable(),
});
export type CockpitWeather = z.infer<typeof weatherSchema>;

/** `GET /api/cockpit/data` (cockpit:view) and `GET /api/cockpit/dataByLink` (a signed link's code). */
export const cockpitDataSchema = z.object({
  config: cockpitConfigSchema,
  now: z.string(),
  /** The profile's map district (highlighted), empty at city level. */
  district: z.string(),
  city: z.string(),
  forms: z.array(formFiguresSchema),
  progress: z.object({ expected: z.number(), reported: z.number(), records: z.number() }).nullable(),
  onTime: z.object({ records: z.number(), onTime: z.number() }).nullable(),
  topForms: z.array(z.object({ tableId: z.number(), title: z.string(), records: z.number() })).nullable(),
  latest: z
    .array(
      z.object({
        tableId: z.number(),
        title: z.string(),
        orgName: z.string(),
        submitTime: z.string(),
      }),
    )
    .nullable(),
  alerts: z
    .array(
      z.object({
        tableId: z.number(),
        title: z.string(),
        periodName: z.string(),
        dueDate: z.string(),
        orgName: z.string(),
      }),
    )
    .nullable(),
  /** Counted records of the chosen forms this period per district (the map's areas, by name). */
  districts: z.array(z.object({ name: z.string(), records: z.number() })).nullable(),
  weather: weatherSchema.nullable(),
});
export type CockpitData = z.infer<typeof cockpitDataSchema>;

/** `POST /api/cockpit/link` (cockpit:config): a signed login-free link valid for `days`. */
export const cockpitLinkInputSchema = z.object({ days: z.number().int().min(1).max(366) });
export const cockpitLinkSchema = z.object({
  id: z.number(),
  /** `/jsc?link=…`, relative to the site. */
  url: z.string(),
  expireTime: z.string(),
  revoked: z.boolean(),
  createUserName: z.string().nullable(),
  createTime: z.string(),
});
export type CockpitLink = z.infer<typeof cockpitLinkSchema>;

/** `POST /api/cockpit/link/revoke` (cockpit:config). */
export const cockpitLinkRevokeSchema = z.object({ id: idSchema });
