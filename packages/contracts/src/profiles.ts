import { z } from 'zod';
import defaults from './profiles.data.json' with { type: 'json' };
import { isTimeZone } from './time-zone.ts';

/** Package types a deployment may select (SPEC §1, §9). */
export const PACKAGE_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 21] as const;

const localizedSchema = z.object({
  'zh-CN': z.string().min(1),
  en: z.string().min(1),
  'zh-TW': z.string().min(1),
});

const regionalProfileSchema = z.object({
  packageType: z.number().int(),
  /** GB/T 2260 code of the district or city. */
  areaCode: z.string().regex(/^\d{6}$/),
  areaName: localizedSchema,
  unitName: localizedSchema,
  systemName: localizedSchema,
  /** One or two characters drawn into the generated favicon. */
  shortName: z.string().min(1).max(4),
  faviconColor: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  /** Optional favicon URL; when absent the server draws one from shortName and faviconColor. */
  favicon: z.string().optional(),
  mapCity: z.string(),
  mapDistrict: z.string(),
  weatherCity: z.string(),
  organizer: localizedSchema.optional(),
  phone: z.string().optional(),
  /** The product's time zone for this profile (IANA name); the TIME_ZONE setting wins over it. */
  timeZone: z.string().refine(isTimeZone, 'not a time zone such as Asia/Shanghai').optional(),
});
export type RegionalProfile = z.infer<typeof regionalProfileSchema>;

export const profileListSchema = z.array(regionalProfileSchema).superRefine((list, ctx) => {
  const seen = new Set<number>();
  for (const [index, profile] of list.entries()) {
    if (seen.has(profile.packageType)) {
      ctx.addIssue({ code: 'custom', path: [index, 'packageType'], message: 'duplicate packageType' });
    }
    seen.add(profile.packageType);
  }
});

export const DEFAULT_PROFILES: RegionalProfile[] = profileListSchema.parse(defaults);

/** What the public profile endpoint returns: the profile with its favicon URL resolved. */
export const publicProfileSchema = regionalProfileSchema.extend({ favicon: z.string() });
