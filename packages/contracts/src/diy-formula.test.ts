import { describe, expect, it } from 'vitest';
import { evaluateFormula, FormulaError, formulaRefs, parseFormula, roundTo } from './diy-formula.ts';

const run = (source: string, values: Record<string, unknown> = {}) =>
  evaluateFormula(parseFormula(source), (path) => {
    const [head, tail] = path as [string, string | undefined];
    const value = values[head];
    if (tail === undefined) return value;
    return Array.isArray(value) ? value.map((row) => (row as Record<string, unknown>)[tail] ?? null) : null;
  });

describe('formulas', () => {
  it('do arithmetic with precedence, unary minus and parentheses', () => {
    expect(run('1 + 2 * 3')).toBe(7);
    expect(run('(1 + 2) * 3')).toBe(9);
    expect(run('-2 * -3 + 10 % 4')).toBe(8);
    expect(run('{a} * {b} / 100', { a: 250, b: '12' })).toBe(30);
  });

  it('treat empty inputs as nothing and never answer Infinity or NaN', () => {
    expect(run('{a} + {b}', { a: 5 })).toBe(5);
    expect(run('{a} / {b}', { a: 5, b: 0 })).toBeNull();
    expect(run('{a} / 0', { a: 0 })).toBeNull();
  });

  it('aggregate sub-table columns and count rows and filled values', () => {
    const items = [
      { qty: 2, price: 3.5 },
      { qty: 3, price: null },
      { qty: '', price: 1 },
    ];
    expect(run('SUM({items.qty})', { items })).toBe(5);
    expect(run('COUNT({items})', { items })).toBe(3);
    expect(run('COUNT({items.price})', { items })).toBe(2);
    expect(run('AVG({items.price})', { items })).toBe(2.25);
    expect(run('MAX({items.qty}) - MIN({items.qty})', { items })).toBe(1);
    expect(run('SUM({items.qty}, 10)', { items })).toBe(15);
  });

  it('compare, combine conditions and branch with IF', () => {
    expect(run('IF({score} >= 60, 1, 0)', { score: 75 })).toBe(1);
    expect(run('IF({score} >= 60 AND {absent} = 0, "pass", "fail")', { score: 75, absent: 1 })).toBe('fail');
    expect(run('IF(NOT {x} OR {y} <> 2, 1, 2)', { x: 0, y: 2 })).toBe(1);
    expect(run('{kind} = "A"', { kind: 'A' })).toBe(1);
  });

  it('round half away from zero without binary artefacts', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-2.5, 0)).toBe(-3);
    expect(run('ROUND(2 / 3, 2)')).toBe(0.67);
    expect(run('ABS(-4) + CEIL(1.2) + FLOOR(1.8)')).toBe(7);
  });

  it('list the fields they read', () => {
    expect(formulaRefs(parseFormula('SUM({items.qty}) + {a} * COUNT({items})'))).toEqual([
      ['items', 'qty'],
      ['a'],
      ['items'],
    ]);
  });

  it('refuse what does not parse, unknown functions and wrong argument counts', () => {
    for (const [source, code] of [
      ['1 +', 'syntax'],
      ['{a', 'syntax'],
      ['{a.b.c}', 'syntax'],
      ['EVAL(1)', 'unknownFunction'],
      ['IF(1, 2)', 'arity'],
      ['"open', 'syntax'],
      ['1 2', 'syntax'],
      ['process.exit()', 'syntax'],
      ['constructor', 'unknownFunction'],
      ['x'.repeat(1001), 'tooLong'],
    ] as const) {
      expect(() => parseFormula(source), source).toThrow(FormulaError);
      try {
        parseFormula(source);
      } catch (error) {
        expect((error as FormulaError).code, source).toBe(code);
      }
    }
  });
});
