// What the Sprite v1 and compact stream tests share about the golden vector files the C++ codecs
// check too (tests/vectors/*.json): loading one (a missing file must fail, not skip), and our decoded
// messages in the files' terms — byte fields as hex, DefineLayer's layer type as "type", and a
// "Frame" listing several messages.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bytesToHex } from './protocol';

export interface VectorMessage {
  type: string;
  fields: Record<string, unknown>;
}

export function loadVectors<T>(file: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../../tests/vectors/${file}`, import.meta.url)), 'utf8')) as T;
}

export function asVector(message: { type: string } & object): VectorMessage {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message) as Array<[string, unknown]>) {
    if (key === 'type') continue;
    fields[key === 'layerType' ? 'type' : key] = value instanceof Uint8Array ? bytesToHex(value) : value;
  }
  return { type: message.type, fields };
}

// The vector's messages (a Frame's, or itself), each field passed through `normalise(key, value)`.
export function vectorMessages(vector: VectorMessage, normalise: (key: string, value: unknown) => unknown): VectorMessage[] {
  const list = vector.type === 'Frame' ? (vector.fields.messages as VectorMessage[]) : [vector];
  return list.map(({ type, fields }) => ({
    type,
    fields: Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, normalise(key, value)])),
  }));
}
