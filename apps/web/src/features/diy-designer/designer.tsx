import { DndContext, DragOverlay } from '@dnd-kit/core';
import type { AnyField } from '@shuzhi/contracts/diy-form';
import { Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFillHeight } from '../../components/use-fill-height.ts';
import { Canvas } from './canvas.tsx';
import { fieldAt, pathKey, publishedIds, renameField, updateField } from './designer.model.ts';
import styles from './designer.module.css';
import { DesignerToolbar } from './designer-toolbar.tsx';
import type { FormDesignResult } from './diy-designer.api.ts';
import { FieldIcon } from './field-icons.tsx';
import { FormPanel } from './form-panel.tsx';
import { Palette } from './palette.tsx';
import { PreviewModal, VersionsDrawer } from './preview.tsx';
import { PropertyPanel } from './property-panel.tsx';
import { collisions, useDesignerDnd } from './use-designer-dnd.ts';
import { useDesignerEdits, useDesignerKeys } from './use-designer-edits.tsx';
import { useDesignerSave } from './use-designer-save.ts';

export type DesignerProps = {
  formId: number;
  data: FormDesignResult;
  /** Fetches the form again (after a publish: versions; after a conflict: the other editor's design). */
  refresh: () => Promise<unknown>;
  /** Starts over from the server's design (drops local changes). */
  reload: () => Promise<unknown>;
};

/**
 * 表单设计: toolbar, palette, canvas and the selected field's (or the form's) settings. The design and its
 * edits are `useDesignerEdits`, saving and publishing `useDesignerSave`, dragging `useDesignerDnd`.
 */
export function Designer({ formId, data, refresh, reload }: DesignerProps) {
  const { t } = useTranslation();
  const root = useRef<HTMLDivElement>(null);
  // The three panes scroll inside: the page itself never does.
  const height = useFillHeight(root, { min: 520, spare: 16 });
  const [previewOpen, setPreviewOpen] = useState(false);
  const [versionsOpen, setVersionsOpen] = useState(false);

  const edits = useDesignerEdits(data.draft, root);
  const { design, selected, setSelected, commit, edit, add, reveal } = edits;
  const save = useDesignerSave({ formId, data, design, refresh, reload });
  const { problems } = save;
  const locked = useMemo(() => publishedIds(data.published), [data.published]);
  useDesignerKeys({
    root,
    paused: previewOpen || versionsOpen,
    undo: edits.undo,
    redo: edits.redo,
    onEscape: edits.deselect,
  });
  const dnd = useDesignerDnd({ design, add, commit });
  const { dragType } = dnd;
  const selectedField = fieldAt(design, selected);

  return (
    <div ref={root} className={styles.page} style={height ? { height } : undefined} data-testid="designer">
      <DesignerToolbar
        title={data.form.title}
        design={design}
        history={edits.history}
        save={save}
        undo={edits.undo}
        redo={edits.redo}
        reveal={reveal}
        onVersions={() => setVersionsOpen(true)}
        onPreview={() => setPreviewOpen(true)}
      />
      <DndContext
        sensors={dnd.sensors}
        collisionDetection={collisions}
        onDragStart={dnd.onDragStart}
        onDragOver={dnd.onDragOver}
        onDragEnd={dnd.onDragEnd}
        onDragCancel={dnd.onDragCancel}
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
              onDuplicate={edits.duplicate}
              onRemove={edits.remove}
              onShift={edits.shift}
              overId={dnd.overId}
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
        current={save.version}
        versions={data.versions}
      />
    </div>
  );
}
