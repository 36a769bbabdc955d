import { formDesignSchema } from '@shuzhi/contracts/diy-form';
import { describe, expect, it } from 'vitest';
import {
  columnFor,
  type DataColumn,
  type DataRow,
  dataTableName,
  fromRow,
  safeColumn,
  toColumnValues,
} from '../src/platform/diy/data-table.ts';

/** The per-form table helpers: identifiers, the column of a version, values to columns and back. */

const columns: DataColumn[] = [
  { fieldId: 'qty', columnName: 'f_qty', storageKind: 'integer', createdVersion: 1 },
  { fieldId: 'tags', columnName: 'f_tags', storageKind: 'json', createdVersion: 1 },
  { fieldId: 'qty', columnName: 'f_qty_2', storageKind: 'text', createdVersion: 3 },
  { fieldId: 'rate', columnName: 'f_rate', storageKind: 'decimal', createdVersion: 2 },
];

describe('data-table identifiers', () => {
  it('builds names from numbers and checked field ids only', () => {
    expect(dataTableName(42)).toBe('diy_data_42');
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 60]) expect(() => dataTableName(bad)).toThrow();
    expect(safeColumn('f_qty_2')).toBe('f_qty_2');
    for (const bad of ['f_Qty', 'f_qty; drop table x', 'id', 'f_', 'f_1a', `f_${'a'.repeat(25)}`]) {
      expect(() => safeColumn(bad)).toThrow();
    }
  });
});

describe('columns of a version', () => {
  it('reads each version from the column that was current for it', () => {
    expect(columnFor(columns, 'qty', 1)?.columnName).toBe('f_qty');
    expect(columnFor(columns, 'qty', 2)?.columnName).toBe('f_qty');
    expect(columnFor(columns, 'qty', 3)?.columnName).toBe('f_qty_2');
    expect(columnFor(columns, 'rate', 1)).toBeNull();
    expect(columnFor(columns, 'nope', 9)).toBeNull();
  });

  it('turns values into column values and back, JSON for json kinds and numbers for numeric ones', () => {
    const v1 = formDesignSchema.parse({
      fields: [
        { id: 'qty', type: 'integer', label: '数量' },
        {
          id: 'tags',
          type: 'checkbox',
          label: '标签',
          options: { source: 'options', items: [{ label: 'A', value: 'a' }] },
        },
        { id: 'sec', type: 'section', label: '分组' },
      ],
    });
    const stored = toColumnValues(v1, columns, 1, { qty: 3, tags: ['a'], sec: 'ignored' });
    expect(stored).toEqual({ f_qty: 3, f_tags: '["a"]' });
    const row = { version: 1, f_qty: '3', f_tags: '["a"]', f_qty_2: 'x' } as unknown as DataRow;
    expect(fromRow(v1, columns, row)).toEqual({ qty: 3, tags: ['a'] });

    const v3 = formDesignSchema.parse({
      fields: [
        { id: 'qty', type: 'text', label: '数量说明' },
        { id: 'rate', type: 'percent', label: '比例' },
      ],
    });
    expect(toColumnValues(v3, columns, 3, { qty: '三箱', rate: 1.5 })).toEqual({
      f_qty_2: '三箱',
      f_rate: 1.5,
    });
    // PostgreSQL answers numeric columns as text.
    const newer = { version: 3, f_qty: 7, f_qty_2: '三箱', f_rate: '1.500000' } as unknown as DataRow;
    expect(fromRow(v3, columns, newer)).toEqual({ qty: '三箱', rate: 1.5 });
  });
});
