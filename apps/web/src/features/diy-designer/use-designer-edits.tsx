import type { FieldType, FormDesign } from '@shuzhi/contracts/diy-form';
import { App, Button } from 'antd';
import { type RefObject, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visible } from '../../components/use-fill-height.ts';
import {
  allIds,
  duplicateField,
  type FieldPath,
  fieldAt,
  type History,
  insertField,
  moveField,
  newField,
  pathKey,
  pushHistory,
  redoHistory,
  removeField,
  startHistory,
  undoHistory,
} from './designer.model.ts';

/**
 * The design being edited with its undo history, the selected field, and the edits of the canvas and the
 * palette: add, remove (with 撤销 in its message), duplicate and shift.
 */
export function useDesignerEdits(initial: FormDesign, root: RefObject<HTMLDivElement | null>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [history, setHistory] = useState<History>(() => startHistory(initial));
  const [selected, setSelected] = useState<FieldPath | null>(null);
  const design = history.present;

  const commit = useCallback((next: FormDesign, key: string | null = null) => {
    setHistory((h) => pushHistory(h, next, key));
  }, []);
  const edit = useCallback((change: (d: FormDesign) => FormDesign, key: string | null = null) => {
    setHistory((h) => pushHistory(h, change(h.present), key));
  }, []);
  const undo = useCallback(() => setHistory(undoHistory), []);
  const redo = useCallback(() => setHistory(redoHistory), []);
  const deselect = useCallback(() => setSelected(null), []);

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

  return {
    history,
    design,
    selected,
    setSelected,
    deselect,
    commit,
    edit,
    undo,
    redo,
    reveal,
    add,
    remove,
    duplicate,
    shift,
  };
}

/**
 * Keyboard: undo / redo anywhere on the page, Escape drops the selection (not while a dialog is open —
 * `paused` — or the page is hidden).
 */
export function useDesignerKeys({
  root,
  paused,
  undo,
  redo,
  onEscape,
}: {
  root: RefObject<HTMLDivElement | null>;
  paused: boolean;
  undo: () => void;
  redo: () => void;
  onEscape: () => void;
}) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (paused || !visible(root.current)) return;
      if (
        event.key === 'Escape' &&
        !(event.target as HTMLElement | null)?.closest('input, textarea, .ant-select')
      ) {
        onEscape();
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
  }, [root, undo, redo, paused, onEscape]);
}
