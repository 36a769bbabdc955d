import type { FormDesign } from '@shuzhi/contracts/diy-form';
import { FIELD_TYPES } from '@shuzhi/contracts/diy-form';
import { describe, expect, it } from 'vitest';
import {
  allIds,
  designProblems,
  duplicateField,
  HISTORY_LIMIT,
  insertField,
  moveField,
  newField,
  PALETTE,
  pushHistory,
  redoHistory,
  renameField,
  sameDesign,
  sampleNumber,
  startHistory,
  undoHistory,
} from './designer.model.ts';

const design = (): FormDesign => ({
  labelWidth: 120,
  numbering: null,
  fields: [
    newField('text', '名称', new Set()),
    {
      ...newField('select', '类型', new Set(['text1']), '选项'),
      showWhen: { logic: 'and', rules: [{ field: 'text1', op: 'notEmpty' }] },
    },
    {
      ...newField('subTable', '明细', new Set(['text1', 'select1'])),
      columns: [{ ...newField('integer', '数量', new Set()), id: 'qty' }],
    },
  ],
});

describe('designer model', () => {
  it('offers every field type exactly once in the palette', () => {
    const listed = PALETTE.flatMap((g) => g.types);
    expect([...listed].sort()).toEqual([...FIELD_TYPES].sort());
  });

  it('gives new fields free ids and a design without problems', () => {
    const d = design();
    expect(d.fields.map((f) => f.id)).toEqual(['text1', 'select1', 'subtable1']);
    const field = newField('idCard', '身份证', allIds(d));
    expect(field.id).toBe('idcard1');
    expect(designProblems(d, 'zh-CN').size).toBe(0);
  });

  it('reports the contract problems and the schema refusals by path', () => {
    const d = design();
    const broken = insertField(
      { ...d, fields: d.fields.map((f) => (f.id === 'text1' ? { ...f, label: '' } : f)) },
      { ...newField('formula', '合计', allIds(d)), formula: 'SUM({subtable1.nope})' },
      9,
    );
    const problems = designProblems(broken, 'zh-CN');
    expect(problems.get('text1')).toEqual(['请填写字段名称']);
    expect(problems.get('formula1')?.[0]).toContain('subtable1.nope');
    const noColumns = {
      ...d,
      fields: d.fields.map((f) => (f.type === 'subTable' ? { ...f, columns: [] } : f)),
    };
    expect(designProblems(noColumns, 'en').get('subtable1')).toEqual([
      'A sub-table needs at least one column',
    ]);
  });

  it('duplicates with fresh ids, moves, and renames with the show-when rules following', () => {
    const d = design();
    const copy = duplicateField(d, { id: 'subtable1' }, '（副本）');
    expect(copy.design.fields.map((f) => f.id)).toEqual(['text1', 'select1', 'subtable1', 'subtable2']);
    expect(copy.design.fields[3]?.columns?.[0]?.id).not.toBe('qty');
    const moved = moveField(d, { id: 'subtable1' }, { id: 'text1' });
    expect(moved.fields.map((f) => f.id)).toEqual(['subtable1', 'text1', 'select1']);
    const renamed = renameField(d, { id: 'text1' }, 'company');
    expect(renamed.fields[1]?.showWhen?.rules[0]?.field).toBe('company');
  });

  it('keeps a bounded history and merges edits of the same key', () => {
    let h = startHistory(design());
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) h = pushHistory(h, { ...h.present, labelWidth: 100 + i });
    expect(h.past.length).toBe(HISTORY_LIMIT);
    const before = h.past.length;
    h = pushHistory(h, { ...h.present, labelWidth: 50 }, 'x');
    h = pushHistory(h, { ...h.present, labelWidth: 51 }, 'x');
    expect(h.past.length).toBe(Math.min(before + 1, HISTORY_LIMIT));
    h = undoHistory(h);
    expect(h.present.labelWidth).toBe(100 + HISTORY_LIMIT + 19);
    h = redoHistory(h);
    expect(h.present.labelWidth).toBe(51);
  });

  it('compares designs whatever their key order and unset values', () => {
    const d = design();
    const reordered = JSON.parse(JSON.stringify({ numbering: null, fields: d.fields, labelWidth: 120 }));
    expect(sameDesign(d, reordered)).toBe(true);
    expect(sameDesign(d, { ...d, labelWidth: 90 })).toBe(false);
  });

  it('shows a sample record number', () => {
    const day = { year: 2026, month: 11, day: 22, hour: 0, minute: 0, second: 0 };
    expect(sampleNumber({ prefix: 'HP', datePart: 'yyyyMM', digits: 5 }, day)).toBe('HP20261100001');
    expect(sampleNumber(null, day)).toBe('202611220001');
  });
});
