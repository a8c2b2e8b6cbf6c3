// Protocol v1, the arena: avatars moved by button masks, full snapshots every tick.
// Mirrors src/protocol/v1.hpp; the golden vectors in tests/vectors/v1.json keep them in step.
import { decodeWith, encodeWith, messageTable, recordOf, sequenceOf } from './codec';
import type { Decoded, Unknown } from './codec';
import { namedHelloBody, pingBody, pongBody } from './sharedMessages';
import type { NamedHello as Hello, Ping, Pong } from './sharedMessages';

export const VERSION = 1;
export const MAX_INBOUND_FRAME_BYTES = 64 * 1024;
export const MAX_NAME_BYTES = 32;
export const ENTITY_BYTES = 21;
export const MAX_ENTITIES = 0xffff; // the u16 count

export const Id = { Hello: 0x01, Input: 0x02, Ping: 0x03, Welcome: 0x81, Snapshot: 0x82, Pong: 0x83 } as const;
export const Buttons = { Up: 1, Down: 2, Left: 4, Right: 8 } as const;
export const EntityKind = { Unknown: 0, Player: 1, Obstacle: 2 } as const;

export type { Hello, Ping, Pong };
export interface Input { type: 'Input'; sequence: number; buttons: number }
export interface Welcome {
  type: 'Welcome';
  version: number;
  playerId: number;
  tickRate: number;
  worldWidth: number;
  worldHeight: number;
}
export interface EntityState { id: number; kind: number; x: number; y: number; radius: number; colour: number }
export interface Snapshot { type: 'Snapshot'; tick: number; entities: EntityState[] }

export type ClientMessage = Hello | Input | Ping;
export type ServerMessage = Welcome | Snapshot | Pong;

const entitySchema = recordOf(['id', 'u32'], ['kind', 'u8'], ['x', 'f32'], ['y', 'f32'], ['radius', 'f32'], ['colour', 'u32']);

const clientTable = messageTable([
  [Id.Hello, 'Hello', namedHelloBody(MAX_NAME_BYTES)],
  [Id.Input, 'Input', recordOf(['sequence', 'u32'], ['buttons', 'u8'])],
  [Id.Ping, 'Ping', pingBody],
]);

const serverTable = messageTable([
  [
    Id.Welcome,
    'Welcome',
    recordOf(['version', 'u8'], ['playerId', 'u32'], ['tickRate', 'u8'], ['worldWidth', 'f32'], ['worldHeight', 'f32']),
  ],
  [Id.Snapshot, 'Snapshot', recordOf(['tick', 'u32'], ['entities', sequenceOf(2, MAX_ENTITIES, ENTITY_BYTES, entitySchema)])],
  [Id.Pong, 'Pong', pongBody],
]);

export const decodeClient = (frame: Uint8Array): Decoded<ClientMessage | Unknown> => decodeWith(clientTable, frame);
export const decodeServer = (frame: Uint8Array): Decoded<ServerMessage | Unknown> => decodeWith(serverTable, frame);
export const encodeClient = (message: ClientMessage): Uint8Array => encodeWith(clientTable, message);
export const encodeServer = (message: ServerMessage): Uint8Array => encodeWith(serverTable, message);
