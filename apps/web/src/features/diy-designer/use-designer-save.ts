import type { FormDesign } from '@shuzhi/contracts/diy-form';
import { App } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError, hasErrorCode } from '../../platform/http/http-client.ts';
import { toLocale } from '../../platform/i18n/language.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { designProblems, sameDesign } from './designer.model.ts';
import { designerApi, type FormDesignResult } from './diy-designer.api.ts';
import { useLeaveGuard } from './use-leave-guard.ts';

type SaveOptions = {
  formId: number;
  data: FormDesignResult;
  design: FormDesign;
  /** Fetches the form again (after a publish: versions; after a conflict: the other editor's design). */
  refresh: () => Promise<unknown>;
  /** Starts over from the server's design (drops local changes). */
  reload: () => Promise<unknown>;
};

/**
 * Saving the design: what it lacks (`problems`, the model's and the server's last answer), whether it
 * differs from the saved and the published design, 保存草稿 and 发布 (a conflict offers to reload), and the
 * question before leaving with unsaved changes.
 */
export function useDesignerSave({ formId, data, design, refresh, reload }: SaveOptions) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const locale = toLocale(useThemeStore((s) => s.globalI18n));
  const [saved, setSaved] = useState<FormDesign>(data.draft);
  const [revision, setRevision] = useState(data.revision);
  const [serverErrors, setServerErrors] = useState<{
    design: FormDesign;
    errors: Map<string, string[]>;
  } | null>(null);
  const [saving, setSaving] = useState<'draft' | 'publish' | null>(null);
  const [problemsOpen, setProblemsOpen] = useState(false);

  const dirty = design !== saved;
  const problems = useMemo(() => {
    const map = designProblems(design, locale);
    if (serverErrors && serverErrors.design === design) {
      for (const [key, list] of serverErrors.errors)
        map.set(key, [...new Set([...(map.get(key) ?? []), ...list])]);
    }
    return map;
  }, [design, locale, serverErrors]);
  const problemCount = [...problems.values()].reduce((n, list) => n + list.length, 0);
  const version = data.form.version;
  const isDraft = useMemo(
    () => version === 0 || !sameDesign(design, data.published),
    [version, design, data.published],
  );

  const confirmLeave = useCallback(
    (proceed: () => void) => {
      modal.confirm({
        title: t('diyDesigner.leaveTitle'),
        content: t('diyDesigner.leaveBody'),
        okText: t('diyDesigner.leaveOk'),
        cancelText: t('diyDesigner.stay'),
        okButtonProps: { danger: true, 'data-testid': 'designer-leave-ok' },
        onOk: proceed,
      });
    },
    [modal, t],
  );
  useLeaveGuard(dirty, confirmLeave);

  const conflict = () => {
    modal.confirm({
      title: t('diyDesigner.conflictTitle'),
      content: t('diyDesigner.conflictBody'),
      okText: t('diyDesigner.reload'),
      cancelText: t('diyDesigner.cancel'),
      okButtonProps: { 'data-testid': 'designer-conflict-reload' },
      onOk: () => reload(),
    });
  };

  const send = async (publish: boolean) => {
    if (problemCount > 0) {
      setProblemsOpen(true);
      return;
    }
    setSaving(publish ? 'publish' : 'draft');
    try {
      const result = await designerApi.save({ id: formId, design, publish, baseRevision: revision });
      setRevision(result.revision);
      setSaved(design);
      setServerErrors(null);
      // The page shows the new state before the toast says so.
      await refresh();
      if (publish) {
        message.success({
          content: t('diyDesigner.publishedOk', { version: result.version }),
          key: 'designer-saved',
        });
      } else {
        message.success({ content: t('diyDesigner.savedOk'), key: 'designer-saved' });
      }
    } catch (error) {
      if (hasErrorCode(error, 'F1004')) {
        conflict();
      } else if (error instanceof HttpError && error.errors && typeof error.errors === 'object') {
        const errors = new Map<string, string[]>();
        for (const [key, list] of Object.entries(error.errors)) errors.set(key, [list].flat());
        setServerErrors({ design, errors });
        setProblemsOpen(true);
      } else {
        message.error(t('diyDesigner.saveFailed', { reason: error instanceof Error ? error.message : '' }));
      }
    } finally {
      setSaving(null);
    }
  };

  const publish = () => {
    if (problemCount > 0) {
      setProblemsOpen(true);
      return;
    }
    modal.confirm({
      title: t('diyDesigner.publishTitle'),
      content: t('diyDesigner.publishBody', { version: version + 1 }),
      okText: t('diyDesigner.publishOk'),
      cancelText: t('diyDesigner.cancel'),
      okButtonProps: { 'data-testid': 'designer-publish-ok' },
      onOk: () => send(true),
    });
  };

  return {
    dirty,
    problems,
    problemCount,
    problemsOpen,
    setProblemsOpen,
    version,
    isDraft,
    saving,
    send,
    publish,
  };
}

export type DesignerSave = ReturnType<typeof useDesignerSave>;
