import { describe, expect, it } from 'vitest';
import { en, ru } from './dictionary';
import { localeByte, translate } from './i18n';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('i18n dictionaries', () => {
  it('have the same keys in both languages', () => {
    expect(Object.keys(ru).sort()).toEqual(Object.keys(en).sort());
  });

  it('have a non-empty text for every key in both languages', () => {
    for (const [key, text] of [...Object.entries(en), ...Object.entries(ru)]) {
      expect(text.trim(), key).not.toBe('');
    }
  });

  it('use the same placeholders in both languages', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(placeholders(ru[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('actually translate the labels the UI is tested on', () => {
    expect(ru['nav.schools']).not.toBe(en['nav.schools']);
    expect(ru['menu.create']).not.toBe(en['menu.create']);
  });
});

describe('translate', () => {
  it('fills placeholders', () => {
    expect(translate('en', 'menu.count', { count: 4, max: 6 })).toBe('4 / 6');
    expect(translate('ru', 'menu.limitReached', { max: 6 })).toContain('6');
  });

  it('leaves an unknown placeholder visible rather than empty', () => {
    expect(translate('en', 'menu.count', { count: 1 })).toBe('1 / {max}');
  });

  it('maps the language to the Hello locale byte', () => {
    expect(localeByte('ru')).toBe(0);
    expect(localeByte('en')).toBe(1);
  });
});
