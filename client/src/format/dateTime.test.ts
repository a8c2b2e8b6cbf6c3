import { describe, expect, it } from 'vitest';
import { formatGameDate, formatGameDateTime, formatGameTime, fromDateInputValue, speedLabel, toDateInputValue } from './dateTime';

// 2012-04-03 23:30 UTC: in any zone east of UTC this is already 4 April locally.
const LATE_EVENING_UTC = Date.UTC(2012, 3, 3, 23, 30);

describe('game date formatting', () => {
  it('formats the time of day in UTC', () => {
    expect(formatGameTime(LATE_EVENING_UTC)).toBe('23:30');
    expect(formatGameTime(Date.UTC(2012, 3, 3, 6, 5))).toBe('06:05');
  });

  it('formats the date in UTC in English', () => {
    const text = formatGameDate(LATE_EVENING_UTC, 'en');
    expect(text).toContain('3');
    expect(text).toContain('April');
    expect(text).toContain('2012');
    expect(text).not.toContain('4 April');
  });

  it('formats the date in UTC in Russian', () => {
    const text = formatGameDate(LATE_EVENING_UTC, 'ru');
    expect(text).toContain('3 апреля');
    expect(text).toContain('2012');
  });

  it('handles dates before 1970 (the 1900 lower bound)', () => {
    expect(formatGameDateTime(Date.UTC(1900, 0, 1, 0, 0), 'en')).toMatch(/1 January 1900, 00:00$/);
  });

  it('names the five speeds', () => {
    expect([0, 1, 2, 3, 4].map(speedLabel)).toEqual(['×½', '×1', '×2', '×3', '×4']);
  });
});

describe('date input conversion', () => {
  it('reads the UTC day of an instant', () => {
    expect(toDateInputValue('2012-04-03T23:30:00Z')).toBe('2012-04-03');
    expect(toDateInputValue('not a date')).toBe('');
  });

  it('keeps the default time of day when the player picks a day', () => {
    expect(fromDateInputValue('2015-09-01', '2012-04-03T06:00:00Z')).toBe('2015-09-01T06:00:00Z');
  });

  it('rejects a malformed day', () => {
    expect(fromDateInputValue('', '2012-04-03T06:00:00Z')).toBeNull();
    expect(fromDateInputValue('2015-9-1', '2012-04-03T06:00:00Z')).toBeNull();
  });
});
