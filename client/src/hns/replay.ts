// Replay transport (spec §2.8): every command is 0x81 text; a seek is "s:<tick>".
export const REPLAY_KEYS = {
  toggle: ' ',
  play: 'p',
  pause: 'P',
  restart: ',',
  back: 'b',
  forward: '.',
  end: 'e',
  faster: '+',
  slower: '-',
} as const;

// A seek to a whole tick in [0, end]; null for something that is not a number.
export function seekCommand(tick: number, end: number | null): string | null {
  if (!Number.isFinite(tick)) return null;
  let target = Math.max(0, Math.round(tick));
  if (end !== null && end >= 0) target = Math.min(target, end);
  return `s:${target}`;
}
