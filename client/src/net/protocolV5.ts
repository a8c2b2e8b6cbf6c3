// Protocol v5, the arena with prediction, per-client deltas and interest management.
// Mirrors src/protocol/v5.hpp; the golden vectors in tests/vectors/v5.json keep them in step.
// The fixed-layout messages are records like v1's; StaticWorld and Frame are written by hand: the
// obstacle count comes before the colour, and update records choose their layout by a form in their head.
import { DecodeFailure, EncodeError } from './bytes';
import type { ByteReader, ByteWriter } from './bytes';
import { decodeWith, encodeWith, handWritten, messageTable, recordOf } from './codec';
import type { Decoded, Unknown } from './codec';
import { namedHelloBody, pingBody, pongBody } from './sharedMessages';
import type { NamedHello as Hello, Ping, Pong } from './sharedMessages';

export const VERSION = 5;
export const MAX_INBOUND_FRAME_BYTES = 1024; // what the server reads after Hello
export const MAX_SERVER_FRAME_BYTES = 256 * 1024; // what this client accepts
export const MAX_NAME_BYTES = 32;
export const MAX_OBSTACLES = 4096;
export const MAX_SECTION_COUNT = 16383;
export const SLOT_LIMIT = 1 << 14;
export const MAX_COLOUR = 0xffffff;
const LEAVE_BYTES = 2;
const ENTER_BYTES = 13;
const MIN_UPDATE_BYTES = 3;
const OBSTACLE_BYTES = 12;
const COUNT_WIDTH = 2; // every v5 count is a u16

export const Id = { Hello: 0x01, Input: 0x02, Ping: 0x03, Welcome: 0x81, Pong: 0x83, StaticWorld: 0x84, Frame: 0x85 } as const;
export const FrameFlags = { Keyframe: 1, FarGrid: 2, Known: 3 } as const;
export const Form = { DxDy: 0, Dx: 1, Dy: 2, Fields: 3 } as const;
export const Fields = { Qx: 1, Qy: 2, Colour: 4, Known: 7 } as const;

export type { Hello, Ping, Pong };
export interface Input { type: 'Input'; seq: number; mask: number }
export interface Welcome {
  type: 'Welcome';
  version: number;
  playerId: number;
  selfSlot: number;
  tickRate: number;
  width: number;
  height: number;
  playerSpeed: number;
  playerRadius: number;
  quantumExp: number;
  cellSize: number;
  gridCols: number;
  gridRows: number;
  windowCells: number;
  farEvery: number;
}
export interface Obstacle { x: number; y: number; radius: number }
export interface StaticWorld { type: 'StaticWorld'; firstId: number; colour: number; obstacles: Obstacle[] }
export interface Enter { slot: number; id: number; qx: number; qy: number; colour: number }
// Fields a form does not carry are 0, so each record has one representation.
export interface Update { slot: number; form: number; dx: number; dy: number; fields: number; qx: number; qy: number; colour: number }
export interface Frame {
  type: 'Frame';
  tick: number;
  baseTick: number;
  flags: number;
  ackSeq: number;
  inputQueue: number;
  mask: number;
  selfX: number;
  selfY: number;
  leaves: number[];
  enters: Enter[];
  updates: Update[];
  farCols: number;
  farRows: number;
  far: number[];
}

export type ClientMessage = Hello | Input | Ping;
export type ServerMessage = Welcome | Pong | StaticWorld | Frame;

function readUpdate(r: ByteReader): Update {
  const head = r.u16();
  const u: Update = { slot: head & (SLOT_LIMIT - 1), form: head >> 14, dx: 0, dy: 0, fields: 0, qx: 0, qy: 0, colour: 0 };
  switch (u.form) {
    case Form.DxDy: u.dx = r.i8(); u.dy = r.i8(); return u;
    case Form.Dx: u.dx = r.i8(); return u;
    case Form.Dy: u.dy = r.i8(); return u;
  }
  u.fields = r.u8();
  // An empty mask would be a record that changes nothing: one meaning, one encoding.
  if (u.fields === 0 || (u.fields & ~Fields.Known) !== 0) throw new DecodeFailure('InvalidFieldMask');
  if (u.fields & Fields.Qx) u.qx = r.u16();
  if (u.fields & Fields.Qy) u.qy = r.u16();
  if (u.fields & Fields.Colour) u.colour = r.u24();
  return u;
}

function writeUpdate(w: ByteWriter, u: Update): void {
  if (u.slot >= SLOT_LIMIT || u.form > Form.Fields) throw new EncodeError(`bad update head ${u.slot}/${u.form}`);
  w.u16(u.slot | (u.form << 14));
  switch (u.form) {
    case Form.DxDy: w.i8(u.dx); w.i8(u.dy); return;
    case Form.Dx: w.i8(u.dx); return;
    case Form.Dy: w.i8(u.dy); return;
  }
  if (u.fields === 0 || (u.fields & ~Fields.Known) !== 0) throw new EncodeError(`bad field mask ${u.fields}`);
  w.u8(u.fields);
  if (u.fields & Fields.Qx) w.u16(u.qx);
  if (u.fields & Fields.Qy) w.u16(u.qy);
  if (u.fields & Fields.Colour) w.u24(u.colour);
}

function readFrame(r: ByteReader): Frame {
  const tick = r.u32();
  const baseTick = r.u32();
  const flags = r.u8();
  if ((flags & ~FrameFlags.Known) !== 0) throw new DecodeFailure('InvalidFieldMask');
  const ackSeq = r.u32();
  const inputQueue = r.u8();
  const mask = r.u8();
  const selfX = r.f32();
  const selfY = r.f32();
  const leaves: number[] = [];
  for (let n = r.count(COUNT_WIDTH, MAX_SECTION_COUNT, LEAVE_BYTES); n > 0; n--) leaves.push(r.u16());
  const enters: Enter[] = [];
  for (let n = r.count(COUNT_WIDTH, MAX_SECTION_COUNT, ENTER_BYTES); n > 0; n--) {
    enters.push({ slot: r.u16(), id: r.u32(), qx: r.u16(), qy: r.u16(), colour: r.u24() });
  }
  const updates: Update[] = [];
  for (let n = r.count(COUNT_WIDTH, MAX_SECTION_COUNT, MIN_UPDATE_BYTES); n > 0; n--) updates.push(readUpdate(r));
  let farCols = 0;
  let farRows = 0;
  const far: number[] = [];
  if (flags & FrameFlags.FarGrid) {
    farCols = r.u8();
    farRows = r.u8();
    if (farCols * farRows > r.remaining()) throw new DecodeFailure('Truncated');
    for (let n = farCols * farRows; n > 0; n--) far.push(r.u8());
  }
  return { type: 'Frame', tick, baseTick, flags, ackSeq, inputQueue, mask, selfX, selfY, leaves, enters, updates, farCols, farRows, far };
}

function writeFrame(w: ByteWriter, m: Frame): void {
  if ((m.flags & ~FrameFlags.Known) !== 0) throw new EncodeError(`bad flags ${m.flags}`);
  w.u32(m.tick); w.u32(m.baseTick); w.u8(m.flags); w.u32(m.ackSeq); w.u8(m.inputQueue); w.u8(m.mask); w.f32(m.selfX); w.f32(m.selfY);
  w.count(COUNT_WIDTH, m.leaves.length, MAX_SECTION_COUNT);
  for (const slot of m.leaves) w.u16(slot);
  w.count(COUNT_WIDTH, m.enters.length, MAX_SECTION_COUNT);
  for (const e of m.enters) { w.u16(e.slot); w.u32(e.id); w.u16(e.qx); w.u16(e.qy); w.u24(e.colour); }
  w.count(COUNT_WIDTH, m.updates.length, MAX_SECTION_COUNT);
  for (const u of m.updates) writeUpdate(w, u);
  if ((m.flags & FrameFlags.FarGrid) === 0) {
    if (m.farCols !== 0 || m.farRows !== 0 || m.far.length !== 0) throw new EncodeError('far grid without its flag');
    return;
  }
  if (m.far.length !== m.farCols * m.farRows) throw new EncodeError('far grid size differs from cols × rows');
  w.u8(m.farCols); w.u8(m.farRows);
  for (const c of m.far) w.u8(c);
}

// The obstacle count comes before the colour, so the count is checked by hand once both are read.
function readStaticWorld(r: ByteReader): StaticWorld {
  const firstId = r.u32();
  const count = r.u16();
  const colour = r.u32();
  if (count > MAX_OBSTACLES || count * OBSTACLE_BYTES > r.remaining()) throw new DecodeFailure('CountTooLarge');
  const obstacles: Obstacle[] = [];
  for (let n = 0; n < count; n++) obstacles.push({ x: r.f32(), y: r.f32(), radius: r.f32() });
  return { type: 'StaticWorld', firstId, colour, obstacles };
}

function writeStaticWorld(w: ByteWriter, m: StaticWorld): void {
  w.u32(m.firstId); w.count(COUNT_WIDTH, m.obstacles.length, MAX_OBSTACLES); w.u32(m.colour);
  for (const o of m.obstacles) { w.f32(o.x); w.f32(o.y); w.f32(o.radius); }
}

const welcomeBody = recordOf(
  ['version', 'u8'], ['playerId', 'u32'], ['selfSlot', 'u16'], ['tickRate', 'u8'], ['width', 'f32'], ['height', 'f32'],
  ['playerSpeed', 'f32'], ['playerRadius', 'f32'], ['quantumExp', 'i8'], ['cellSize', 'u16'], ['gridCols', 'u8'], ['gridRows', 'u8'],
  ['windowCells', 'u8'], ['farEvery', 'u8'],
);

const clientTable = messageTable([
  [Id.Hello, 'Hello', namedHelloBody(MAX_NAME_BYTES)],
  [Id.Input, 'Input', recordOf(['seq', 'u32'], ['mask', 'u8'])],
  [Id.Ping, 'Ping', pingBody],
]);

const serverTable = messageTable([
  [Id.Welcome, 'Welcome', welcomeBody],
  [Id.Pong, 'Pong', pongBody],
  [Id.StaticWorld, 'StaticWorld', handWritten(readStaticWorld, writeStaticWorld)],
  [Id.Frame, 'Frame', handWritten(readFrame, writeFrame)],
]);

export const decodeClient = (frame: Uint8Array): Decoded<ClientMessage | Unknown> => decodeWith(clientTable, frame);
export const decodeServer = (frame: Uint8Array): Decoded<ServerMessage | Unknown> => decodeWith(serverTable, frame);
export const encodeClient = (message: ClientMessage): Uint8Array => encodeWith(clientTable, message);
export const encodeServer = (message: ServerMessage): Uint8Array => encodeWith(serverTable, message);
