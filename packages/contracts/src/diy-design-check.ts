import { type AnyField, CHOICE_TYPES, type FormDesign, LAYOUT_TYPES, type SubField } from './diy-form.ts';
import { FormulaError, type FormulaNode, formulaRefs, parseFormula } from './diy-formula.ts';
import { normalise } from './diy-validate.ts';
import type { Localized } from './i18n.ts';

/**
 * The checks of a form's design (the designer shows the problems; the server refuses to save a design that has
 * any): ids, options, formulas and their references, show-when rules, patterns, bounds, sub-tables, defaults.
 * The checks of a record's values are in diy-validate.ts.
 */

const DESIGN_PROBLEMS = [
  'duplicateId',
  'noOptions',
  'badFormula',
  'formulaRef',
  'formulaCycle',
  'showWhenRef',
  'badPattern',
  'badBounds',
  'nestedSubTable',
  'noColumns',
  'badDefault',
] as const;
export type DesignProblemCode = (typeof DESIGN_PROBLEMS)[number];
export type DesignProblem = { fieldId: string; code: DesignProblemCode; detail?: string };

export const DESIGN_PROBLEM_TEXTS: Record<DesignProblemCode, Localized> = {
  duplicateId: { 'zh-CN': '字段标识重复', en: 'The field id is used twice', 'zh-TW': '欄位標識重複' },
  noOptions: {
    'zh-CN': '请设置选项或字典',
    en: 'Set the options or a dictionary',
    'zh-TW': '請設定選項或字典',
  },
  badFormula: {
    'zh-CN': '公式有误：{detail}',
    en: 'The formula is not valid: {detail}',
    'zh-TW': '公式有誤：{detail}',
  },
  formulaRef: {
    'zh-CN': '公式引用了不存在或不能计算的字段：{detail}',
    en: 'The formula refers to a field that does not exist or cannot be computed: {detail}',
    'zh-TW': '公式引用了不存在或不能計算的欄位：{detail}',
  },
  formulaCycle: {
    'zh-CN': '公式之间存在循环引用',
    en: 'Formulas refer to each other in a cycle',
    'zh-TW': '公式之間存在循環引用',
  },
  showWhenRef: {
    'zh-CN': '显示条件引用了不存在的字段：{detail}',
    en: 'The show-when rule refers to a missing field: {detail}',
    'zh-TW': '顯示條件引用了不存在的欄位：{detail}',
  },
  badPattern: {
    'zh-CN': '校验正则无效或可能导致性能问题',
    en: 'The pattern is not a valid or safe regular expression',
    'zh-TW': '校驗正則無效或可能導致效能問題',
  },
  badBounds: {
    'zh-CN': '最小值不能大于最大值',
    en: 'The minimum is above the maximum',
    'zh-TW': '最小值不能大於最大值',
  },
  nestedSubTable: {
    'zh-CN': '子表中不能再放子表或布局控件',
    en: 'A sub-table cannot hold another sub-table or layout items',
    'zh-TW': '子表中不能再放子表或版面控制項',
  },
  noColumns: {
    'zh-CN': '子表至少需要一列',
    en: 'A sub-table needs at least one column',
    'zh-TW': '子表至少需要一欄',
  },
  badDefault: {
    'zh-CN': '默认值不符合字段规则',
    en: 'The default value breaks the field’s rules',
    'zh-TW': '預設值不符合欄位規則',
  },
};

/** Nested quantifiers such as `(a+)+` or `(a*)*` can take exponential time: refused in designs. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{]/;

/** Problems of a design that would make it unusable (the designer shows them; the server refuses to save). */
export function validateDesign(design: Pick<FormDesign, 'fields'>): DesignProblem[] {
  const problems: DesignProblem[] = [];
  const topIds = new Set<string>();
  for (const field of design.fields) {
    if (topIds.has(field.id)) problems.push({ fieldId: field.id, code: 'duplicateId' });
    topIds.add(field.id);
  }
  const checkLevel = (
    fields: readonly AnyField[],
    ids: Set<string>,
    outerIds: Set<string> | null,
    subTables: Map<string, Set<string>>,
  ) => {
    for (const field of fields) {
      if (CHOICE_TYPES.includes(field.type) && !field.options)
        problems.push({ fieldId: field.id, code: 'noOptions' });
      if (typeof field.min === 'number' && typeof field.max === 'number' && field.min > field.max) {
        problems.push({ fieldId: field.id, code: 'badBounds' });
      } else if (typeof field.min === 'string' && typeof field.max === 'string' && field.min > field.max) {
        problems.push({ fieldId: field.id, code: 'badBounds' });
      } else if (field.minLength && field.maxLength && field.minLength > field.maxLength) {
        problems.push({ fieldId: field.id, code: 'badBounds' });
      } else if (field.minRows && field.maxRows && field.minRows > field.maxRows) {
        problems.push({ fieldId: field.id, code: 'badBounds' });
      }
      if (field.pattern?.regex) {
        let ok = !NESTED_QUANTIFIER.test(field.pattern.regex);
        try {
          new RegExp(field.pattern.regex, 'u');
        } catch {
          ok = false;
        }
        if (!ok) problems.push({ fieldId: field.id, code: 'badPattern' });
      }
      for (const rule of field.showWhen?.rules ?? []) {
        if (rule.field === field.id || (!ids.has(rule.field) && !outerIds?.has(rule.field))) {
          problems.push({ fieldId: field.id, code: 'showWhenRef', detail: rule.field });
        }
      }
      if (field.type === 'formula') {
        let node: FormulaNode | null = null;
        try {
          node = parseFormula(field.formula ?? '');
        } catch (error) {
          const detail = error instanceof FormulaError ? `${error.code}@${error.position}` : 'syntax';
          problems.push({ fieldId: field.id, code: 'badFormula', detail });
        }
        for (const path of node ? formulaRefs(node) : []) {
          const [head, tail] = path as [string, string | undefined];
          const known =
            tail === undefined
              ? ids.has(head) || outerIds?.has(head) === true
              : subTables.get(head)?.has(tail) === true;
          if (!known || head === field.id)
            problems.push({ fieldId: field.id, code: 'formulaRef', detail: path.join('.') });
        }
      }
      if (field.default && field.default.kind === 'constant' && field.default.value !== undefined) {
        const { error } = normalise(field, field.default.value);
        if (error) problems.push({ fieldId: field.id, code: 'badDefault' });
      }
    }
    // Cycles among the level's formulas.
    const graph = new Map<string, string[]>();
    for (const f of fields) {
      if (f.type !== 'formula') continue;
      try {
        graph.set(
          f.id,
          formulaRefs(parseFormula(f.formula ?? '')).map((p) => p[0] as string),
        );
      } catch {
        graph.set(f.id, []);
      }
    }
    const state = new Map<string, 1 | 2>();
    const cyclic = (id: string): boolean => {
      if (state.get(id) === 1) return true;
      if (state.get(id) === 2) return false;
      state.set(id, 1);
      for (const dep of graph.get(id) ?? []) if (graph.has(dep) && cyclic(dep)) return true;
      state.set(id, 2);
      return false;
    };
    for (const id of graph.keys()) {
      if (cyclic(id)) {
        problems.push({ fieldId: id, code: 'formulaCycle' });
        break;
      }
    }
  };

  const subTables = new Map<string, Set<string>>();
  for (const field of design.fields) {
    if (field.type !== 'subTable') continue;
    const columns = field.columns ?? [];
    if (columns.length === 0) problems.push({ fieldId: field.id, code: 'noColumns' });
    const ids = new Set<string>();
    for (const column of columns) {
      if (ids.has(column.id)) problems.push({ fieldId: `${field.id}.${column.id}`, code: 'duplicateId' });
      ids.add(column.id);
      if (column.type === 'subTable' || LAYOUT_TYPES.includes(column.type)) {
        problems.push({ fieldId: `${field.id}.${column.id}`, code: 'nestedSubTable' });
      }
    }
    subTables.set(field.id, ids);
  }
  checkLevel(design.fields, topIds, null, subTables);
  for (const field of design.fields) {
    if (field.type !== 'subTable') continue;
    checkLevel((field.columns ?? []) as SubField[], subTables.get(field.id) ?? new Set(), topIds, subTables);
  }
  return problems;
}
