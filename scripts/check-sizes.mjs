// `npm run check`: no source file over 500 lines and no function over 150 lines, unless it is listed below
// with the reason it stays whole (docs/architecture.md, "Units small enough to change"). Data (seed rows,
// locale strings, the schema, migrations) is measured too: a listed reason says why it may be long.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 150;

/** Files allowed over the file limit, each with its reason. */
const LONG_FILES = {
  'apps/server/src/db/seeds/data/menus.ts': 'data: the seeded menu tree, one row per menu',
  'apps/server/src/db/seeds/data/forms.ts': 'data: the seeded report forms and their fields',
  'apps/server/src/db/schema.ts': 'the database schema as Kysely types, one interface per table',
  'apps/server/src/modules/job/job.dashboard.ts':
    "one page: its inline script and style stay together for the page's content security policy",
  'apps/web/src/platform/i18n/locales/zh-cn.ts': 'data: the shell strings of one language',
  'apps/web/src/platform/i18n/locales/en.ts': 'data: the shell strings of one language',
  'apps/web/src/platform/i18n/locales/zh-tw.ts': 'data: the shell strings of one language',
  'apps/web/src/features/diy-designer/diy-designer.locale.ts':
    'data: the designer strings of three languages',
  'packages/contracts/src/diy-validate.ts': 'the record validation rules, shared by server and browser',
  'packages/contracts/src/diy-table.ts': 'the report-form contracts: one schema per call of the SPEC',
};

/** Functions allowed over the function limit ("file:name"), each with its reason. */
const LONG_FUNCTIONS = {
  'apps/server/src/db/migrations/0001-platform.ts:up':
    'a migration is a fixed list of table changes, never edited once released',
  'apps/server/src/db/migrations/0008-notice-file-job.ts:up':
    'a migration is a fixed list of table changes, never edited once released',
};

/**
 * Components not yet split into hooks and parts (docs/decisions.md), at the length they have: a ratchet. One
 * may shrink, never grow; once under the limit it leaves this list.
 */
const SPLIT_PENDING = {
  'apps/web/src/app/layout/settings-drawer.tsx:SettingsDrawer': 156,
  'apps/web/src/components/diy-form/field-input.tsx:FieldInput': 256,
  'apps/web/src/components/diy-form/file-field.tsx:FileField': 181,
  'apps/web/src/components/diy-form/form-renderer.tsx:FormRenderer': 265,
  'apps/web/src/components/diy-form/sub-table.tsx:SubTable': 191,
  'apps/web/src/components/diy-import/use-import-job.ts:useImportJob': 157,
  'apps/web/src/components/diy-record/confirm-link-modal.tsx:ConfirmLinkModal': 167,
  'apps/web/src/components/diy-record/record-view-drawer.tsx:RecordViewDrawer': 155,
  'apps/web/src/components/diy-rollup/rollup-config-modal.tsx:RollupConfigModal': 276,
  'apps/web/src/features/auth/login.page.tsx:LoginPage': 308,
  'apps/web/src/features/cache/cache.page.tsx:CachePage': 168,
  'apps/web/src/features/config/config.page.tsx:ConfigPage': 163,
  'apps/web/src/features/dict/dict.page.tsx:DictPage': 217,
  'apps/web/src/features/diy-classify/diy-classify.page.tsx:ClassifyPage': 377,
  'apps/web/src/features/diy-confirm/row-confirm.page.tsx:RowConfirmPage': 200,
  'apps/web/src/features/diy-period/diy-period.page.tsx:DiyPeriodPage': 348,
  'apps/web/src/features/diy-period/period-dialogs.tsx:PeriodActionDialog': 162,
  'apps/web/src/features/diy-recycle/diy-recycle.page.tsx:DiyRecyclePage': 332,
  'apps/web/src/features/diy-report/diy-report.page.tsx:DiyReportPage': 234,
  'apps/web/src/features/diy-report/form-table/fill-drawer.tsx:FillBody': 288,
  'apps/web/src/features/diy-report/form-table/record-list.tsx:RecordList': 160,
  'apps/web/src/features/diy-table/diy-table.page.tsx:DiyTablePage': 261,
  'apps/web/src/features/diy-table/form-settings-drawer.tsx:FormSettingsDrawer': 346,
  'apps/web/src/features/enterprise/detail.page.tsx:EnterpriseDetailPage': 152,
  'apps/web/src/features/enterprise/enterprise-home.page.tsx:EnterpriseHomePage': 247,
  'apps/web/src/features/enterprise/report-list.page.tsx:ReportListPage': 230,
  'apps/web/src/features/enterprise/search.page.tsx:EnterpriseSearchPage': 157,
  'apps/web/src/features/file/file.page.tsx:FilePage': 198,
  'apps/web/src/features/home/dashboard.page.tsx:DashboardPage': 190,
  'apps/web/src/features/job/job-form-drawer.tsx:JobFormDrawer': 332,
  'apps/web/src/features/job/job-records.tsx:JobRecords': 173,
  'apps/web/src/features/job/job-table.tsx:JobTable': 340,
  'apps/web/src/features/job/job-triggers.tsx:JobTriggers': 198,
  'apps/web/src/features/job/trigger-fields.tsx:TriggerFields': 179,
  'apps/web/src/features/menu/menu-form.tsx:MenuFormModal': 242,
  'apps/web/src/features/menu/menu.page.tsx:MenuPage': 352,
  'apps/web/src/features/notice/notice-bell.tsx:NoticeBell': 173,
  'apps/web/src/features/notice/notice-editor.tsx:NoticeEditor': 386,
  'apps/web/src/features/notice/notice-inbox.page.tsx:NoticeInboxPage': 165,
  'apps/web/src/features/notice/notice.page.tsx:NoticePage': 245,
  'apps/web/src/features/region/region.page.tsx:RegionPage': 255,
  'apps/web/src/features/role/role.page.tsx:RolePage': 157,
  'apps/web/src/features/tenant/tenant.page.tsx:TenantPage': 235,
  'apps/web/src/features/user/user-form-drawer.tsx:UserFormDrawer': 352,
  'apps/web/src/features/user/user-import.tsx:UserImportModal': 170,
  'apps/web/src/features/user/user.page.tsx:UserPage': 260,
  'apps/web/src/features/user-center/avatar-cropper.tsx:AvatarCropper': 153,
  'apps/web/src/features/user-center/user-center.page.tsx:UserCenterPage': 187,
};

const SOURCE_DIRS = ['apps/server/src', 'apps/web/src', 'packages/contracts/src'];
const isSource = (name) => /\.(ts|tsx)$/.test(name) && !/\.(test|d)\.tsx?$/.test(name);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (isSource(entry.name)) yield path;
  }
}

const nameOf = (node) => {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
};

const problems = [];
const seenFiles = new Set();
const seenFunctions = new Set();
for (const dir of SOURCE_DIRS) {
  for (const path of files(join(root, dir))) {
    const file = relative(root, path);
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n').length;
    if (lines > MAX_FILE_LINES) {
      if (LONG_FILES[file]) seenFiles.add(file);
      else
        problems.push(
          `${file}: ${lines} lines (over ${MAX_FILE_LINES}); split it by job, or list it with a reason`,
        );
    }
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const length = end - start + 1;
        if (length > MAX_FUNCTION_LINES) {
          const key = `${file}:${nameOf(node)}`;
          if (LONG_FUNCTIONS[key]) seenFunctions.add(key);
          else if (SPLIT_PENDING[key]) {
            seenFunctions.add(key);
            if (length > SPLIT_PENDING[key]) {
              problems.push(
                `${key} grew from ${SPLIT_PENDING[key]} to ${length} lines: it waits to be split and may only shrink`,
              );
            }
          } else problems.push(`${key} (line ${start + 1}): ${length} lines (over ${MAX_FUNCTION_LINES})`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
for (const file of Object.keys(LONG_FILES)) {
  if (!seenFiles.has(file)) problems.push(`${file} is listed as long but is not: take it off LONG_FILES`);
}
for (const key of [...Object.keys(LONG_FUNCTIONS), ...Object.keys(SPLIT_PENDING)]) {
  if (!seenFunctions.has(key))
    problems.push(`${key} is listed as long but is not: take it off LONG_FUNCTIONS`);
}
if (problems.length > 0) {
  console.error(`Units too large to change safely:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `Unit sizes hold: files ≤ ${MAX_FILE_LINES} lines, functions ≤ ${MAX_FUNCTION_LINES} (listed exceptions have reasons).`,
);
