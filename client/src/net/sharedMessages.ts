// Messages laid out alike, byte for byte, in more than one protocol version. Only the layout is
// shared: each version's table still names its own id for them (Ping is 0x03 in v1 and v5, 0x02 in v4).
import { recordOf, stringOf } from './codec';

// v1, v4 and v5: the client's clock, echoed in Pong so the client can measure the round trip.
export interface Ping { type: 'Ping'; clientTimeMs: number }
export interface Pong { type: 'Pong'; clientTimeMs: number; serverTick: number }
export const pingBody = recordOf(['clientTimeMs', 'i64']);
export const pongBody = recordOf(['clientTimeMs', 'i64'], ['serverTick', 'u32']);

// v1 and v5 (the arena): the version, then the player's name (v4's Hello carries a locale instead).
export interface NamedHello { type: 'Hello'; version: number; name: string }
export const namedHelloBody = (maxNameBytes: number) => recordOf(['version', 'u8'], ['name', stringOf(1, maxNameBytes)]);
