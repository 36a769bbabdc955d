import { z } from 'zod';
import { publicProfileSchema } from './profiles.ts';

/** `GET /api/sysProfile/current`: the selected regional profile plus the system-info config. */
export const currentProfileSchema = publicProfileSchema.extend({
  webTitle: z.string(),
  webLogo: z.string(),
  webCopyright: z.string(),
  webIcp: z.string(),
  /** The product's time zone: the browser shows and computes every time in it, not in its own. */
  timeZone: z.string(),
});
export type CurrentProfile = z.infer<typeof currentProfileSchema>;

export const FAVICON_PATH = '/api/sysProfile/favicon.svg';
