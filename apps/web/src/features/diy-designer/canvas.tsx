import { CopyOutlined, DeleteOutlined, EyeInvisibleOutlined, HolderOutlined } from '@ant-design/icons';
import { useDroppable } from '@dnd-kit/core';
import {
  horizontalListSortingStrategy,
  rectSortingStrategy,
  SortableContext,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { AnyField, FormDesign, FormField } from '@shuzhi/contracts/diy-form';
import { Button, Empty, Tooltip, Typography } from 'antd';
import { type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type FieldPath, pathKey, samePath } from './designer.model.ts';
import styles from './designer.module.css';
import { FieldIcon } from './field-icons.tsx';
import { FieldMock } from './field-mock.tsx';

/** Drag and drop ids of the canvas. */
export const DND = {
  canvas: 'canvas',
  field: (id: string) => `field:${id}`,
  column: (sub: string, id: string) => `col:${sub}:${id}`,
  columns: (sub: string) => `sub:${sub}`,
};

export type CanvasProps = {
  design: FormDesign;
  selected: FieldPath | null;
  problems: ReadonlyMap<string, string[]>;
  onSelect: (path: FieldPath | null) => void;
  onDuplicate: (path: FieldPath) => void;
  onRemove: (path: FieldPath) => void;
  /** Keyboard reordering (Alt+↑ / Alt+↓). */
  onShift: (path: FieldPath, delta: -1 | 1) => void;
  /** What the palette drag is over (to show where it lands). */
  overId: string | null;
  /** Labels by reference (`id`, `sub.col`) for formulas. */
  refLabels?: ReadonlyMap<string, string>;
};

function Actions({ path, props }: { path: FieldPath; props: CanvasProps }) {
  const { t } = useTranslation();
  const stop = (run: () => void) => (event: MouseEvent) => {
    event.stopPropagation();
    run();
  };
  return (
    <div className={styles.fieldActions}>
      <Tooltip title={t('diyDesigner.canvas.duplicate')}>
        <Button
          size="small"
          type="text"
          icon={<CopyOutlined />}
          aria-label={t('diyDesigner.canvas.duplicate')}
          onClick={stop(() => props.onDuplicate(path))}
          data-testid={`designer-duplicate-${pathKey(path)}`}
        />
      </Tooltip>
      <Tooltip title={t('diyDesigner.canvas.remove')}>
        <Button
          size="small"
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('diyDesigner.canvas.remove')}
          onClick={stop(() => props.onRemove(path))}
          data-testid={`designer-remove-${pathKey(path)}`}
        />
      </Tooltip>
    </div>
  );
}

function keyHandler(path: FieldPath, props: CanvasProps) {
  return (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      props.onSelect(path);
    } else if (event.key === 'Delete') {
      event.preventDefault();
      props.onRemove(path);
    } else if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowLeft')) {
      event.preventDefault();
      props.onShift(path, -1);
    } else if (event.altKey && (event.key === 'ArrowDown' || event.key === 'ArrowRight')) {
      event.preventDefault();
      props.onShift(path, 1);
    }
  };
}

function Problems({ list }: { list?: string[] }) {
  if (!list?.length) return null;
  return (
    <div className={styles.fieldProblems} role="alert">
      {list.map((text) => (
        <div key={text}>{text}</div>
      ))}
    </div>
  );
}

function LabelText({ field }: { field: AnyField }) {
  const { t } = useTranslation();
  return (
    <>
      {field.required ? <span className={styles.requiredMark}>*</span> : null}
      <span className={styles.labelText}>{field.label || t(`diyDesigner.types.${field.type}`)}</span>
      {field.showWhen ? (
        <Tooltip title={t('diyDesigner.canvas.hidden')}>
          <EyeInvisibleOutlined className={styles.conditionMark} />
        </Tooltip>
      ) : null}
    </>
  );
}

function ColumnCell({ sub, column, props }: { sub: string; column: AnyField; props: CanvasProps }) {
  const path = { id: sub, column: column.id };
  const { setNodeRef, attributes, listeners, transform, transition, isDragging } = useSortable({
    id: DND.column(sub, column.id),
    data: { kind: 'column', path },
  });
  const selected = samePath(props.selected, path);
  const problems = props.problems.get(pathKey(path));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a field holds its own buttons, and buttons cannot nest.
    <div
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      className={[
        styles.columnCell,
        selected ? styles.selected : '',
        problems?.length ? styles.hasProblem : '',
      ].join(' ')}
      style={{ transform: CSS.Translate.toString(transform), transition, opacity: isDragging ? 0.4 : 1 }}
      onClick={(event) => {
        event.stopPropagation();
        props.onSelect(path);
      }}
      onKeyDown={keyHandler(path, props)}
      data-testid={`designer-field-${sub}.${column.id}`}
    >
      <div className={styles.columnHead}>
        <span className={styles.columnIcon}>
          <FieldIcon type={column.type} />
        </span>
        <LabelText field={column} />
      </div>
      <FieldMock field={column} refLabels={props.refLabels} />
      <Problems list={problems} />
      {selected ? <Actions path={path} props={props} /> : null}
    </div>
  );
}

function SubTableBody({ field, props }: { field: FormField; props: CanvasProps }) {
  const { t } = useTranslation();
  const columns = field.columns ?? [];
  const { setNodeRef, isOver } = useDroppable({
    id: DND.columns(field.id),
    data: { kind: 'columns', sub: field.id },
  });
  const over = isOver || (props.overId?.startsWith(`col:${field.id}:`) ?? false);
  return (
    <div
      ref={setNodeRef}
      className={`${styles.columnStrip} ${over ? styles.dropActive : ''}`}
      data-testid={`designer-columns-${field.id}`}
    >
      <SortableContext
        items={columns.map((c) => DND.column(field.id, c.id))}
        strategy={horizontalListSortingStrategy}
      >
        {columns.map((column) => (
          <ColumnCell key={column.id} sub={field.id} column={column} props={props} />
        ))}
      </SortableContext>
      <div className={styles.columnDrop}>{t('diyDesigner.canvas.columnsEmpty')}</div>
    </div>
  );
}

function FieldCard({
  field,
  props,
  labelWidth,
}: {
  field: FormField;
  props: CanvasProps;
  labelWidth: number;
}) {
  const { t } = useTranslation();
  const path = { id: field.id };
  const { setNodeRef, attributes, listeners, transform, transition, isDragging } = useSortable({
    id: DND.field(field.id),
    data: { kind: 'field', path },
  });
  const selected = samePath(props.selected, path);
  const problems = props.problems.get(field.id);
  const insertBefore = props.overId === DND.field(field.id);
  const span = field.type === 'subTable' || field.type === 'section' ? 24 : (field.span ?? 24);

  let body: ReactNode;
  if (field.type === 'section') {
    body = (
      <div className={styles.sectionMock}>
        <div className={styles.sectionTitle}>{field.label}</div>
        {field.content ? <Typography.Text type="secondary">{field.content}</Typography.Text> : null}
      </div>
    );
  } else if (field.type === 'staticText') {
    body = (
      <div className={styles.staticMock}>
        {field.content || (
          <span className={styles.mockMuted}>{field.label || t('diyDesigner.canvas.staticEmpty')}</span>
        )}
      </div>
    );
  } else if (field.type === 'subTable') {
    body = (
      <>
        <div className={styles.subTableHead}>
          <LabelText field={field} />
          <Typography.Text type="secondary" className={styles.subTableCount}>
            {t('diyDesigner.canvas.columnsCount', { count: field.columns?.length ?? 0 })}
          </Typography.Text>
        </div>
        <SubTableBody field={field} props={props} />
      </>
    );
  } else {
    body = (
      <div className={styles.fieldRow} style={{ '--label-width': `${labelWidth}px` } as CSSProperties}>
        <div className={styles.fieldLabel}>
          <LabelText field={field} />
        </div>
        <div className={styles.fieldControl}>
          <FieldMock field={field} refLabels={props.refLabels} />
          {field.help ? <div className={styles.fieldHelp}>{field.help}</div> : null}
        </div>
      </div>
    );
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: a field holds its own buttons, and buttons cannot nest.
    <div
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={`${t(`diyDesigner.types.${field.type}`)} ${field.label}`}
      className={[
        styles.fieldCard,
        selected ? styles.selected : '',
        problems?.length ? styles.hasProblem : '',
        insertBefore ? styles.insertBefore : '',
      ].join(' ')}
      style={{
        gridColumn: `span ${span}`,
        transform: CSS.Translate.toString(transform),
        transition,
        opacity: isDragging ? 0.4 : 1,
      }}
      onClick={(event) => {
        event.stopPropagation();
        props.onSelect(path);
      }}
      onKeyDown={keyHandler(path, props)}
      data-testid={`designer-field-${field.id}`}
      data-span={span}
    >
      {selected ? (
        <span className={styles.dragBadge} title={t('diyDesigner.canvas.drag')}>
          <HolderOutlined /> {t(`diyDesigner.types.${field.type}`)}
        </span>
      ) : null}
      {body}
      <Problems list={problems} />
      {selected ? <Actions path={path} props={props} /> : null}
    </div>
  );
}

/** The form on its 24-column grid: fields as they will look, to select, reorder, duplicate and delete. */
export function Canvas(canvasProps: CanvasProps) {
  const { t } = useTranslation();
  const { design } = canvasProps;
  const refLabels = useMemo(() => {
    const labels = new Map<string, string>();
    for (const field of design.fields) {
      labels.set(field.id, field.label);
      for (const column of field.columns ?? [])
        labels.set(`${field.id}.${column.id}`, `${field.label}.${column.label}`);
    }
    return labels;
  }, [design]);
  const props = { ...canvasProps, refLabels };
  const { setNodeRef, isOver } = useDroppable({ id: DND.canvas, data: { kind: 'canvas' } });
  const labelWidth = design.labelWidth ?? 120;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the background is not a control; a click or Escape clears the selection.
    <div
      className={styles.canvasScroll}
      onClick={() => props.onSelect(null)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onSelect(null);
      }}
      data-testid="designer-canvas-scroll"
    >
      <div
        ref={setNodeRef}
        className={`${styles.canvasPaper} ${isOver && design.fields.length === 0 ? styles.dropActive : ''}`}
        data-testid="designer-canvas"
      >
        {design.fields.length === 0 ? (
          <Empty
            className={styles.canvasEmpty}
            description={
              <>
                <div>{t('diyDesigner.canvas.empty')}</div>
                <Typography.Text type="secondary">{t('diyDesigner.canvas.emptyHint')}</Typography.Text>
              </>
            }
          />
        ) : (
          <SortableContext items={design.fields.map((f) => DND.field(f.id))} strategy={rectSortingStrategy}>
            <div className={styles.grid}>
              {design.fields.map((field) => (
                <FieldCard key={field.id} field={field} props={props} labelWidth={labelWidth} />
              ))}
            </div>
          </SortableContext>
        )}
        <div
          className={`${styles.appendZone} ${isOver && design.fields.length > 0 ? styles.dropActive : ''}`}
        >
          {isOver ? t('diyDesigner.canvas.drop') : null}
        </div>
      </div>
    </div>
  );
}
