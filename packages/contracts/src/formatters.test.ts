import { describe, expect, it } from 'vitest';
import {
  amountParts,
  COLUMN_WIDTH,
  cutTabTitle,
  decimalInput,
  digitsOnly,
  estimateColumnsWidth,
  estimateColumnWidth,
  formatAmount,
  formatThousands,
  GREETING_ZH,
  greetingBand,
  greetingZh,
  maskCard,
  maskName,
  maskPhone,
  moneyToChinese,
  percentInput,
  stripChinese,
  stripLetters,
  trimInput,
} from './formatters.ts';

describe('percentInput', () => {
  it.each([
    ['', ''],
    ['5', '5'],
    ['05', '5'],
    ['007', '7'],
    ['0', ''],
    ['50%', '50'],
    [' 3a4 ', '34'],
    ['100', '100'],
    ['101', '100'],
    ['999', '100'],
    ['1000', '100'],
    ['123456', '100'],
    ['12.5', '100'],
    ['1.5', '15'],
    ['-20', '20'],
  ])('%j → %j', (input, expected) => expect(percentInput(input)).toBe(expected));
});

describe('decimalInput', () => {
  it.each([
    ['', ''],
    ['12', '12'],
    ['12.', '12.'],
    ['12.3', '12.3'],
    ['12.345', '12.34'],
    ['.5', '5'],
    ['..5', '5'],
    ['1.2.3', '1.23'],
    ['00', '0'],
    ['007.5', '7.5'],
    ['0.05', '0.05'],
    ['0.', '0.'],
    ['-3.14159', '3.14'],
    [' 1a2b.3c ', '12.3'],
    ['¥1,234.567', '1234.56'],
  ])('%j → %j', (input, expected) => expect(decimalInput(input)).toBe(expected));
  it('takes another number of places', () => {
    expect(decimalInput('1.23456', 3)).toBe('1.234');
    expect(decimalInput('1.9', 0)).toBe('1');
  });
});

describe('character filters', () => {
  it('digitsOnly', () => {
    expect(digitsOnly('a1b2 c3-4.5')).toBe('12345');
    expect(digitsOnly('无')).toBe('');
  });
  it('stripChinese', () => {
    expect(stripChinese('黄浦区Huangpu 310101')).toBe('Huangpu 310101');
    expect(stripChinese('全部中文')).toBe('');
    expect(stripChinese('a，b')).toBe('a，b');
  });
  it('stripLetters', () => {
    expect(stripLetters('abc黄浦123XYZ')).toBe('黄浦123');
  });
  it('trimInput', () => {
    expect(trimInput('  a b  ')).toBe('a b');
    expect(trimInput('\t\n')).toBe('');
  });
});

describe('formatThousands', () => {
  it.each<[number | string, string]>([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [1234567, '1,234,567'],
    [1234567.891, '1,234,567.891'],
    [-1234.5, '-1,234.5'],
    ['1234567', '1,234,567'],
    ['1,234,567.80', '1,234,567.80'],
    ['+1000', '1,000'],
    ['.5', '0.5'],
    ['12.', '12'],
    [1e21, '1,000,000,000,000,000,000,000'],
    ['abc', ''],
    ['', ''],
    ['-', ''],
    [Number.NaN, ''],
    [Number.POSITIVE_INFINITY, ''],
  ])('%j → %j', (input, expected) => expect(formatThousands(input)).toBe(expected));
});

describe('moneyToChinese', () => {
  it.each<[number | string, string]>([
    [1234.56, '壹仟贰佰叁拾肆元伍角陆分'],
    [0, '零元整'],
    [-0, '零元整'],
    [0.001, '零元整'],
    [1, '壹元整'],
    [10, '壹拾元整'],
    [10.5, '壹拾元伍角'],
    [100.05, '壹佰元零伍分'],
    [0.05, '伍分'],
    [0.5, '伍角'],
    [0.56, '伍角陆分'],
    [1001, '壹仟零壹元整'],
    [1010, '壹仟零壹拾元整'],
    [10000, '壹万元整'],
    [100100, '壹拾万零壹佰元整'],
    [101000, '壹拾万壹仟元整'],
    [100010000, '壹亿零壹万元整'],
    [100000001, '壹亿零壹元整'],
    [110000000, '壹亿壹仟万元整'],
    [1000000000000, '壹万亿元整'],
    [123456789012.34, '壹仟贰佰叁拾肆亿伍仟陆佰柒拾捌万玖仟零壹拾贰元叁角肆分'],
    [-1234.5, '负壹仟贰佰叁拾肆元伍角'],
    [9.999, '壹拾元整'],
    ['1,234.56', '壹仟贰佰叁拾肆元伍角陆分'],
    ['  88 ', '捌拾捌元整'],
    ['abc', ''],
    ['', ''],
    [Number.NaN, ''],
    [Number.POSITIVE_INFINITY, ''],
  ])('%j → %s', (input, expected) => expect(moneyToChinese(input)).toBe(expected));
});

describe('masking', () => {
  it('maskName keeps the first character', () => {
    expect(maskName('张三')).toBe('张*');
    expect(maskName('欧阳娜娜')).toBe('欧***');
    expect(maskName('买买提·艾力')).toBe('买*****');
    expect(maskName('张')).toBe('张');
    expect(maskName('')).toBe('');
    expect(maskName('𠀀二')).toBe('𠀀*');
  });
  it('maskPhone keeps 3 + 4', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone('021-63211234')).toBe('021****1234');
    expect(maskPhone('123456')).toBe('123456');
  });
  it('maskCard keeps 6 + 3', () => {
    expect(maskCard('31010119850315001X')).toBe('310101*********01X');
    expect(maskCard('6222021234567890123')).toBe('622202**********123');
    expect(maskCard('1234567890')).toBe('123456*890');
    expect(maskCard('123456789')).toBe('123456789');
  });
});

describe('amounts', () => {
  it.each<[number, string]>([
    [0, '0.00元'],
    [12.3, '12.30元'],
    [9999.99, '9999.99元'],
    [9999.999, '1.00万'],
    [10000, '1.00万'],
    [12345, '1.23万'],
    [99999999, '1.00亿'],
    [100000000, '1.00亿'],
    [123456789, '1.23亿'],
    [1234567890123, '12345.68亿'],
    [-12345, '-1.23万'],
    [-5, '-5.00元'],
    [-0.001, '0.00元'],
    [Number.NaN, ''],
  ])('%j → %s', (input, expected) => expect(formatAmount(input)).toBe(expected));
  it('gives value and unit apart', () => {
    expect(amountParts(250000)).toEqual({ value: '25.00', unit: '万' });
  });
});

describe('column width', () => {
  it('sums letters 8, Chinese 25, others 10 and clamps to 100–650', () => {
    expect(estimateColumnWidth('')).toBe(COLUMN_WIDTH.min);
    expect(estimateColumnWidth(null)).toBe(100);
    expect(estimateColumnWidth('abc')).toBe(100);
    expect(estimateColumnWidth('a'.repeat(20))).toBe(160);
    expect(estimateColumnWidth('统计报表名称')).toBe(150);
    expect(estimateColumnWidth('1234567890ab')).toBe(116);
    expect(estimateColumnWidth('黄浦区 Huangpu 2026')).toBe(3 * 25 + 7 * 8 + 6 * 10);
    expect(estimateColumnWidth(12345678901)).toBe(110);
    expect(estimateColumnWidth('字'.repeat(30))).toBe(650);
  });
  it('takes the widest of several texts', () => {
    expect(estimateColumnsWidth(['名称', '上海市黄浦区南京东路街道'])).toBe(300);
    expect(estimateColumnsWidth([])).toBe(100);
  });
});

describe('greeting', () => {
  it.each([
    [0, 'dawn'],
    [5, 'dawn'],
    [6, 'morning'],
    [8, 'morning'],
    [9, 'forenoon'],
    [11, 'forenoon'],
    [12, 'noon'],
    [13, 'noon'],
    [14, 'afternoon'],
    [16, 'afternoon'],
    [17, 'dusk'],
    [18, 'dusk'],
    [19, 'evening'],
    [21, 'evening'],
    [22, 'night'],
    [23, 'night'],
  ] as const)('hour %i → %s', (hour, band) => expect(greetingBand(hour)).toBe(band));
  it('has the Chinese words of SPEC §8', () => {
    expect(Object.values(GREETING_ZH)).toEqual([
      '凌晨',
      '早上',
      '上午',
      '中午',
      '下午',
      '傍晚',
      '晚上',
      '夜里',
    ]);
    expect(greetingZh(new Date(2026, 0, 1, 10, 30))).toBe('上午');
    expect(greetingZh(new Date(2026, 0, 1, 23, 59))).toBe('夜里');
  });
});

describe('cutTabTitle', () => {
  it('cuts after 10 characters with an ellipsis', () => {
    expect(cutTabTitle('')).toBe('');
    expect(cutTabTitle('首页')).toBe('首页');
    expect(cutTabTitle('一二三四五六七八九十')).toBe('一二三四五六七八九十');
    expect(cutTabTitle('一二三四五六七八九十一')).toBe('一二三四五六七八九十…');
    expect(cutTabTitle('Operation log list')).toBe('Operation …');
    expect(cutTabTitle('abcdef', 3)).toBe('abc…');
  });
});
