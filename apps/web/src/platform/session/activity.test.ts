import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKey } from '../storage/storage.ts';
import { LAST_ACTIVITY_KEY, lastActivity, recordActivity, trackActivity, watchIdle } from './activity.ts';

const MINUTE = 60_000;

describe('inactivity timer', () => {
  let stopTracking: () => void;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T09:00:00Z'));
    stopTracking = trackActivity();
  });
  afterEach(() => {
    stopTracking();
    vi.useRealTimers();
  });

  it('fires once after the timeout without activity', () => {
    const onIdle = vi.fn();
    watchIdle({ timeoutMs: 5 * MINUTE, onIdle });
    vi.advanceTimersByTime(5 * MINUTE - 1_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(30 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('mouse and key activity reset the timer', () => {
    const onIdle = vi.fn();
    watchIdle({ timeoutMs: 5 * MINUTE, onIdle });
    vi.advanceTimersByTime(4 * MINUTE);
    window.dispatchEvent(new MouseEvent('mousemove'));
    vi.advanceTimersByTime(4 * MINUTE);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    vi.advanceTimersByTime(4 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('activity in another tab (a storage event) counts too', () => {
    const onIdle = vi.fn();
    watchIdle({ timeoutMs: 5 * MINUTE, onIdle });
    vi.advanceTimersByTime(4 * MINUTE);
    const key = storageKey(LAST_ACTIVITY_KEY);
    const at = String(Date.now());
    window.localStorage.setItem(key, at);
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: at }));
    expect(lastActivity()).toBe(Number(at));
    vi.advanceTimersByTime(4 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('shares this tab activity with the others through storage', () => {
    vi.advanceTimersByTime(10_000);
    recordActivity();
    expect(window.localStorage.getItem(storageKey(LAST_ACTIVITY_KEY))).toBe(String(Date.now()));
  });

  it('stops when told', () => {
    const onIdle = vi.fn();
    const stop = watchIdle({ timeoutMs: MINUTE, onIdle });
    stop();
    vi.advanceTimersByTime(10 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
