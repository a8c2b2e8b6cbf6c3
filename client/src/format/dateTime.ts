// Game dates have no time zone: they travel as UTC and are shown back in UTC, never local time.
import type { Language } from '../i18n/i18n';

const LOCALES: Record<Language, string> = { en: 'en-GB', ru: 'ru-RU' };

const dateFormats = new Map<Language, Intl.DateTimeFormat>();
function dateFormat(lang: Language): Intl.DateTimeFormat {
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALES[lang], {
      timeZone: 'UTC',
      weekday: 'short',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    dateFormats.set(lang, format);
  }
  return format;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

export function formatGameDate(epochMs: number, lang: Language): string {
  return dateFormat(lang).format(new Date(epochMs));
}

export function formatGameTime(epochMs: number): string {
  const date = new Date(epochMs);
  return `${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}`;
}

export function formatGameDateTime(epochMs: number, lang: Language): string {
  return `${formatGameDate(epochMs, lang)}, ${formatGameTime(epochMs)}`;
}

// The value of an <input type="date"> for a UTC instant, and back to the instant at that time.
export function toDateInputValue(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}`;
}

// Keeps the time of day of the default start (e.g. 06:00) when the player only picks a day.
export function fromDateInputValue(value: string, timeOfDayFrom: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const base = new Date(timeOfDayFrom);
  const hours = Number.isNaN(base.getTime()) ? 0 : base.getUTCHours();
  const minutes = Number.isNaN(base.getTime()) ? 0 : base.getUTCMinutes();
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), hours, minutes);
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear undoes that.
  const date = new Date(ms);
  date.setUTCFullYear(Number(match[1]));
  return date.toISOString().replace('.000Z', 'Z');
}

export const SPEED_LABELS = ['×½', '×1', '×2', '×3', '×4'] as const;

export function speedLabel(index: number): string {
  return SPEED_LABELS[index] ?? `×?`;
}
