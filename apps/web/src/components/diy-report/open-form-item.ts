import type { FormItem } from '@shuzhi/contracts/diy-table';
import { useTagsStore } from '../../app/tags/tags.store.ts';
import { diyReportApi } from './diy-report.api.ts';
import { isFormPasswordVerified } from './form-password.tsx';

/** The record list of a form (report types 1 and 7 open pages of their own). */
const FORM_TABLE_PATH = '/diyReport/index/formTable';
const LOAD_TABLE_PATH = '/diyLoad/index/loadTable';
const LOAD_SCREEN_PATH = '/diyScreen/loadScreen';
const WORD_PATH = '/diyword/index';

/** The query parameter carrying `defaultHideDataList`: field ids joined by commas (ids never hold one). */
export const HIDE_LIST_PARAM = 'defaultHideDataList';

export type OpenableItem = Pick<
  FormItem,
  'id' | 'title' | 'reportType' | 'isEnable' | 'isShowPwd' | 'lastUpdateTime' | 'isTip' | 'query' | 'myAuth'
> &
  Partial<Pick<FormItem, 'defaultHideDataList'>>;

export type FormItemTarget = { pathname: string; query: Record<string, string> };

/** Where an item leads (SPEC §2 "Opening a report or form item"), or null when its report type opens nothing. */
export function formItemTarget(item: OpenableItem): FormItemTarget | null {
  const full = (pathname: string): FormItemTarget => {
    const query: Record<string, string> = { id: String(item.id) };
    for (const [key, value] of Object.entries(item.query ?? {})) if (key !== 'id') query[key] = value;
    const hidden = item.defaultHideDataList ?? [];
    if (hidden.length > 0) query[HIDE_LIST_PARAM] = hidden.join(',');
    return { pathname, query };
  };
  switch (item.reportType) {
    case 1:
      return full(FORM_TABLE_PATH);
    case 2:
    case 3:
    case 4:
      return full(LOAD_TABLE_PATH);
    case 6:
      return { pathname: LOAD_SCREEN_PATH, query: { id: String(item.id) } };
    case 7:
      return full(WORD_PATH);
    default:
      return null;
  }
}

function targetUrl(target: FormItemTarget): string {
  const search = new URLSearchParams(target.query).toString();
  return search ? `${target.pathname}?${search}` : target.pathname;
}

/** The field ids of `defaultHideDataList` on a record-list URL. */
export function readHideList(search: URLSearchParams | string): string[] {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return (params.get(HIDE_LIST_PARAM) ?? '').split(',').filter((id) => id !== '');
}

/** Gives the page of a form the form's title (tab and 'title - system title'), keyed by its path and id. */
export function setFormPageTitle(pathname: string, id: number | string, title: string): void {
  useTagsStore.getState().setTitle({ path: pathname, query: { id: String(id) } }, title);
}

/** Whether the item may be opened at all (enabled, query right, a report type that leads somewhere). */
export function canOpenFormItem(item: OpenableItem): boolean {
  return item.isEnable && item.myAuth.query && formItemTarget(item) !== null;
}

export type OpenFormItemOptions = {
  /** The password prompt (`useFormPasswordPrompt().prompt`); without it a locked, unverified form stays shut. */
  prompt?: (tableId: number, title?: string) => Promise<boolean>;
  /** Called once the tip flag was cleared on the server (to refresh lists). */
  onTipCleared?: (id: number) => void;
  /** Replaced in tests; defaults to `POST /api/diyTable/clearTip`. */
  clearTip?: (id: number) => Promise<unknown>;
  /** Replaced in tests; defaults to the tab / page title store. */
  setTitle?: (target: FormItemTarget, title: string) => void;
};

export type Navigate = (to: string) => unknown;

/**
 * Opens a report or form item (SPEC §2, §4): only an enabled item with `myAuth.query` and a report type that
 * leads somewhere; a form with a password asks for it first unless this session verified it; a tip is cleared
 * on opening; the page takes the item's title. Answers whether it navigated.
 */
export async function openFormItem(
  item: OpenableItem,
  navigate: Navigate,
  opts: OpenFormItemOptions = {},
): Promise<boolean> {
  const target = formItemTarget(item);
  if (!target || !item.isEnable || !item.myAuth.query) return false;
  if (item.isShowPwd && !isFormPasswordVerified(item.id)) {
    const verified = opts.prompt ? await opts.prompt(item.id, item.title) : false;
    if (!verified) return false;
  }
  if (item.lastUpdateTime && item.isTip) {
    const clearTip = opts.clearTip ?? diyReportApi.clearTip;
    // The tip is a hint: a failed clearing must not keep the user from the form.
    void clearTip(item.id).then(
      () => opts.onTipCleared?.(item.id),
      () => undefined,
    );
  }
  (opts.setTitle ?? ((t, title) => setFormPageTitle(t.pathname, t.query.id, title)))(target, item.title);
  navigate(targetUrl(target));
  return true;
}
