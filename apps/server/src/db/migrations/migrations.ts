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
import { m0015TextSearch } from './0015-text-search.ts';
import { m0016Tasks } from './0016-tasks.ts';
import { m0017TaskUrge } from './0017-task-urge.ts';
import { m0018TaskLifecycle } from './0018-task-lifecycle.ts';
import { m0019TaskSchedules } from './0019-task-schedules.ts';
import { m0021NoLoginLinks } from './0021-no-login-links.ts';
import { m0022QueryReports } from './0022-query-reports.ts';
import { m0023TaskReview } from './0023-task-review.ts';
import { m0025Cockpit } from './0025-cockpit.ts';
import { m0026WordTemplates } from './0026-word-templates.ts';
import { m0027PublicStatementsScenes } from './0027-public-statements-scenes.ts';
import { m0028TaskUrgeRetry } from './0028-task-urge-retry.ts';

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
  m0015TextSearch,
  m0016Tasks,
  m0017TaskUrge,
  m0018TaskLifecycle,
  m0019TaskSchedules,
  m0021NoLoginLinks,
  m0022QueryReports,
  m0023TaskReview,
  m0025Cockpit,
  m0026WordTemplates,
  m0027PublicStatementsScenes,
  m0028TaskUrgeRetry,
];
