import { SearchOutlined } from '@ant-design/icons';
import { useDraggable } from '@dnd-kit/core';
import type { FieldType } from '@shuzhi/contracts/diy-form';
import { Empty, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PALETTE } from './designer.model.ts';
import styles from './designer.module.css';
import { FieldIcon } from './field-icons.tsx';

/** The palette's drag id of a type. */
const paletteId = (type: FieldType) => `palette:${type}`;

function PaletteItem({ type, onAdd }: { type: FieldType; onAdd: (type: FieldType) => void }) {
  const { t } = useTranslation();
  const name = t(`diyDesigner.types.${type}`);
  const {
    setNodeRef,
    listeners,
    attributes: { role: _role, ...attributes },
    isDragging,
  } = useDraggable({
    id: paletteId(type),
    data: { kind: 'palette', type },
  });
  return (
    <button
      type="button"
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      className={styles.paletteItem}
      style={isDragging ? { opacity: 0.4 } : undefined}
      onClick={() => onAdd(type)}
      onKeyDown={(event) => {
        // Enter adds once (the browser's own click on Enter is prevented).
        if (event.key === 'Enter') {
          event.preventDefault();
          onAdd(type);
        }
      }}
      title={t('diyDesigner.palette.add', { name })}
      aria-label={t('diyDesigner.palette.add', { name })}
      data-testid={`designer-palette-${type}`}
    >
      <span className={styles.paletteIcon}>
        <FieldIcon type={type} />
      </span>
      <span className={styles.paletteName}>{name}</span>
    </button>
  );
}

/** Every field type by group, to drag onto the canvas or add with a click (or Enter). */
export function Palette({ onAdd }: { onAdd: (type: FieldType) => void }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const needle = keyword.trim().toLowerCase();
  const groups = PALETTE.map((group) => ({
    ...group,
    types: group.types.filter(
      (type) =>
        !needle ||
        t(`diyDesigner.types.${type}`).toLowerCase().includes(needle) ||
        type.toLowerCase().includes(needle),
    ),
  })).filter((group) => group.types.length > 0);
  return (
    <div className={styles.palette} data-testid="designer-palette">
      <div className={styles.paneHead}>
        <Input
          allowClear
          size="small"
          prefix={<SearchOutlined />}
          placeholder={t('diyDesigner.palette.search')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          data-testid="designer-palette-search"
        />
      </div>
      <div className={styles.paneBody}>
        <Typography.Text type="secondary" className={styles.paletteHint}>
          {t('diyDesigner.palette.hint')}
        </Typography.Text>
        {groups.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> : null}
        {groups.map((group) => (
          <section key={group.key} className={styles.paletteGroup}>
            <div className={styles.paletteGroupTitle}>{t(`diyDesigner.palette.groups.${group.key}`)}</div>
            <div className={styles.paletteGrid}>
              {group.types.map((type) => (
                <PaletteItem key={type} type={type} onAdd={onAdd} />
              ))}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
