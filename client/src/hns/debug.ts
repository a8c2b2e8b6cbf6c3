// Read-only state of the hide-and-seek pages for end-to-end tests and the measuring script:
// window.__hns returns a fresh copy on every read (like window.__hschool for the other views).
export interface HnsDebugState {
  view: 'matches' | 'watch' | 'play' | 'replay' | 'results' | 'leagues' | 'league' | null;
  match: string | null;
  connection: string;
  messages: number; // WebSocket messages applied
  received: number; // WebSocket messages received (ahead of `messages` while queued)
  applyMs: number; // time spent decoding and applying them
  stream: 'compact' | 'sprite' | null; // which watch stream the socket reads (hns/streamChoice.ts)
  bytesReceived: number; // WebSocket payload bytes received
  framesReceived: number; // match frames applied: Frame marks on the compact stream, messages on Sprite v1
  resyncs: number; // compact frames marked resync (the server skipped frames for us)
  frameTick: number | null; // the tick of the last compact Frame mark applied
  behind: boolean; // the "cannot keep up" notice is showing
  renderer: 'webgl' | 'canvas' | null; // the PixiJS backend drawing the board (sprite/rendererChoice.ts)
  frames: number; // board frames drawn
  drawMs: number; // time spent drawing them
  pixelHits: number; // sprite pixel blocks served by the decoder's PixelCache (not decompressed again)
  pixelMisses: number; // big blocks decompressed
  uploads: number; // textures uploaded
  reused: number; // sprite definitions served by a texture already on the GPU
  tick: number | null; // the match tick: REST for live views, the chrome for the replay
  end: number | null;
  paused: boolean | null;
  speed: number | null;
  mismatch: { tick: number; expected: string; got: string } | null;
  cogs: Array<{ slot: number; x: number; y: number; side: string | null }>;
  own: { slot: number; x: number; y: number; aim: number | null; side: string | null } | null;
  mask: number;
  ended: string | null;
  matches: Array<{ id: string; phase: string; tick: number }>;
  polling: boolean; // the league page will ask the server again (a request in flight or one scheduled)
}

const empty = (): HnsDebugState => ({
  view: null,
  match: null,
  connection: 'closed',
  messages: 0,
  received: 0,
  applyMs: 0,
  stream: null,
  bytesReceived: 0,
  framesReceived: 0,
  resyncs: 0,
  frameTick: null,
  behind: false,
  renderer: null,
  frames: 0,
  drawMs: 0,
  pixelHits: 0,
  pixelMisses: 0,
  uploads: 0,
  reused: 0,
  tick: null,
  end: null,
  paused: null,
  speed: null,
  mismatch: null,
  cogs: [],
  own: null,
  mask: 0,
  ended: null,
  matches: [],
  polling: false,
});

let state = empty();
let installed = false;

export function resetHnsDebug(view: HnsDebugState['view'], match: string | null = null): void {
  state = { ...empty(), view, match };
  install();
}

export function updateHnsDebug(patch: Partial<HnsDebugState>): void {
  Object.assign(state, patch);
}

// What the three board pages report alike: the socket's counts and the stage's drawing and caches.
interface SessionCounts {
  received: number;
  applyMs: number;
  kind: 'compact' | 'sprite';
  bytesReceived: number;
  frames: number;
  resyncs: number;
  frameTick: number | null;
  stream: { messages: number; pixels: { hits: number; misses: number } };
}
interface StageCounts {
  kind: HnsDebugState['renderer'];
  frames: number;
  drawMs: number;
  renderer: { textures: { uploads: number; reused: number } };
}

export function appliedCounts(session: SessionCounts): Partial<HnsDebugState> {
  return {
    messages: session.stream.messages,
    received: session.received,
    applyMs: session.applyMs,
    stream: session.kind,
    bytesReceived: session.bytesReceived,
    framesReceived: session.frames,
    resyncs: session.resyncs,
    frameTick: session.frameTick,
  };
}

export function boardCounts(stage: StageCounts, session: SessionCounts): Partial<HnsDebugState> {
  return {
    renderer: stage.kind,
    frames: stage.frames,
    drawMs: stage.drawMs,
    received: session.received,
    pixelHits: session.stream.pixels.hits,
    pixelMisses: session.stream.pixels.misses,
    uploads: stage.renderer.textures.uploads,
    reused: stage.renderer.textures.reused,
  };
}

export function debugCogs(cogs: ReadonlyArray<{ slot: number; x: number; y: number; side: string | null }>): HnsDebugState['cogs'] {
  return cogs.map((c) => ({ slot: c.slot, x: c.x, y: c.y, side: c.side }));
}

function install(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  Object.defineProperty(window, '__hns', {
    configurable: true,
    get: () => JSON.parse(JSON.stringify(state)) as HnsDebugState,
  });
}
