/**
 * Formulas of report-form fields: a small expression language evaluated the same way in the browser (live
 * while filling) and on the server (which stores its own result, never the client's). No `eval`.
 *
 *   {amount} * {rate} / 100
 *   SUM({items.qty}) + COUNT({items})
 *   IF({score} >= 60, 1, 0)
 *   ROUND(AVG({items.price}), 2)
 *
 * `{id}` is a field of the form (inside a sub-table column's formula: a column of the same row first);
 * `{sub.col}` is every row's value of a sub-table column (an array, for the aggregate functions);
 * `{sub}` is the sub-table's rows (for COUNT). Numbers, strings in double quotes, `+ - * / %`, comparison
 * `= != <> < <= > >=`, `AND OR NOT` (also `&& || !`), parentheses, and the functions of FUNCTIONS.
 */

export type FormulaNode =
  | { kind: 'num'; value: number }
  | { kind: 'str'; value: string }
  | { kind: 'ref'; path: string[] }
  | { kind: 'unary'; op: '-' | '+' | 'not'; arg: FormulaNode }
  | { kind: 'binary'; op: BinaryOp; left: FormulaNode; right: FormulaNode }
  | { kind: 'call'; name: FunctionName; args: FormulaNode[] };

type BinaryOp = '+' | '-' | '*' | '/' | '%' | '=' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

export const FORMULA_FUNCTIONS = [
  'SUM',
  'COUNT',
  'AVG',
  'MAX',
  'MIN',
  'ROUND',
  'ABS',
  'IF',
  'CEIL',
  'FLOOR',
] as const;
type FunctionName = (typeof FORMULA_FUNCTIONS)[number];

/** Why a formula does not parse: a code the UI translates, and where. */
export class FormulaError extends Error {
  constructor(
    readonly code: 'syntax' | 'unknownFunction' | 'arity' | 'tooLong',
    readonly position: number,
    readonly detail = '',
  ) {
    super(`${code} at ${position}${detail ? `: ${detail}` : ''}`);
  }
}

const FORMULA_MAX_LENGTH = 1000;
const ARITY: Record<FunctionName, [number, number]> = {
  SUM: [1, 50],
  COUNT: [1, 50],
  AVG: [1, 50],
  MAX: [1, 50],
  MIN: [1, 50],
  ROUND: [1, 2],
  ABS: [1, 1],
  IF: [3, 3],
  CEIL: [1, 1],
  FLOOR: [1, 1],
};

type Token =
  | { t: 'num'; v: number; p: number }
  | { t: 'str'; v: string; p: number }
  | { t: 'ref'; v: string[]; p: number }
  | { t: 'id'; v: string; p: number }
  | { t: 'op'; v: string; p: number }
  | { t: 'end'; p: number };

const REF_PART = /^[A-Za-z_][A-Za-z0-9_]*$/;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9.]/.test(c)) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i));
      if (!m) throw new FormulaError('syntax', i);
      tokens.push({ t: 'num', v: Number(m[0]), p: i });
      i += m[0].length;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== '"') {
        if (source[j] === '\\' && j + 1 < source.length) j++;
        text += source[j];
        j++;
      }
      if (j >= source.length) throw new FormulaError('syntax', i, 'unterminated string');
      tokens.push({ t: 'str', v: text, p: i });
      i = j + 1;
      continue;
    }
    if (c === '{') {
      const close = source.indexOf('}', i);
      if (close < 0) throw new FormulaError('syntax', i, 'unterminated reference');
      const path = source
        .slice(i + 1, close)
        .split('.')
        .map((part) => part.trim());
      if (path.length > 2 || !path.every((part) => REF_PART.test(part))) throw new FormulaError('syntax', i);
      tokens.push({ t: 'ref', v: path, p: i });
      i = close + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i)) as RegExpExecArray;
      tokens.push({ t: 'id', v: m[0], p: i });
      i += m[0].length;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (['<=', '>=', '!=', '<>', '==', '&&', '||'].includes(two)) {
      tokens.push({ t: 'op', v: two, p: i });
      i += 2;
      continue;
    }
    if ('+-*/%()<>=!,'.includes(c)) {
      tokens.push({ t: 'op', v: c, p: i });
      i++;
      continue;
    }
    throw new FormulaError('syntax', i, c);
  }
  tokens.push({ t: 'end', p: source.length });
  return tokens;
}

const BINARY: Record<string, { op: BinaryOp; prec: number }> = {
  or: { op: 'or', prec: 1 },
  '||': { op: 'or', prec: 1 },
  and: { op: 'and', prec: 2 },
  '&&': { op: 'and', prec: 2 },
  '=': { op: '=', prec: 3 },
  '==': { op: '=', prec: 3 },
  '!=': { op: '!=', prec: 3 },
  '<>': { op: '!=', prec: 3 },
  '<': { op: '<', prec: 4 },
  '<=': { op: '<=', prec: 4 },
  '>': { op: '>', prec: 4 },
  '>=': { op: '>=', prec: 4 },
  '+': { op: '+', prec: 5 },
  '-': { op: '-', prec: 5 },
  '*': { op: '*', prec: 6 },
  '/': { op: '/', prec: 6 },
  '%': { op: '%', prec: 6 },
};

/** Parses a formula; throws FormulaError. */
export function parseFormula(source: string): FormulaNode {
  if (source.length > FORMULA_MAX_LENGTH) throw new FormulaError('tooLong', FORMULA_MAX_LENGTH);
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos] as Token;
  const next = () => tokens[pos++] as Token;
  const binaryOf = (token: Token) => {
    if (token.t === 'op') return BINARY[token.v];
    if (token.t === 'id') return BINARY[token.v.toLowerCase()];
    return undefined;
  };
  const expect = (op: string) => {
    const token = next();
    if (token.t !== 'op' || token.v !== op) throw new FormulaError('syntax', token.p, `expected ${op}`);
  };

  function primary(): FormulaNode {
    const token = next();
    switch (token.t) {
      case 'num':
        return { kind: 'num', value: token.v };
      case 'str':
        return { kind: 'str', value: token.v };
      case 'ref':
        return { kind: 'ref', path: token.v };
      case 'id': {
        const word = token.v.toUpperCase();
        if (word === 'NOT') return { kind: 'unary', op: 'not', arg: unary() };
        if (word === 'TRUE') return { kind: 'num', value: 1 };
        if (word === 'FALSE') return { kind: 'num', value: 0 };
        if (!(FORMULA_FUNCTIONS as readonly string[]).includes(word)) {
          throw new FormulaError('unknownFunction', token.p, token.v);
        }
        const name = word as FunctionName;
        expect('(');
        const args: FormulaNode[] = [];
        if (!(peek().t === 'op' && (peek() as { v: string }).v === ')')) {
          args.push(expression(0));
          while (peek().t === 'op' && (peek() as { v: string }).v === ',') {
            next();
            args.push(expression(0));
          }
        }
        expect(')');
        const [min, max] = ARITY[name];
        if (args.length < min || args.length > max) throw new FormulaError('arity', token.p, name);
        return { kind: 'call', name, args };
      }
      case 'op':
        if (token.v === '(') {
          const inner = expression(0);
          expect(')');
          return inner;
        }
        throw new FormulaError('syntax', token.p, token.v);
      default:
        throw new FormulaError('syntax', token.p, 'unexpected end');
    }
  }

  function unary(): FormulaNode {
    const token = peek();
    if (token.t === 'op' && (token.v === '-' || token.v === '+' || token.v === '!')) {
      next();
      const op = token.v === '!' ? 'not' : token.v;
      return { kind: 'unary', op, arg: unary() };
    }
    return primary();
  }

  function expression(minPrec: number): FormulaNode {
    let left = unary();
    for (;;) {
      const info = binaryOf(peek());
      if (!info || info.prec <= minPrec) break;
      next();
      const right = expression(info.prec);
      left = { kind: 'binary', op: info.op, left, right };
    }
    return left;
  }

  const tree = expression(0);
  const rest = peek();
  if (rest.t !== 'end') throw new FormulaError('syntax', rest.p);
  return tree;
}

/** The field paths a formula reads (`['qty']`, `['items', 'price']`, `['items']`). */
export function formulaRefs(node: FormulaNode): string[][] {
  switch (node.kind) {
    case 'ref':
      return [node.path];
    case 'unary':
      return formulaRefs(node.arg);
    case 'binary':
      return [...formulaRefs(node.left), ...formulaRefs(node.right)];
    case 'call':
      return node.args.flatMap(formulaRefs);
    default:
      return [];
  }
}

/** What a reference resolves to while evaluating. */
export type FormulaScope = (path: string[]) => unknown;

type Value = number | string | null | Value[];

const toNumber = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const n = Number(value.replace(/,/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  return null;
};

const flatNumbers = (values: Value[]): number[] =>
  values
    .flatMap((v) => (Array.isArray(v) ? flatNumbers(v) : [toNumber(v)]))
    .filter((n): n is number => n !== null);

/** Rounds half away from zero at `places`, avoiding binary artefacts such as 1.005 → 1.00. */
export function roundTo(value: number, places = 0): number {
  const factor = 10 ** places;
  const shifted = Math.abs(value) * factor;
  const rounded = Math.round(Number(shifted.toPrecision(15)));
  return (Math.sign(value) * rounded) / factor;
}

/**
 * Evaluates a parsed formula. Empty inputs count as nothing (SUM skips them, arithmetic treats them as 0);
 * division by zero and non-finite results give null, never Infinity or NaN.
 */
export function evaluateFormula(node: FormulaNode, scope: FormulaScope): number | string | null {
  const result = run(node, scope);
  if (Array.isArray(result)) return flatNumbers(result).reduce((a, b) => a + b, 0);
  if (typeof result === 'number') return Number.isFinite(result) ? result : null;
  return result;
}

function run(node: FormulaNode, scope: FormulaScope): Value {
  switch (node.kind) {
    case 'num':
      return node.value;
    case 'str':
      return node.value;
    case 'ref': {
      const value = scope(node.path);
      if (Array.isArray(value)) return value as Value[];
      if (typeof value === 'number' || typeof value === 'string') return value;
      if (typeof value === 'boolean') return value ? 1 : 0;
      return null;
    }
    case 'unary': {
      const arg = run(node.arg, scope);
      if (node.op === 'not') return truthy(arg) ? 0 : 1;
      const n = scalar(arg);
      return node.op === '-' ? -n : n;
    }
    case 'binary':
      return binary(node.op, run(node.left, scope), run(node.right, scope));
    case 'call':
      return call(node.name, node.args, scope);
  }
}

const scalar = (value: Value): number => {
  if (Array.isArray(value)) return flatNumbers(value).reduce((a, b) => a + b, 0);
  return toNumber(value) ?? 0;
};

const truthy = (value: Value): boolean => {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'string') return value !== '' && value !== '0';
  return value !== null && value !== 0;
};

function binary(op: BinaryOp, left: Value, right: Value): Value {
  switch (op) {
    case 'and':
      return truthy(left) && truthy(right) ? 1 : 0;
    case 'or':
      return truthy(left) || truthy(right) ? 1 : 0;
    case '=':
    case '!=': {
      const ln = toNumber(left);
      const rn = toNumber(right);
      const same = ln !== null && rn !== null ? ln === rn : String(left ?? '') === String(right ?? '');
      return (op === '=') === same ? 1 : 0;
    }
    case '<':
      return scalar(left) < scalar(right) ? 1 : 0;
    case '<=':
      return scalar(left) <= scalar(right) ? 1 : 0;
    case '>':
      return scalar(left) > scalar(right) ? 1 : 0;
    case '>=':
      return scalar(left) >= scalar(right) ? 1 : 0;
    case '+':
      return scalar(left) + scalar(right);
    case '-':
      return scalar(left) - scalar(right);
    case '*':
      return scalar(left) * scalar(right);
    case '/': {
      const divisor = scalar(right);
      return divisor === 0 ? null : scalar(left) / divisor;
    }
    case '%': {
      const divisor = scalar(right);
      return divisor === 0 ? null : scalar(left) % divisor;
    }
  }
}

function call(name: FunctionName, args: FormulaNode[], scope: FormulaScope): Value {
  if (name === 'IF') {
    const [cond, then, otherwise] = args as [FormulaNode, FormulaNode, FormulaNode];
    return truthy(run(cond, scope)) ? run(then, scope) : run(otherwise, scope);
  }
  const values = args.map((arg) => run(arg, scope));
  if (name === 'COUNT') {
    // COUNT({sub}) counts rows; COUNT({sub.col}) counts filled values; scalars count when filled.
    return values.reduce<number>((count, v) => {
      if (Array.isArray(v)) return count + v.filter((x) => x !== null && x !== '').length;
      return count + (v === null || v === '' ? 0 : 1);
    }, 0);
  }
  const numbers = flatNumbers(values);
  switch (name) {
    case 'SUM':
      return numbers.reduce((a, b) => a + b, 0);
    case 'AVG':
      return numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : null;
    case 'MAX':
      return numbers.length ? Math.max(...numbers) : null;
    case 'MIN':
      return numbers.length ? Math.min(...numbers) : null;
    case 'ROUND':
      return roundTo(
        scalar(values[0] ?? null),
        Math.max(0, Math.min(10, Math.trunc(scalar(values[1] ?? 0)))),
      );
    case 'ABS':
      return Math.abs(scalar(values[0] ?? null));
    case 'CEIL':
      return Math.ceil(scalar(values[0] ?? null));
    case 'FLOOR':
      return Math.floor(scalar(values[0] ?? null));
  }
}
