// What the pages read from Sprite v1 labels and ids (spec §4): the own cog and its aim, the board's
// cogs, spotted rings and locks for the scoreboard, and the replay chrome sprite 4090 (§4.5).
import type { SpriteWorld } from '../sprite/world';
import type { Side } from './api';

export const COG_SPRITE_BASE = 100; // + team·16 + rot; team 0 hides in game 1
export const COG_ROTATIONS = 16;
export const COG_OBJECT_BASE = 1000; // + slot
export const COG_LOGICAL_PX = 72;
export const SEATS_MAX = 32;
export const OBJECT_OBJECT_BASE = 2200;
export const OBJECT_OBJECT_END = 2300;
export const SPOTTED_RING_OBJECT_BASE = 2350;
export const CONE_OBJECT_BASE = 2500;
export const CHROME_SPRITE_ID = 4090;
export const PLAYER_SCALE = 1;
export const GLOBAL_SCALE = 2;

export interface CogLabel {
  side: Side;
  aim: number | null; // brads 0..255
}

const COG_LABEL = /^cog (HIDER|SEEKER)\b(?:.*?\bown aim (-?\d+))?/;

// "cog HIDER own aim 12" → hider, aim 12. The aim sits inside the cog label (§7.2), so search in it.
export function parseCogLabel(label: string): CogLabel | null {
  const match = COG_LABEL.exec(label.trim());
  if (!match) return null;
  const aim = match[2] === undefined ? null : Number(match[2]);
  return { side: match[1] === 'HIDER' ? 'hider' : 'seeker', aim: aim === null || Number.isNaN(aim) ? null : aim };
}

// Brads (256 a turn, 0 = +x, growing clockwise on screen because y points down) to degrees.
export const bradsToDegrees = (brads: number): number => Math.round((((brads % 256) + 256) % 256) * 360 / 256);

export interface Cog {
  slot: number;
  side: Side | null;
  aim: number | null;
  x: number; // logical board pixels, the cog's centre
  y: number;
}

// A cog object's centre in board pixels: the object sits at (x−36, y−36)·scale, its sprite is 72·scale.
function cogCentre(world: SpriteWorld, objectId: number, scale: number): { x: number; y: number } | null {
  const object = world.objects.get(objectId);
  if (!object) return null;
  const sprite = world.sprites.get(object.spriteId);
  const halfW = sprite ? sprite.width / 2 : (COG_LOGICAL_PX * scale) / 2;
  const halfH = sprite ? sprite.height / 2 : (COG_LOGICAL_PX * scale) / 2;
  return { x: (object.x + halfW) / scale, y: (object.y + halfH) / scale };
}

function sideFromSpriteId(spriteId: number): Side | null {
  const team = Math.floor((spriteId - COG_SPRITE_BASE) / COG_ROTATIONS);
  return team === 0 ? 'hider' : team === 1 ? 'seeker' : null;
}

export function readCog(world: SpriteWorld, slot: number, scale: number): Cog | null {
  const objectId = COG_OBJECT_BASE + slot;
  const centre = cogCentre(world, objectId, scale);
  if (!centre) return null;
  const spriteId = world.objects.get(objectId)!.spriteId;
  const label = parseCogLabel(world.sprites.get(spriteId)?.label ?? '');
  return { slot, side: label?.side ?? sideFromSpriteId(spriteId), aim: label?.aim ?? null, ...centre };
}

// The player stream carries only the own cog (§4.1); find it whatever slot the server gave it.
export function readOwnCog(world: SpriteWorld, slot: number | null, scale = PLAYER_SCALE): Cog | null {
  if (slot !== null) {
    const own = readCog(world, slot, scale);
    if (own) return own;
  }
  for (const object of world.objects.values()) {
    if (object.id < COG_OBJECT_BASE || object.id >= COG_OBJECT_BASE + SEATS_MAX) continue;
    const label = world.sprites.get(object.spriteId)?.label ?? '';
    if (label.includes('own aim ')) return readCog(world, object.id - COG_OBJECT_BASE, scale);
  }
  return null;
}

export interface Board {
  cogs: Cog[];
  hiders: number;
  seekers: number;
  spotted: number[]; // slots of hiders a seeker sees right now
  objects: number;
  locked: number;
}

// The scoreboard's share of the global stream: who is on the board, who is seen, what is locked.
// On /global cogs share sprites by (team, rot), so the aim in a label may be another cog's (§7.15).
export function readBoard(world: SpriteWorld, scale = GLOBAL_SCALE): Board {
  const board: Board = { cogs: [], hiders: 0, seekers: 0, spotted: [], objects: 0, locked: 0 };
  for (const object of world.objects.values()) {
    const id = object.id;
    if (id >= COG_OBJECT_BASE && id < COG_OBJECT_BASE + SEATS_MAX) {
      const cog = readCog(world, id - COG_OBJECT_BASE, scale);
      if (!cog) continue;
      board.cogs.push(cog);
      if (cog.side === 'hider') board.hiders++;
      if (cog.side === 'seeker') board.seekers++;
    } else if (id >= SPOTTED_RING_OBJECT_BASE && id < SPOTTED_RING_OBJECT_BASE + SEATS_MAX) {
      board.spotted.push(id - SPOTTED_RING_OBJECT_BASE);
    } else if (id >= OBJECT_OBJECT_BASE && id < OBJECT_OBJECT_END) {
      board.objects++;
      if ((world.sprites.get(object.spriteId)?.label ?? '').startsWith('locked ')) board.locked++;
    }
  }
  board.cogs.sort((a, b) => a.slot - b.slot);
  board.spotted.sort((a, b) => a - b);
  return board;
}

export interface Mismatch {
  tick: number;
  expected: string;
  got: string;
}

// The replay chrome (sprite 4090's JSON label, §4.5 plus the server's transport state).
export interface ReplayChrome {
  tick: number;
  end: number | null;
  paused: boolean;
  speed: number | null;
  game: number | null;
  games: number | null;
  phase: string | null; // ph: lobby / playing / game_over …
  matchPhase: string | null; // mp: prep / hunt
  phaseLeft: number | null; // whole seconds left in the phase (ticks / 24, as the reference's chrome)
  hidden: number | null;
  seen: number | null;
  room: string | null;
  mismatch: Mismatch | null;
}

type Json = Record<string, unknown>;
const numOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const textOrNull = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

function parseMismatch(value: unknown): Mismatch | null {
  if (typeof value !== 'object' || value === null) return null;
  const o = value as Json;
  return { tick: numOrNull(o.tick) ?? -1, expected: textOrNull(o.expected) ?? '?', got: textOrNull(o.got) ?? '?' };
}

export function parseReplayChrome(label: string): ReplayChrome | null {
  let raw: unknown;
  try {
    raw = JSON.parse(label);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const o = raw as Json;
  const tick = numOrNull(o.t);
  if (tick === null) return null;
  return {
    tick,
    end: numOrNull(o.end),
    paused: o.paused === true,
    speed: numOrNull(o.speed),
    game: numOrNull(o.game),
    games: numOrNull(o.games),
    phase: textOrNull(o.ph),
    matchPhase: textOrNull(o.mp),
    phaseLeft: numOrNull(o.phaseLeft),
    hidden: numOrNull(o.hidden),
    seen: numOrNull(o.seen),
    room: textOrNull(o.room),
    mismatch: parseMismatch(o.mismatch),
  };
}

export function readReplayChrome(world: SpriteWorld): ReplayChrome | null {
  const sprite = world.sprites.get(CHROME_SPRITE_ID);
  return sprite ? parseReplayChrome(sprite.label) : null;
}
