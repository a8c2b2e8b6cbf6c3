// Message tables: each version lists its messages as (id, type, body), and one decode and one encode
// serve every table. A record schema drives both directions, like the C++ symmetric serialize(), so
// they cannot drift apart; a body no record can describe is written by hand, still read and written
// through the same checked ByteReader and ByteWriter (bytes.ts).
import { ByteReader, ByteWriter, DecodeFailure, EncodeError } from './bytes';
import type { DecodeError, PrefixWidth } from './bytes';

export type Decoded<T> = { ok: true; message: T } | { ok: false; error: DecodeError };

export type ScalarSpec = 'u8' | 'i8' | 'u16' | 'u32' | 'i32' | 'i64' | 'f32';
export interface StringSpec {
  readonly kind: 'string';
  readonly width: PrefixWidth;
  readonly maxBytes: number;
}
export interface SequenceSpec {
  readonly kind: 'sequence';
  readonly width: PrefixWidth;
  readonly maxCount: number;
  readonly minElementBytes: number;
  readonly element: FieldSpec;
}
export interface RecordSpec {
  readonly kind: 'record';
  readonly fields: ReadonlyArray<readonly [string, FieldSpec]>;
}
export type FieldSpec = ScalarSpec | StringSpec | SequenceSpec | RecordSpec;

// A body whose layout no record describes (a count ahead of another field, a form chosen by a head).
export interface HandWrittenBody {
  readonly kind: 'handWritten';
  read(reader: ByteReader): object;
  write(writer: ByteWriter, message: object): void;
}
export type BodySpec = RecordSpec | HandWrittenBody;

export const stringOf = (width: PrefixWidth, maxBytes: number): StringSpec => ({ kind: 'string', width, maxBytes });
export const sequenceOf = (
  width: PrefixWidth,
  maxCount: number,
  minElementBytes: number,
  element: FieldSpec,
): SequenceSpec => ({ kind: 'sequence', width, maxCount, minElementBytes, element });
export const recordOf = (...fields: Array<readonly [string, FieldSpec]>): RecordSpec => ({ kind: 'record', fields });
export const handWritten = <T extends { type: string }>(
  read: (reader: ByteReader) => Omit<T, 'type'>,
  write: (writer: ByteWriter, message: T) => void,
): HandWrittenBody => ({ kind: 'handWritten', read, write: (writer, message) => write(writer, message as T) });

function readField(reader: ByteReader, spec: FieldSpec): unknown {
  if (typeof spec === 'string') return reader[spec]();
  switch (spec.kind) {
    case 'string': return reader.string(spec.width, spec.maxBytes);
    case 'sequence': {
      const items: unknown[] = [];
      for (let n = reader.count(spec.width, spec.maxCount, spec.minElementBytes); n > 0; n--) items.push(readField(reader, spec.element));
      return items;
    }
    case 'record': {
      const out: Record<string, unknown> = {};
      for (const [name, field] of spec.fields) out[name] = readField(reader, field);
      return out;
    }
  }
}

function writeField(writer: ByteWriter, spec: FieldSpec, value: unknown): void {
  if (typeof spec === 'string') return writer[spec](value as number); // the writer checks it is a number
  switch (spec.kind) {
    case 'string': return writer.string(spec.width, value as string, spec.maxBytes);
    case 'sequence': {
      if (!Array.isArray(value)) throw new EncodeError('sequence field is not an array');
      writer.count(spec.width, value.length, spec.maxCount);
      for (const item of value) writeField(writer, spec.element, item);
      return;
    }
    case 'record': {
      const fields = value as Record<string, unknown>;
      for (const [name, field] of spec.fields) writeField(writer, field, fields[name]);
      return;
    }
  }
}

// A message the protocol version does not know: ignored, so newer servers keep working.
export interface Unknown {
  type: 'Unknown';
  id: number;
}

export interface MessageTable {
  readonly byId: ReadonlyMap<number, { readonly type: string; readonly body: BodySpec }>;
  readonly byType: ReadonlyMap<string, { readonly id: number; readonly body: BodySpec }>;
}

export function messageTable(entries: ReadonlyArray<readonly [number, string, BodySpec]>): MessageTable {
  return {
    byId: new Map(entries.map(([id, type, body]) => [id, { type, body }])),
    byType: new Map(entries.map(([id, type, body]) => [type, { id, body }])),
  };
}

// Every frame is one message id, then its body read to the last byte: trailing bytes are malformed.
export function decodeWith<T extends { type: string }>(
  table: MessageTable,
  frame: Uint8Array,
): Decoded<T | Unknown> {
  if (frame.length === 0) return { ok: false, error: 'Empty' };
  const id = frame[0]!;
  const entry = table.byId.get(id);
  if (!entry) return { ok: true, message: { type: 'Unknown', id } };
  const reader = new ByteReader(frame.subarray(1));
  try {
    const fields = entry.body.kind === 'record' ? readField(reader, entry.body) as object : entry.body.read(reader);
    if (reader.remaining() !== 0) return { ok: false, error: 'TrailingBytes' };
    return { ok: true, message: { type: entry.type, ...fields } as T };
  } catch (failure) {
    if (failure instanceof DecodeFailure) return { ok: false, error: failure.error };
    throw failure;
  }
}

export function encodeWith(table: MessageTable, message: { type: string }): Uint8Array {
  const entry = table.byType.get(message.type);
  if (!entry) throw new EncodeError(`no encoder for ${message.type}`);
  const writer = new ByteWriter();
  writer.u8(entry.id);
  if (entry.body.kind === 'record') writeField(writer, entry.body, message);
  else entry.body.write(writer, message);
  return writer.result();
}
