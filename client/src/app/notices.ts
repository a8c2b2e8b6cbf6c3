// One app-wide notice (e.g. "that school was deleted") that survives a route change.
import type { MessageKey } from '../i18n/i18n';

export interface Notice {
  key: MessageKey;
  params?: Record<string, string | number>;
  tone: 'info' | 'error';
}

type Listener = (notice: Notice | null) => void;
let current: Notice | null = null;
let navigations = 0;
let shownAt = 0;
const listeners = new Set<Listener>();

export function showNotice(notice: Notice): void {
  current = notice;
  shownAt = navigations;
  for (const listener of listeners) listener(current);
}

export function clearNotice(): void {
  current = null;
  for (const listener of listeners) listener(current);
}

export function currentNotice(): Notice | null {
  return current;
}

export function onNotice(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// A notice survives the navigation right after it (SchoolGone → menu) and is gone after the next.
export function noteNavigation(): void {
  navigations += 1;
  if (current && navigations - shownAt > 1) clearNotice();
}
