// Protocol v4, the schools: calendar clock at the tick rate, a map snapshot once per open.
// Mirrors src/protocol/v4.hpp; the golden vectors in tests/vectors/v4.json keep them in step.
import { decodeWith, encodeWith, messageTable, recordOf, sequenceOf, stringOf } from './codec';
import type { Decoded, Unknown } from './codec';
import { pingBody, pongBody } from './sharedMessages';
import type { Ping, Pong } from './sharedMessages';

export const VERSION = 4;
export const MAX_INBOUND_FRAME_BYTES = 8 * 1024;
export const MAX_NODES = 0xffff; // u16 node count
export const MAX_STRING_BYTES = 0xffff; // u16 string length
export const MAX_NODE_ENTRIES = 0xff; // u8 item and position counts
export const MIN_NODE_BYTES = 1 + 2 + 2 + 2 + 1 + 1;
export const MIN_STRING_BYTES = 2;
export const SPEED_COUNT = 5; // ×½, ×1, ×2, ×3, ×4

export const Id = {
  Hello: 0x01,
  Ping: 0x02,
  OpenSchool: 0x03,
  CloseSchool: 0x04,
  SetRunning: 0x05,
  SetSpeed: 0x06,
  Welcome: 0x81,
  Pong: 0x82,
  Clock: 0x83,
  SchoolGone: 0x84,
  MapSnapshot: 0x85,
} as const;

export const Locale = { Russian: 0, English: 1 } as const;
export const NodeKind = { Territory: 0, Building: 1, Floor: 2, Room: 3 } as const;

export interface Hello { type: 'Hello'; version: number; locale: number }
export type { Ping, Pong };
export interface OpenSchool { type: 'OpenSchool'; schoolId: number }
export interface CloseSchool { type: 'CloseSchool' }
export interface SetRunning { type: 'SetRunning'; running: number }
export interface SetSpeed { type: 'SetSpeed'; speedIndex: number }
export interface Welcome { type: 'Welcome'; version: number; tickRate: number; maxSchools: number }
export interface Clock { type: 'Clock'; schoolId: number; gameTimeMs: number; running: number; speedIndex: number }
export interface SchoolGone { type: 'SchoolGone'; schoolId: number }
export interface MapNode {
  kind: number;
  id: string;
  parent: string; // empty for the yard
  name: string;
  items: string[];
  positions: string[];
}
export interface MapSnapshot { type: 'MapSnapshot'; schoolId: number; nodes: MapNode[] }

export type ClientMessage = Hello | Ping | OpenSchool | CloseSchool | SetRunning | SetSpeed;
export type ServerMessage = Welcome | Pong | Clock | SchoolGone | MapSnapshot;

const text = stringOf(2, MAX_STRING_BYTES);
const strings = sequenceOf(1, MAX_NODE_ENTRIES, MIN_STRING_BYTES, text);
const nodeSchema = recordOf(
  ['kind', 'u8'],
  ['id', text],
  ['parent', text],
  ['name', text],
  ['items', strings],
  ['positions', strings],
);

const clientTable = messageTable([
  [Id.Hello, 'Hello', recordOf(['version', 'u8'], ['locale', 'u8'])],
  [Id.Ping, 'Ping', pingBody],
  [Id.OpenSchool, 'OpenSchool', recordOf(['schoolId', 'i32'])],
  [Id.CloseSchool, 'CloseSchool', recordOf()],
  [Id.SetRunning, 'SetRunning', recordOf(['running', 'u8'])],
  [Id.SetSpeed, 'SetSpeed', recordOf(['speedIndex', 'u8'])],
]);

const serverTable = messageTable([
  [Id.Welcome, 'Welcome', recordOf(['version', 'u8'], ['tickRate', 'u8'], ['maxSchools', 'u8'])],
  [Id.Pong, 'Pong', pongBody],
  [Id.Clock, 'Clock', recordOf(['schoolId', 'i32'], ['gameTimeMs', 'i64'], ['running', 'u8'], ['speedIndex', 'u8'])],
  [Id.SchoolGone, 'SchoolGone', recordOf(['schoolId', 'i32'])],
  [Id.MapSnapshot, 'MapSnapshot', recordOf(['schoolId', 'i32'], ['nodes', sequenceOf(2, MAX_NODES, MIN_NODE_BYTES, nodeSchema)])],
]);

export const decodeClient = (frame: Uint8Array): Decoded<ClientMessage | Unknown> => decodeWith(clientTable, frame);
export const decodeServer = (frame: Uint8Array): Decoded<ServerMessage | Unknown> => decodeWith(serverTable, frame);
export const encodeClient = (message: ClientMessage): Uint8Array => encodeWith(clientTable, message);
export const encodeServer = (message: ServerMessage): Uint8Array => encodeWith(serverTable, message);
