// Read-only state for end-to-end tests: window.__hschool returns a fresh copy on every read.
export interface DebugState {
  view: string;
  language: string;
  access: { mode: 'open' | 'owners' | null; operatorToken: boolean };
  school: { id: number; gameTimeMs: number | null; running: boolean | null; speedIndex: number | null; controls: boolean; nodes: number } | null;
  arena: {
    playerId: number | null;
    world: { width: number; height: number } | null;
    entities: Array<{ id: number; x: number; y: number }>; // as drawn, interpolated
    inputSequence: number;
    rttMs: number | null;
    protocol: number;
    ackSeq: number; // the last command the server applied
    corrections: number; // Frames whose replay disagreed with the prediction
    inputLatencyMs: number | null; // keydown to the end of the first frame drawing the own avatar moved that way (keyToScreen.ts)
    inputLatencyCount: number; // presses measured so far
    renderer: string | null; // Pixi's 'webgl' or 'canvas' (rendererChoice.ts), null before init
    predicted: { x: number; y: number } | null; // exact, after the last command sent
  } | null;
}

const state: DebugState = { view: 'menu', language: 'en', access: { mode: null, operatorToken: false }, school: null, arena: null };

export function updateDebug(patch: Partial<DebugState>): void {
  Object.assign(state, patch);
}

export function installDebugState(target: Window): void {
  Object.defineProperty(target, '__hschool', {
    configurable: true,
    get: () => JSON.parse(JSON.stringify(state)) as DebugState,
  });
}
