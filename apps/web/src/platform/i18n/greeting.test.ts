import { cutTabTitle, greetingBand } from '@shuzhi/contracts/formatters';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';

const loginToast = (hour: number, lng = 'zh-CN') =>
  i18n.t('greeting.loginSuccess', { lng, greeting: i18n.t(`greeting.${greetingBand(hour)}`, { lng }) });

describe('login greeting', () => {
  it.each([
    [0, '凌晨'],
    [5, '凌晨'],
    [6, '早上'],
    [8, '早上'],
    [9, '上午'],
    [11, '上午'],
    [12, '中午'],
    [13, '中午'],
    [14, '下午'],
    [16, '下午'],
    [17, '傍晚'],
    [18, '傍晚'],
    [19, '晚上'],
    [21, '晚上'],
    [22, '夜里'],
    [23, '夜里'],
  ])('at %i:00 says %s，登录成功', (hour, band) => {
    expect(loginToast(hour)).toBe(`${band}，登录成功`);
  });

  it('is translated', () => {
    expect(loginToast(10, 'en')).toBe('Good morning, you have signed in');
    expect(loginToast(23, 'zh-TW')).toBe('夜裡，登入成功');
  });
});

describe('tab title', () => {
  it('keeps titles of up to 10 characters and cuts longer ones with an ellipsis', () => {
    expect(cutTabTitle('个人中心')).toBe('个人中心');
    expect(cutTabTitle('一二三四五六七八九十')).toBe('一二三四五六七八九十');
    expect(cutTabTitle('一二三四五六七八九十十一')).toBe('一二三四五六七八九十…');
    expect(cutTabTitle('Organisation management')).toBe('Organisati…');
  });
});
