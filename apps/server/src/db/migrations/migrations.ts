import type { Migration } from '../../platform/db/migrator.ts';
import { m0001Platform } from './0001-platform.ts';
import { m0002ConfigDictAdmin } from './0002-config-dict-admin.ts';
import { m0003Logs } from './0003-logs.ts';
import { m0004LogPages } from './0004-log-pages.ts';
import { m0005CacheServerPages } from './0005-cache-server-pages.ts';
import { m0006Regions } from './0006-regions.ts';
import { m0007Identity } from './0007-identity.ts';
import { m0008NoticeFileJob } from './0008-notice-file-job.ts';
import { m0009DiyForms } from './0009-diy-forms.ts';
import { m0010DiyPages } from './0010-diy-pages.ts';
import { m0011DiyCollectConfirm } from './0011-diy-collect-confirm.ts';
import { m0012DiyPeriodsRollupsImport } from './0012-diy-periods-rollups-import.ts';
import { m0013PlatformWidePages } from './0013-platform-wide-pages.ts';
import { m0014ServiceSessions } from './0014-service-sessions.ts';

/** Every migration in order, imported statically so that the bundled server carries them. */
export const MIGRATIONS: readonly Migration[] = [
  m0001Platform,
  m0002ConfigDictAdmin,
  m0003Logs,
  m0004LogPages,
  m0005CacheServerPages,
  m0006Regions,
  m0007Identity,
  m0008NoticeFileJob,
  m0009DiyForms,
  m0010DiyPages,
  m0011DiyCollectConfirm,
  m0012DiyPeriodsRollupsImport,
  m0013PlatformWidePages,
  m0014ServiceSessions,
];
