import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { JOB_KEYS } from './job.api.ts';

/** Permissions of the buttons (packages/contracts/src/permissions.ts, `sysJob:*`). */
export const JOB_PERMS = {
  add: 'sysJob:add',
  update: 'sysJob:update',
  delete: 'sysJob:delete',
  start: 'sysJob:start',
  pause: 'sysJob:pause',
  runNow: 'sysJob:runNow',
  cancel: 'sysJob:cancel',
  /** Triggers are added, changed and deleted with the job's own permissions. */
  triggerAdd: 'sysJob:add',
  triggerUpdate: 'sysJob:update',
  triggerDelete: 'sysJob:delete',
  /** The live cron check. */
  checkCron: 'sysJob:detail',
  records: 'sysJob:page',
  cluster: 'sysJob:list',
} as const;

/**
 * Runs a write, toasts its outcome and refreshes the screen either way (the state may have changed
 * meanwhile, e.g. a run that ended). Resolves to the call's answer, or undefined when it failed.
 */
export function useJobAction() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  return async <R>(call: () => Promise<R>, done: string): Promise<R | undefined> => {
    try {
      const result = await call();
      message.success(done);
      return result;
    } catch (error) {
      if (!(error instanceof UnauthorizedError))
        message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
      return undefined;
    } finally {
      await client.invalidateQueries({ queryKey: JOB_KEYS.all });
    }
  };
}
