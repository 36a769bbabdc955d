import {
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type { FieldType, FormDesign } from '@shuzhi/contracts/diy-form';
import { useState } from 'react';
import { DND } from './canvas.tsx';
import { canBeColumn, type FieldPath, moveField } from './designer.model.ts';

/** Pointer collisions, innermost first: a sub-table's columns, then fields, then the canvas itself. */
const RANK = (id: string) =>
  id.startsWith('col:') ? 0 : id.startsWith('sub:') ? 1 : id.startsWith('field:') ? 2 : 3;
export const collisions: CollisionDetection = (args) => {
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

type DndOptions = {
  design: FormDesign;
  /** Adds a field of the type at the index (of the sub-table `into`'s columns). */
  add: (type: FieldType, index?: number, into?: string) => void;
  commit: (next: FormDesign) => void;
};

/**
 * Dragging in the designer: a palette type dropped on the canvas, a field or a sub-table adds a field there;
 * a field or a column dropped on another moves it. `dragType` is the palette type being dragged (its chip),
 * `overId` what it is over (the drop marker).
 */
export function useDesignerDnd({ design, add, commit }: DndOptions) {
  const [dragType, setDragType] = useState<FieldType | null>(null);
  const [overId, setOverId] = useState<string | null>(null);
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
  const onDragCancel = () => {
    setDragType(null);
    setOverId(null);
  };
  return { dragType, overId, sensors, onDragStart, onDragOver, onDragEnd, onDragCancel };
}
