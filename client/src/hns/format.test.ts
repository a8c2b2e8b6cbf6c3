import { describe, expect, it } from 'vitest';
import { chromeStageKey, cleanName, hiddenShare, secondsLeft, stageKey } from './format';

describe('hide-and-seek wording', () => {
  it('turns ticks left into whole seconds at 24 Hz', () => {
    expect(secondsLeft(60)).toBe(3);
    expect(secondsLeft(61)).toBe(3);
    expect(secondsLeft(0)).toBe(0);
    expect(secondsLeft(null)).toBeNull();
    expect(secondsLeft(-1)).toBeNull();
  });

  it('names the stage of a match', () => {
    expect(stageKey({ phase: 'lobby', matchPhase: null })).toBe('hns.phase.lobby');
    expect(stageKey({ phase: 'playing', matchPhase: 'prep' })).toBe('hns.phase.prep');
    expect(stageKey({ phase: 'playing', matchPhase: 'hunt' })).toBe('hns.phase.hunt');
    expect(stageKey({ phase: 'playing', matchPhase: null })).toBe('hns.phase.playing');
    expect(stageKey({ phase: 'game_over', matchPhase: 'hunt' })).toBe('hns.phase.gameOver');
    expect(stageKey({ phase: 'finished', matchPhase: null })).toBe('hns.phase.finished');
  });

  it('names the replay chrome stage', () => {
    expect(chromeStageKey('playing', 'hunt')).toBe('hns.phase.hunt');
    expect(chromeStageKey('Playing', 'prep')).toBe('hns.phase.prep');
    expect(chromeStageKey('lobby', null)).toBe('hns.phase.lobby');
    expect(chromeStageKey('game_over', 'hunt')).toBe('hns.phase.gameOver');
    expect(chromeStageKey(null, null)).toBeNull();
  });

  it('shares hidden against seen ticks', () => {
    expect(hiddenShare(3, 1)).toBe(0.75);
    expect(hiddenShare(0, 0)).toBeNull();
  });

  it('cleans a display name for /player', () => {
    expect(cleanName('  Ann Lee ')).toBe('Ann_Lee');
    expect(cleanName('Аня<script>')).toBe('Аняscript');
    expect(cleanName('x'.repeat(40))).toHaveLength(24);
  });
});
