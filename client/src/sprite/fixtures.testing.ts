// Builders for Sprite v1 test packets: server messages from plain values, pixels compressed by snappyjs.
import { concat, encodeServer, spriteMessage } from './protocol';
import type { ServerMessage } from './protocol';

export function packet(...messages: ServerMessage[]): Uint8Array {
  return concat(messages.map(encodeServer));
}

// A w×h sprite filled with one straight-RGBA colour.
export function solid(spriteId: number, width: number, height: number, rgba: readonly number[], label = ''): ServerMessage {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = rgba[i % 4]!;
  return spriteMessage(spriteId, width, height, pixels, label);
}

export function object(objectId: number, x: number, y: number, z: number, spriteId: number, layer = 0): ServerMessage {
  return { type: 'DefineObject', objectId, x, y, z, layer, spriteId };
}

export function mapLayer(width: number, height: number, layer = 0): ServerMessage[] {
  return [
    { type: 'DefineLayer', layer, layerType: 0, flags: 1 },
    { type: 'SetViewport', layer, width, height },
  ];
}
