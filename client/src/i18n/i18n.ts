// The active UI language: remembered in localStorage, sent as Hello locale and `?lang=`.
import { dictionaries, LANGUAGES } from './dictionary';
import type { Language, MessageKey } from './dictionary';

export type { Language, MessageKey };

const STORAGE_KEY = 'hschool.lang';
const PLACEHOLDER = /\{(\w+)\}/g;

type Listener = (language: Language) => void;
const listeners = new Set<Listener>();
let current: Language = initialLanguage();

function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

function initialLanguage(): Language {
  const stored = readStorage();
  if (isLanguage(stored)) return stored;
  const browser = typeof navigator === 'undefined' ? '' : navigator.language;
  return browser.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

function readStorage(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null; // storage can be disabled; the language then lasts for the page only
  }
}

export function language(): Language {
  return current;
}

export function setLanguage(next: Language): void {
  if (next === current) return;
  current = next;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, next);
  } catch {
    // Not remembered, but still applied.
  }
  if (typeof document !== 'undefined') document.documentElement.lang = next;
  for (const listener of [...listeners]) listener(next);
}

export function onLanguageChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function translate(lang: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
  return dictionaries[lang][key].replace(PLACEHOLDER, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function t(key: MessageKey, params?: Record<string, string | number>): string {
  return translate(current, key, params);
}

// The Hello locale byte of protocol v4: 0 Russian, 1 English.
export function localeByte(lang: Language = current): number {
  return lang === 'en' ? 1 : 0;
}
