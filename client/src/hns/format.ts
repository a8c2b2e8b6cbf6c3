// Words and numbers the hide-and-seek pages show, as pure functions of the parsed REST and labels.
import type { MessageKey } from '../i18n/i18n';
import type { MatchSummary, SeatKind, Side } from './api';

export const TICKS_PER_SECOND = 24;

// Live speed keys of /global (§2.8): each selects 1, 2, 3, 4, 8 or 16 ticks per frame.
export const SPEED_KEYS: ReadonlyArray<{ key: string; label: string }> = [
  { key: '1', label: '1×' },
  { key: '2', label: '2×' },
  { key: '3', label: '3×' },
  { key: '4', label: '4×' },
  { key: '8', label: '8×' },
  { key: '6', label: '16×' },
];

export function secondsLeft(ticks: number | null): number | null {
  return ticks === null || ticks < 0 ? null : Math.ceil(ticks / TICKS_PER_SECOND);
}

// What stage a match is in, as one key: the lobby, a game's prep or hunt, between games, or done.
export function stageKey(match: Pick<MatchSummary, 'phase' | 'matchPhase'>): MessageKey {
  switch (match.phase) {
    case 'lobby': return 'hns.phase.lobby';
    case 'game_over': return 'hns.phase.gameOver';
    case 'finished': return 'hns.phase.finished';
    case 'stopped': return 'hns.phase.stopped';
    case 'playing': return match.matchPhase === 'prep' ? 'hns.phase.prep' : match.matchPhase === 'hunt' ? 'hns.phase.hunt' : 'hns.phase.playing';
  }
}

// The same for the replay chrome's free-form `ph`/`mp` strings.
export function chromeStageKey(phase: string | null, matchPhase: string | null): MessageKey | null {
  const ph = (phase ?? '').toLowerCase();
  const mp = (matchPhase ?? '').toLowerCase();
  if (ph.includes('lobby')) return 'hns.phase.lobby';
  if (ph.includes('over') || ph.includes('end')) return 'hns.phase.gameOver';
  if (ph.includes('finish')) return 'hns.phase.finished';
  if (mp.includes('prep')) return 'hns.phase.prep';
  if (mp.includes('hunt')) return 'hns.phase.hunt';
  if (ph.includes('play')) return 'hns.phase.playing';
  return null;
}

export const sideKey = (side: Side): MessageKey => (side === 'hider' ? 'hns.side.hider' : 'hns.side.seeker');

export const KIND_KEYS: Readonly<Record<SeatKind, MessageKey>> = {
  scripted: 'hns.kind.scripted',
  external: 'hns.kind.external',
  prompt: 'hns.kind.prompt',
  manual: 'hns.kind.manual',
  empty: 'hns.kind.empty',
};

// Share of hunt ticks the hiders stayed hidden, 0..1, or null before any tick was scored.
export function hiddenShare(hidden: number, seen: number): number | null {
  const total = hidden + seen;
  return total > 0 ? hidden / total : null;
}

export function formatFinishedAt(ms: number | null, lang: string): string {
  if (ms === null) return '—';
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString(lang === 'ru' ? 'ru-RU' : 'en-GB', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'UTC' }) + ' UTC';
}

// A visitor's display name for /player: letters, digits, '-' and '_' only, at most 24 characters.
export const MAX_NAME_CHARS = 24;
export function cleanName(raw: string): string {
  return raw.trim().replace(/\s+/g, '_').replace(/[^\p{L}\p{N}_-]/gu, '').slice(0, MAX_NAME_CHARS);
}
