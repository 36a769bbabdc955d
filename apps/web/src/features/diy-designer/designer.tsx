import {
  ArrowLeftOutlined,
  EyeOutlined,
  HistoryOutlined,
  RedoOutlined,
  SaveOutlined,
  SendOutlined,
  UndoOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import {
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  DragOverlay,
  type DragStartEvent,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type { AnyField, FieldType, FormDesign } from '@shuzhi/contracts/diy-form';
import { App, Badge, Button, Divider, Popover, Space, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCan } from '../../platform/access/access.tsx';
import { HttpError, hasErrorCode } from '../../platform/http/http-client.ts';
import { toLocale } from '../../platform/i18n/language.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { Canvas, DND } from './canvas.tsx';
import {
  allIds,
  canBeColumn,
  designProblems,
  duplicateField,
  type FieldPath,
  fieldAt,
  type History,
  insertField,
  moveField,
  newField,
  pathKey,
  publishedIds,
  pushHistory,
  redoHistory,
  removeField,
  renameField,
  sameDesign,
  startHistory,
  undoHistory,
  updateField,
} from './designer.model.ts';
import styles from './designer.module.css';
import { designerApi, type FormDesignResult } from './diy-designer.api.ts';
import { FieldIcon } from './field-icons.tsx';
import { FormPanel } from './form-panel.tsx';
import { Palette } from './palette.tsx';
import { PreviewModal, VersionsDrawer } from './preview.tsx';
import { PropertyPanel } from './property-panel.tsx';
import { useLeaveGuard } from './use-leave-guard.ts';

export const FORMS_PATH = '/diyTable';

export type DesignerProps = {
  formId: number;
  data: FormDesignResult;
  /** Fetches the form again (after a publish: versions; after a conflict: the other editor's design). */
  refresh: () => Promise<unknown>;
  /** Starts over from the server's design (drops local changes). */
  reload: () => Promise<unknown>;
};

/** Pointer collisions, innermost first: a sub-table's columns, then fields, then the canvas itself. */
const RANK = (id: string) =>
  id.startsWith('col:') ? 0 : id.startsWith('sub:') ? 1 : id.startsWith('field:') ? 2 : 3;
const collisions: CollisionDetection = (args) => {
  const kind = args.active.data.current?.kind as string | undefined;
  const hits = pointerWithin(args);
  const found = (hits.length > 0 ? hits : rectIntersection(args)).filter((hit) => {
    const id = String(hit.id);
    if (kind === 'field') return id.startsWith('field:') || id === DND.canvas;
    if (kind === 'column') {
      const sub = (args.active.data.current?.path as FieldPath | undefined)?.id;
      return id.startsWith(`col:${sub}:`);
    }
    return true;
  });
  return found.sort((a, b) => RANK(String(a.id)) - RANK(String(b.id)));
};

/** Whether this element is on screen (a kept-alive page hidden behind another tab is not). */
const visible = (element: HTMLElement | null) => !!element && !element.closest('[style*="display: none"]');

/**
 * The page's height: from its top to the bottom of the window, less what the layout shows below the page
 * (padding, footer), so the window does not scroll and the three panes scroll inside.
 */
function useFillHeight(root: React.RefObject<HTMLDivElement | null>): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    const element = root.current;
    if (!element) return;
    const page = element.closest('[data-testid="page-content"]');
    const content = page?.parentElement ?? null;
    const measure = () => {
      if (!visible(element)) return;
      const top = element.getBoundingClientRect().top + window.scrollY;
      const below =
        page && content ? content.getBoundingClientRect().bottom - page.getBoundingClientRect().bottom : 16;
      setHeight(Math.max(520, Math.floor(window.innerHeight - top - below)));
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (content) observer?.observe(content);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [root]);
  return height;
}

export function Designer({ formId, data, refresh, reload }: DesignerProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { can } = useCan();
  const locale = toLocale(useThemeStore((s) => s.globalI18n));
  const root = useRef<HTMLDivElement>(null);
  const height = useFillHeight(root);

  const [history, setHistory] = useState<History>(() => startHistory(data.draft));
  const [saved, setSaved] = useState<FormDesign>(data.draft);
  const [revision, setRevision] = useState(data.revision);
  const [selected, setSelected] = useState<FieldPath | null>(null);
  const [serverErrors, setServerErrors] = useState<{
    design: FormDesign;
    errors: Map<string, string[]>;
  } | null>(null);
  const [saving, setSaving] = useState<'draft' | 'publish' | null>(null);
  const [problemsOpen, setProblemsOpen] = useState(false);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [dragType, setDragType] = useState<FieldType | null>(null);
  const [overId, setOverId] = useState<string | null>(null);

  const design = history.present;
  const dirty = design !== saved;
  const locked = useMemo(() => publishedIds(data.published), [data.published]);
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

  const commit = useCallback((next: FormDesign, key: string | null = null) => {
    setHistory((h) => pushHistory(h, next, key));
  }, []);
  const edit = useCallback((change: (d: FormDesign) => FormDesign, key: string | null = null) => {
    setHistory((h) => pushHistory(h, change(h.present), key));
  }, []);
  const undo = useCallback(() => setHistory(undoHistory), []);
  const redo = useCallback(() => setHistory(redoHistory), []);

  // A selection whose field is gone (undo, delete) falls back to its sub-table or to nothing.
  useEffect(() => {
    if (selected && !fieldAt(design, selected)) {
      setSelected(selected.column && fieldAt(design, { id: selected.id }) ? { id: selected.id } : null);
    }
  }, [design, selected]);

  const reveal = (path: FieldPath) => {
    setSelected(path);
    requestAnimationFrame(() =>
      root.current
        ?.querySelector(`[data-testid="designer-field-${pathKey(path)}"]`)
        ?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' }),
    );
  };

  const createField = (type: FieldType, d: FormDesign) =>
    newField(type, t(`diyDesigner.types.${type}`), allIds(d), t('diyDesigner.canvas.option'));

  const add = (type: FieldType, index?: number, into?: string) => {
    const field = createField(type, design);
    const top = selected ? design.fields.findIndex((f) => f.id === selected.id) : -1;
    const at = index ?? (into ? Number.MAX_SAFE_INTEGER : top >= 0 ? top + 1 : design.fields.length);
    commit(insertField(design, field, at, into));
    reveal(into ? { id: into, column: field.id } : { id: field.id });
  };

  const remove = (path: FieldPath) => {
    const field = fieldAt(design, path);
    if (!field) return;
    commit(removeField(design, path));
    if (selected && selected.id === path.id && (!path.column || selected.column === path.column)) {
      setSelected(path.column ? { id: path.id } : null);
    }
    const key = `removed-${pathKey(path)}`;
    message.open({
      key,
      type: 'info',
      duration: 6,
      content: (
        <span data-testid="designer-removed">
          {t('diyDesigner.canvas.removed', { label: field.label })}
          <Button
            type="link"
            size="small"
            onClick={() => {
              undo();
              message.destroy(key);
            }}
            data-testid="designer-removed-undo"
          >
            {t('diyDesigner.canvas.undoRemove')}
          </Button>
        </span>
      ),
    });
  };

  const duplicate = (path: FieldPath) => {
    const result = duplicateField(design, path, t('diyDesigner.canvas.copyWord'));
    commit(result.design);
    reveal(result.path);
  };

  const shift = (path: FieldPath, delta: -1 | 1) => {
    const list: { id: string }[] = path.column
      ? (design.fields.find((f) => f.id === path.id)?.columns ?? [])
      : design.fields;
    const index = list.findIndex((f) => f.id === (path.column ?? path.id));
    const target = list[index + delta];
    if (!target) return;
    commit(moveField(design, path, path.column ? { id: path.id, column: target.id } : { id: target.id }));
    requestAnimationFrame(() =>
      (
        root.current?.querySelector(`[data-testid="designer-field-${pathKey(path)}"]`) as HTMLElement | null
      )?.focus(),
    );
  };

  // Keyboard: undo / redo anywhere on the page (not while a dialog is open or the page is hidden).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (previewOpen || versionsOpen || !visible(root.current)) return;
      if (
        event.key === 'Escape' &&
        !(event.target as HTMLElement | null)?.closest('input, textarea, .ant-select')
      ) {
        setSelected(null);
        return;
      }
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault();
        undo();
      } else if ((key === 'z' && event.shiftKey) || key === 'y') {
        event.preventDefault();
        redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo, previewOpen, versionsOpen]);

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
      if (publish) {
        message.success({
          content: t('diyDesigner.publishedOk', { version: result.version }),
          key: 'designer-saved',
        });
      } else {
        message.success({ content: t('diyDesigner.savedOk'), key: 'designer-saved' });
      }
      await refresh();
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

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const onDragStart = ({ active }: DragStartEvent) => {
    const data = active.data.current;
    setDragType(data?.kind === 'palette' ? (data.type as FieldType) : null);
  };
  const onDragOver = ({ active, over }: DragOverEvent) => {
    setOverId(active.data.current?.kind === 'palette' && over ? String(over.id) : null);
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragType(null);
    setOverId(null);
    if (!over) return;
    const source = active.data.current;
    const target = String(over.id);
    if (source?.kind === 'palette') {
      const type = source.type as FieldType;
      if (target.startsWith('col:') || target.startsWith('sub:')) {
        const [, sub = '', column] = target.split(':');
        if (canBeColumn(type)) {
          const columns = design.fields.find((f) => f.id === sub)?.columns ?? [];
          const index = column ? columns.findIndex((c) => c.id === column) : columns.length;
          add(type, index < 0 ? columns.length : index, sub);
        } else {
          add(type, design.fields.findIndex((f) => f.id === sub) + 1);
        }
      } else if (target.startsWith('field:')) {
        add(
          type,
          design.fields.findIndex((f) => f.id === target.slice(6)),
        );
      } else {
        add(type, design.fields.length);
      }
      return;
    }
    if (source?.kind === 'field' && target.startsWith('field:') && target !== String(active.id)) {
      commit(moveField(design, source.path as FieldPath, { id: target.slice(6) }));
    } else if (source?.kind === 'column' && target.startsWith('col:') && target !== String(active.id)) {
      const [, sub = '', column = ''] = target.split(':');
      commit(moveField(design, source.path as FieldPath, { id: sub, column }));
    }
  };

  const selectedField = fieldAt(design, selected);
  const problemList = [...problems.entries()].flatMap(([key, list]) => list.map((text) => ({ key, text })));
  const labelOf = (key: string) => {
    const [id = '', column] = key.split('.');
    const field = fieldAt(design, { id, column });
    return field ? field.label : key || t('diyDesigner.formProblem');
  };

  return (
    <div ref={root} className={styles.page} style={height ? { height } : undefined} data-testid="designer">
      <div className={styles.toolbar}>
        <Space size={8} className={styles.toolbarLeft}>
          <Tooltip title={t('diyDesigner.back')}>
            <Button
              icon={<ArrowLeftOutlined />}
              onClick={() => navigate(FORMS_PATH)}
              aria-label={t('diyDesigner.back')}
              data-testid="designer-back"
            />
          </Tooltip>
          <Typography.Title
            level={5}
            className={styles.title}
            style={{ margin: 0 }}
            ellipsis={{ tooltip: data.form.title }}
          >
            {data.form.title}
          </Typography.Title>
          {version > 0 ? (
            <Tag color="blue" data-testid="designer-version">
              {t('diyDesigner.version', { version })}
            </Tag>
          ) : null}
          <Tag color={version === 0 ? 'default' : isDraft ? 'orange' : 'green'} data-testid="designer-state">
            {version === 0
              ? t('diyDesigner.stateNever')
              : isDraft
                ? t('diyDesigner.stateDraft')
                : t('diyDesigner.statePublished')}
          </Tag>
          <Typography.Text type="secondary" className={styles.savedState} data-testid="designer-dirty">
            <Badge status={dirty ? 'warning' : 'success'} />
            {dirty ? t('diyDesigner.unsaved') : t('diyDesigner.allSaved')}
          </Typography.Text>
        </Space>
        <Space size={6} wrap={false}>
          <Tooltip title={t('diyDesigner.undo')}>
            <Button
              icon={<UndoOutlined />}
              disabled={history.past.length === 0}
              onClick={undo}
              aria-label={t('diyDesigner.undo')}
              data-testid="designer-undo"
            />
          </Tooltip>
          <Tooltip title={t('diyDesigner.redo')}>
            <Button
              icon={<RedoOutlined />}
              disabled={history.future.length === 0}
              onClick={redo}
              aria-label={t('diyDesigner.redo')}
              data-testid="designer-redo"
            />
          </Tooltip>
          {problemCount > 0 ? (
            <Popover
              open={problemsOpen}
              onOpenChange={setProblemsOpen}
              trigger="click"
              placement="bottomRight"
              title={t('diyDesigner.problemsTitle')}
              content={
                <div className={styles.problemList} data-testid="designer-problem-list">
                  <Typography.Text type="secondary">{t('diyDesigner.problemsHint')}</Typography.Text>
                  {problemList.map((p) => (
                    <button
                      type="button"
                      key={`${p.key}:${p.text}`}
                      className={styles.problemItem}
                      onClick={() => {
                        const [id = '', column] = p.key.split('.');
                        if (fieldAt(design, { id, column })) reveal({ id, column });
                        setProblemsOpen(false);
                      }}
                    >
                      <strong>{labelOf(p.key)}</strong>
                      <span>{p.text}</span>
                    </button>
                  ))}
                </div>
              }
            >
              <Button danger icon={<WarningOutlined />} data-testid="designer-problems">
                {t('diyDesigner.problems', { count: problemCount })}
              </Button>
            </Popover>
          ) : null}
          <Divider orientation="vertical" />
          <Button
            icon={<HistoryOutlined />}
            onClick={() => setVersionsOpen(true)}
            data-testid="designer-versions"
          >
            {t('diyDesigner.versions')}
          </Button>
          <Button icon={<EyeOutlined />} onClick={() => setPreviewOpen(true)} data-testid="designer-preview">
            {t('diyDesigner.preview')}
          </Button>
          {can('diyTable:design') ? (
            <Button
              icon={<SaveOutlined />}
              loading={saving === 'draft'}
              disabled={saving !== null}
              onClick={() => send(false)}
              data-testid="designer-save"
            >
              {t('diyDesigner.saveDraft')}
            </Button>
          ) : null}
          {can('diyTable:publish') ? (
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={saving === 'publish'}
              disabled={saving !== null}
              onClick={publish}
              data-testid="designer-publish"
            >
              {t('diyDesigner.publish')}
            </Button>
          ) : null}
        </Space>
      </div>
      <DndContext
        sensors={sensors}
        collisionDetection={collisions}
        onDragStart={onDragStart}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={() => {
          setDragType(null);
          setOverId(null);
        }}
      >
        <div className={styles.panes}>
          <aside className={styles.leftPane}>
            <Palette onAdd={(type) => add(type)} />
          </aside>
          <main className={styles.centerPane}>
            <Canvas
              design={design}
              selected={selected}
              problems={problems}
              onSelect={setSelected}
              onDuplicate={duplicate}
              onRemove={remove}
              onShift={shift}
              overId={overId}
            />
          </main>
          <aside className={styles.rightPane} data-testid="designer-right">
            <div className={styles.paneHead}>
              <Typography.Text strong>
                {selectedField ? t('diyDesigner.props.title') : t('diyDesigner.props.formTitle')}
              </Typography.Text>
            </div>
            <div className={styles.paneBody}>
              {selected && selectedField ? (
                <PropertyPanel
                  design={design}
                  path={selected}
                  locked={locked}
                  problems={problems.get(pathKey(selected))}
                  onPatch={(patch: Partial<AnyField>, key) =>
                    edit(
                      (d) => updateField(d, selected, (f) => ({ ...f, ...patch })),
                      `${pathKey(selected)}:${key}`,
                    )
                  }
                  onRename={(next) => {
                    commit(renameField(design, selected, next));
                    setSelected(selected.column ? { id: selected.id, column: next } : { id: next });
                  }}
                  onSelect={reveal}
                  onAddColumn={(sub, type) => add(type, undefined, sub)}
                />
              ) : (
                <FormPanel design={design} onChange={(next, key) => commit(next, key)} />
              )}
            </div>
          </aside>
        </div>
        <DragOverlay dropAnimation={null}>
          {dragType ? (
            <div className={styles.dragChip}>
              <FieldIcon type={dragType} />
              {t(`diyDesigner.types.${dragType}`)}
            </div>
          ) : null}
        </DragOverlay>
      </DndContext>
      <PreviewModal
        open={previewOpen}
        onClose={() => setPreviewOpen(false)}
        title={data.form.title}
        design={design}
      />
      <VersionsDrawer
        open={versionsOpen}
        onClose={() => setVersionsOpen(false)}
        formId={formId}
        title={data.form.title}
        current={version}
        versions={data.versions}
      />
    </div>
  );
}
