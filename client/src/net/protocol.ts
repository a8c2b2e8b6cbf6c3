// The client's wire codec for every protocol version; layouts in docs/protocol.md and the spec.
// Keep in sync with src/protocol/v1.hpp, v4.hpp and v5.hpp (same message and field names, camelCased).
export * as v1 from './protocolV1';
export * as v4 from './protocolV4';
export * as v5 from './protocolV5';
export { EncodeError } from './bytes';
export type { DecodeError } from './bytes';
export { bytesToHex, hexToBytes } from './hex';
export type { Decoded, Unknown } from './codec';
