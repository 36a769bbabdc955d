import { describe, expect, it } from 'vitest';
import {
  creditCodeCheckChar,
  formPasswordProblem,
  idCardCheckChar,
  isAccount,
  isAccountAlt,
  isChineseName,
  isCreditCode,
  isEmail,
  isFormPassword,
  isIdCard,
  isIPv4,
  isLandline,
  isLicensePlate,
  isMobile,
  isPostcode,
  isStrongPassword,
  isUrl,
  PASSWORD_STRENGTH_ZH,
  parseIdCard,
  passwordStrength,
} from './validators.ts';

/** Builds a valid ID number from its first 17 digits. */
const id = (first17: string) => first17 + idCardCheckChar(first17);

describe('isMobile', () => {
  it.each([
    '12012345678',
    '13012345678',
    '13912345678',
    '14512345678',
    '14712345678',
    '15012345678',
    '15912345678',
    '18012345678',
    '18912345678',
  ])('accepts %s', (v) => expect(isMobile(v)).toBe(true));
  it.each([
    ['14012345678', '14x other than 145/147'],
    ['14612345678', '146'],
    ['16612345678', '16x'],
    ['17712345678', '17x'],
    ['19912345678', '19x'],
    ['1381234567', '10 digits'],
    ['138123456789', '12 digits'],
    ['23812345678', 'not starting with 1'],
    ['1381234567a', 'letter'],
    [' 13812345678', 'leading space'],
    ['+8613812345678', 'country code'],
    ['', 'empty'],
  ])('rejects %s (%s)', (v) => expect(isMobile(v)).toBe(false));
  it('rejects non-strings', () => {
    expect(isMobile(13812345678)).toBe(false);
    expect(isMobile(null)).toBe(false);
    expect(isMobile(undefined)).toBe(false);
  });
});

describe('isLandline', () => {
  it.each(['021-63211234', '0571-1234567', '63211234', '1234567'])('accepts %s', (v) =>
    expect(isLandline(v)).toBe(true),
  );
  it.each(['021-1234567', '0571-12345678', '021 63211234', '12345', '123456789', '02163211234', '021-', ''])(
    'rejects %s',
    (v) => expect(isLandline(v)).toBe(false),
  );
});

describe('account names', () => {
  it('isAccount: letter first, 5–16 of letters, digits, underscore', () => {
    for (const ok of ['admin', 'a1234', 'Abc_d', 'superadmin', 'a'.repeat(16), 'user_01']) {
      expect(isAccount(ok), ok).toBe(true);
    }
    for (const bad of [
      'abcd',
      'a'.repeat(17),
      '1admin',
      '_admin',
      'ad min',
      'admin-1',
      '管理员abc',
      'admín',
      '',
    ]) {
      expect(isAccount(bad), bad).toBe(false);
    }
  });
  it('isAccountAlt: letter first, 6–16 word characters', () => {
    expect(isAccountAlt('admin')).toBe(false);
    expect(isAccountAlt('admin1')).toBe(true);
    expect(isAccountAlt('a'.repeat(16))).toBe(true);
    expect(isAccountAlt('a'.repeat(17))).toBe(false);
    expect(isAccountAlt('9admin')).toBe(false);
  });
});

describe('isStrongPassword', () => {
  it.each([
    'Abcdefgh123!',
    'abcdefgh123!',
    'ABCDEFGH123~',
    'abc123~!@#$%^&.*',
    'Shuzhi@2026ab',
    'a1.a1.a1.a1.',
    'Abcdefgh 123!',
    '密码Abcdefgh123!',
  ])('accepts %s', (v) => expect(isStrongPassword(v)).toBe(true));
  it.each([
    ['Abc123!', 'too short'],
    ['Abcdefgh12!', '11 characters'],
    ['Abcdefgh123!x1234', '17 characters'],
    ['abcdefgh1234', 'no symbol'],
    ['Abcdefghijk1', 'no symbol, though upper and lower case'],
    ['ABCDEFGHIJK!', 'no digit'],
    ['123456789012', 'digits only'],
    ['1234567890!.', 'no letter'],
    ['Abcdefgh123(', 'symbol outside the set'],
  ])('rejects %s (%s)', (v) => expect(isStrongPassword(v)).toBe(false));
  it('rejects non-strings', () => expect(isStrongPassword(123456789012)).toBe(false));
});

describe('passwordStrength', () => {
  it('is null outside 6–16 characters', () => {
    expect(passwordStrength('')).toBeNull();
    expect(passwordStrength('abc12')).toBeNull();
    expect(passwordStrength('Abcdefgh12345!@#x')).toBeNull();
    expect(passwordStrength(undefined)).toBeNull();
  });
  it('grades by kinds and length', () => {
    expect(passwordStrength('abcdef')).toBe('weak');
    expect(passwordStrength('123456')).toBe('weak');
    expect(passwordStrength('abcdefghijklmnop')).toBe('weak');
    expect(passwordStrength('abc123')).toBe('medium');
    expect(passwordStrength('abcdefghij12345')).toBe('medium');
    expect(passwordStrength('Abc12!')).toBe('medium');
    expect(passwordStrength('Abc123456')).toBe('medium');
    expect(passwordStrength('Abc1234567')).toBe('strong');
    expect(passwordStrength('Shuzhi@2026')).toBe('strong');
    expect(passwordStrength('密码密码12345')).toBe('medium');
  });
  it('has Chinese labels', () => {
    expect(PASSWORD_STRENGTH_ZH).toEqual({ weak: '弱', medium: '中', strong: '强' });
  });
});

describe('form password', () => {
  it('is 6–12 characters', () => {
    expect(isFormPassword('123456')).toBe(true);
    expect(isFormPassword('123456789012')).toBe(true);
    expect(isFormPassword('12345')).toBe(false);
    expect(isFormPassword('1234567890123')).toBe(false);
  });
  it('says why', () => {
    expect(formPasswordProblem('')).toBe('empty');
    expect(formPasswordProblem(null)).toBe('empty');
    expect(formPasswordProblem('abc')).toBe('length');
    expect(formPasswordProblem('密码密码密码')).toBeNull();
    expect(formPasswordProblem('abcdef')).toBeNull();
  });
});

describe('isIPv4', () => {
  it.each(['0.0.0.0', '127.0.0.1', '192.168.1.254', '255.255.255.255', '10.0.0.10'])('accepts %s', (v) =>
    expect(isIPv4(v)).toBe(true),
  );
  it.each(['256.0.0.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.-4', 'a.b.c.d', '1.2.3.4 ', '::1', ''])(
    'rejects %s',
    (v) => expect(isIPv4(v)).toBe(false),
  );
});

describe('isEmail', () => {
  it.each(['a@b.cn', 'zhang.san@huangpu.gov.cn', 'user+tag@example.com', 'x_y-z@mail.example.org'])(
    'accepts %s',
    (v) => expect(isEmail(v)).toBe(true),
  );
  it.each([
    'plain',
    '@example.com',
    'a@',
    'a@b',
    'a@b.c',
    'a..b@example.com',
    '.a@example.com',
    'a.@example.com',
    'a@-b.com',
    'a@b-.com',
    'a b@example.com',
    'a@b@example.com',
    '张三@example.com',
  ])('rejects %s', (v) => expect(isEmail(v)).toBe(false));
  it('rejects over-long addresses', () => {
    expect(isEmail(`${'a'.repeat(250)}@b.cn`)).toBe(false);
  });
});

describe('isPostcode', () => {
  it('is six digits', () => {
    expect(isPostcode('200001')).toBe(true);
    expect(isPostcode('20000')).toBe(false);
    expect(isPostcode('2000011')).toBe(false);
    expect(isPostcode('20000a')).toBe(false);
  });
});

describe('isUrl', () => {
  it.each([
    'http://example.com',
    'https://www.shanghai.gov.cn/path?q=1#h',
    'https://127.0.0.1:5005/api',
    'ftp://files.example.com/a.txt',
    'HTTPS://EXAMPLE.COM',
    'http://localhost:5005/#/scancode?QrCodeType=1',
    'https://user:pw@example.com/',
    'http://[::1]:8080/',
    'https://黄浦.政务.cn/',
  ])('accepts %s', (v) => expect(isUrl(v)).toBe(true));
  it.each([
    'example.com',
    '//example.com',
    'javascript:alert(1)',
    'mailto:a@b.cn',
    'http://',
    'http://exa mple.com',
    'https:/example.com/x y',
    'http://example',
    'http://300.1.1.1/',
    'http://example.com:port/',
    'http://-example.com/',
    '',
  ])('rejects %s', (v) => expect(isUrl(v)).toBe(false));
});

describe('isChineseName', () => {
  it.each(['张', '张三', '欧阳娜娜', '爱新觉罗溥仪', '买买提·艾力', '阿卜杜拉·买买提·艾力'])(
    'accepts %s',
    (v) => expect(isChineseName(v)).toBe(true),
  );
  it.each([
    '',
    '爱新觉罗溥仪二',
    '张3',
    'Zhang San',
    '张 三',
    '·张三',
    '张三·',
    '张··三',
    '阿·卜·杜·拉',
    '买买提·艾力艾力艾力艾',
  ])('rejects %s', (v) => expect(isChineseName(v)).toBe(false));
});

describe('isLicensePlate', () => {
  it.each([
    ['沪A12345', 'ordinary'],
    ['京BD1234', 'ordinary with letter'],
    ['沪A1234挂', 'trailer'],
    ['粤B1234学', 'learner'],
    ['粤Z1234港', 'Hong Kong'],
    ['沪AD12345', 'new-energy small, pure electric'],
    ['沪AF12345', 'new-energy small, hybrid'],
    ['沪ADA1234', 'new-energy small with a letter'],
    ['沪AA12345', 'new-energy small, 2022 letters'],
    ['沪A12345D', 'new-energy large'],
    ['沪A12345F', 'new-energy large hybrid'],
  ])('accepts %s (%s)', (v) => expect(isLicensePlate(v)).toBe(true));
  it.each([
    ['沪I12345', 'letter I'],
    ['沪O12345', 'letter O'],
    ['A12345', 'no province'],
    ['X沪12345', 'bad province'],
    ['沪A1234', 'too short'],
    ['沪A123456', 'new-energy without energy letter'],
    ['沪A12345X', 'large with wrong energy letter'],
    ['沪AD123', 'too short for any kind'],
    ['沪a12345', 'lower case'],
    ['沪A12345挂挂', 'too long'],
  ])('rejects %s (%s)', (v) => expect(isLicensePlate(v)).toBe(false));
});

describe('resident ID number', () => {
  const today = new Date(2026, 10, 21);

  it('computes the check character', () => {
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(() => idCardCheckChar('1234')).toThrow(RangeError);
  });

  it('reads birth date, sex and age', () => {
    expect(parseIdCard('11010519491231002X', today)).toEqual({ birthDate: '1949-12-31', sex: 2, age: 76 });
    expect(parseIdCard('11010519491231002x', today)?.sex).toBe(2);
    expect(parseIdCard(id('31010119850315001'), today)).toEqual({ birthDate: '1985-03-15', sex: 1, age: 41 });
  });

  it('counts age in full years around the birthday', () => {
    const n = id('31010119901121003');
    expect(parseIdCard(n, new Date(2026, 10, 20))?.age).toBe(35);
    expect(parseIdCard(n, new Date(2026, 10, 21))?.age).toBe(36);
    expect(parseIdCard(id('31010120261121003'), today)?.age).toBe(0);
  });

  it('handles leap days', () => {
    expect(isIdCard(id('31010120000229001'), today)).toBe(true);
    expect(isIdCard(id('31010119000229001'), today)).toBe(false);
    expect(isIdCard(id('31010120010229001'), today)).toBe(false);
  });

  it('rejects wrong numbers', () => {
    const good = id('31010119850315001');
    const wrongCheck = good.slice(0, 17) + (good[17] === '0' ? '1' : '0');
    expect(isIdCard(wrongCheck, today)).toBe(false);
    expect(isIdCard(id('99010119850315001'), today)).toBe(false);
    expect(isIdCard(id('31010119851315001'), today)).toBe(false);
    expect(isIdCard(id('31010119850132001'), today)).toBe(false);
    expect(isIdCard(id('31010118990101001'), today)).toBe(false);
    expect(isIdCard(id('31010120261122001'), today)).toBe(false);
    expect(isIdCard('31010119850315001', today)).toBe(false);
    expect(isIdCard(`${good}1`, today)).toBe(false);
    expect(isIdCard('3101011985031500A', today)).toBe(false);
    expect(isIdCard(31010119850315, today)).toBe(false);
  });
});

describe('unified social credit code', () => {
  it('accepts real codes and rejects a wrong check character', () => {
    expect(isCreditCode('91440300708461136T')).toBe(true);
    expect(isCreditCode('91330100716105852F')).toBe(true);
    expect(isCreditCode('91440300708461136U')).toBe(false);
    expect(isCreditCode('91440300708461136')).toBe(false);
    expect(isCreditCode('9144030070846113IT')).toBe(false);
  });
  it('computes check characters', () => {
    expect(creditCodeCheckChar('9144030071526726X')).toBe('G');
    expect(() => creditCodeCheckChar('abc')).toThrow(RangeError);
  });
});
