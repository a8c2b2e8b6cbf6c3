import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stepAvatar } from './v5Physics';
import type { AvatarRules } from './v5Physics';

interface PredictionFile {
  scenarios: Array<{
    name: string;
    settings: AvatarRules;
    obstacles: Array<[number, number, number]>;
    start: [number, number];
    steps: Array<[number, number, number]>;
  }>;
}

const file = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../tests/vectors/v5_prediction.json', import.meta.url)), 'utf8'),
) as PredictionFile;

describe('the v5 predictor against positions the C++ world stepped', () => {
  it('has scenarios', () => expect(file.scenarios.length).toBeGreaterThan(0));
  for (const scenario of file.scenarios) {
    it(`${scenario.name}: every step is bit-exact`, () => {
      const obstacles = scenario.obstacles.map(([x, y, radius]) => ({ x: Math.fround(x), y: Math.fround(y), radius: Math.fround(radius) }));
      let at = { x: Math.fround(scenario.start[0]), y: Math.fround(scenario.start[1]) };
      let pushedOrClamped = 0;
      const straight = Math.fround(scenario.settings.playerSpeed / scenario.settings.tickRate);
      for (const [i, [mask, x, y]] of scenario.steps.entries()) {
        const next = stepAvatar(at, mask, scenario.settings, obstacles);
        expect([i, next.x, next.y]).toStrictEqual([i, Math.fround(x), Math.fround(y)]);
        const moved = Math.hypot(next.x - at.x, next.y - at.y);
        const walking = (mask & 12) === 4 || (mask & 12) === 8 || (mask & 3) === 1 || (mask & 3) === 2;
        if (walking && Math.abs(moved - straight) > 0.01) pushedOrClamped++;
        at = next;
      }
      expect(pushedOrClamped, 'the walk meets obstacles or walls').toBeGreaterThan(0);
    });
  }
});
