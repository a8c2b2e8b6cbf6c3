import { describe, expect, it } from 'vitest';
import { REPLAY_KEYS, seekCommand } from './replay';

describe('replay transport', () => {
  it('seeks to whole ticks inside [0, end]', () => {
    expect(seekCommand(412, 949)).toBe('s:412');
    expect(seekCommand(411.6, 949)).toBe('s:412');
    expect(seekCommand(-3, 949)).toBe('s:0');
    expect(seekCommand(5000, 949)).toBe('s:949');
    expect(seekCommand(5000, null)).toBe('s:5000');
    expect(seekCommand(Number.NaN, 949)).toBeNull();
  });

  it('uses the keys of spec §2.8', () => {
    expect(REPLAY_KEYS).toEqual({ toggle: ' ', play: 'p', pause: 'P', restart: ',', back: 'b', forward: '.', end: 'e', faster: '+', slower: '-' });
  });
});
