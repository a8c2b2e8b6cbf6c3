// The name a visitor plays under (/player?name=): remembered in localStorage, a random guest name otherwise.
import { cleanName } from './format';

const NAME_KEY = 'hschool.hns.name';
const NAME_SUFFIX_RANGE = 10_000;

export function playerName(): string {
  try {
    const stored = cleanName(globalThis.localStorage?.getItem(NAME_KEY) ?? '');
    if (stored) return stored;
  } catch {
    // storage may be disabled
  }
  return `Guest${Math.floor(Math.random() * NAME_SUFFIX_RANGE)}`;
}

export function rememberName(name: string): void {
  try {
    globalThis.localStorage?.setItem(NAME_KEY, name);
  } catch {
    // not remembered, still used
  }
}
