import { describe, expect, it } from 'vitest';
import { appliedCounts, boardCounts, debugCogs } from './debug';

const session = {
  received: 30, applyMs: 12.5, kind: 'compact' as const, bytesReceived: 4096, frames: 27, resyncs: 1, frameTick: 812,
  stream: { messages: 28, pixels: { hits: 7, misses: 3 } },
};
const stage = { kind: 'canvas' as const, frames: 21, drawMs: 40, renderer: { textures: { uploads: 3, reused: 9 } } };

describe('hns debug counts', () => {
  it('reports what a socket applied', () => {
    expect(appliedCounts(session)).toEqual({
      messages: 28, received: 30, applyMs: 12.5, stream: 'compact', bytesReceived: 4096, framesReceived: 27, resyncs: 1, frameTick: 812,
    });
  });

  it('reports the stage and its caches under the names window.__hns uses', () => {
    expect(boardCounts(stage, session)).toEqual({
      renderer: 'canvas', frames: 21, drawMs: 40, received: 30, pixelHits: 7, pixelMisses: 3, uploads: 3, reused: 9,
    });
    expect(boardCounts({ ...stage, kind: null }, session).renderer).toBeNull();
  });

  it('copies only the cogs’ public fields', () => {
    const cogs = [{ slot: 2, x: 10, y: 20, side: 'hider', label: 'Cog3 own aim 0', extra: {} }];
    expect(debugCogs(cogs)).toEqual([{ slot: 2, x: 10, y: 20, side: 'hider' }]);
  });
});
