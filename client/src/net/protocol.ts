// The client's wire codec for both protocol versions; layouts in docs/protocol.md and the spec.
// Keep in sync with src/protocol/v1.hpp and v4.hpp (same message and field names, camelCased).
export * as v1 from './protocolV1';
export * as v4 from './protocolV4';
export { EncodeError, bytesToHex, hexToBytes } from './codec';
export type { DecodeError, Decoded, Unknown } from './codec';
