// Schema-driven little-endian codec: one schema per message drives both reading and writing,
// like the C++ symmetric serialize(), so the two directions cannot drift apart.

export type DecodeError =
  | 'Empty' // a frame with no message id
  | 'Truncated' // a field runs past the end of the frame
  | 'TrailingBytes' // bytes left after the last field
  | 'LengthTooLarge' // a string length above its named maximum
  | 'CountTooLarge' // an element count above its maximum or the bytes left
  | 'InvalidUtf8' // a string that is not well-formed UTF-8
  | 'InvalidFieldMask'; // v5: a flags or field-mask byte with bits the version does not define

export type Decoded<T> = { ok: true; message: T } | { ok: false; error: DecodeError };

export type ScalarSpec = 'u8' | 'u16' | 'u32' | 'i32' | 'i64' | 'f32';
export interface StringSpec {
  readonly kind: 'string';
  readonly width: 1 | 2; // bytes of the length prefix
  readonly maxBytes: number;
}
export interface SequenceSpec {
  readonly kind: 'sequence';
  readonly width: 1 | 2; // bytes of the count prefix
  readonly maxCount: number;
  readonly minElementBytes: number;
  readonly element: FieldSpec;
}
export interface RecordSpec {
  readonly kind: 'record';
  readonly fields: ReadonlyArray<readonly [string, FieldSpec]>;
}
export type FieldSpec = ScalarSpec | StringSpec | SequenceSpec | RecordSpec;

export const stringOf = (width: 1 | 2, maxBytes: number): StringSpec => ({ kind: 'string', width, maxBytes });
export const sequenceOf = (
  width: 1 | 2,
  maxCount: number,
  minElementBytes: number,
  element: FieldSpec,
): SequenceSpec => ({ kind: 'sequence', width, maxCount, minElementBytes, element });
export const recordOf = (...fields: Array<readonly [string, FieldSpec]>): RecordSpec => ({ kind: 'record', fields });

const SCALAR_BYTES: Record<ScalarSpec, number> = { u8: 1, u16: 2, u32: 4, i32: 4, i64: 8, f32: 4 };
const LITTLE_ENDIAN = true;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

// Thrown only inside this module and turned into a result value before it reaches a caller.
class DecodeFailure {
  constructor(readonly error: DecodeError) {}
}

class Reader {
  private pos = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  remaining(): number {
    return this.bytes.length - this.pos;
  }

  scalar(spec: ScalarSpec): number {
    const size = SCALAR_BYTES[spec];
    if (this.remaining() < size) throw new DecodeFailure('Truncated');
    const at = this.pos;
    this.pos += size;
    switch (spec) {
      case 'u8': return this.view.getUint8(at);
      case 'u16': return this.view.getUint16(at, LITTLE_ENDIAN);
      case 'u32': return this.view.getUint32(at, LITTLE_ENDIAN);
      case 'i32': return this.view.getInt32(at, LITTLE_ENDIAN);
      case 'i64': return Number(this.view.getBigInt64(at, LITTLE_ENDIAN));
      case 'f32': return this.view.getFloat32(at, LITTLE_ENDIAN);
    }
  }

  string(spec: StringSpec): string {
    const length = this.scalar(spec.width === 1 ? 'u8' : 'u16');
    if (length > spec.maxBytes) throw new DecodeFailure('LengthTooLarge');
    if (this.remaining() < length) throw new DecodeFailure('Truncated');
    const raw = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    try {
      return strictUtf8.decode(raw);
    } catch {
      throw new DecodeFailure('InvalidUtf8');
    }
  }

  sequence(spec: SequenceSpec): unknown[] {
    const count = this.scalar(spec.width === 1 ? 'u8' : 'u16');
    // Checked before allocating, so a forged count cannot make us build a huge array.
    if (count > spec.maxCount) throw new DecodeFailure('CountTooLarge');
    if (count * spec.minElementBytes > this.remaining()) throw new DecodeFailure('CountTooLarge');
    const items: unknown[] = [];
    for (let i = 0; i < count; i++) items.push(this.field(spec.element));
    return items;
  }

  record(spec: RecordSpec): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, field] of spec.fields) out[name] = this.field(field);
    return out;
  }

  field(spec: FieldSpec): unknown {
    if (typeof spec === 'string') return this.scalar(spec);
    switch (spec.kind) {
      case 'string': return this.string(spec);
      case 'sequence': return this.sequence(spec);
      case 'record': return this.record(spec);
    }
  }
}

// Encoding our own message can only fail through our own bug, so it throws with the reason.
export class EncodeError extends Error {}

const SCALAR_RANGES: Record<Exclude<ScalarSpec, 'f32'>, readonly [number, number]> = {
  u8: [0, 0xff],
  u16: [0, 0xffff],
  u32: [0, 0xffffffff],
  i32: [-0x80000000, 0x7fffffff],
  i64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

class Writer {
  private bytes = new Uint8Array(64);
  private view = new DataView(this.bytes.buffer);
  private length = 0;

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  private reserve(size: number): number {
    if (this.length + size > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + size));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    const at = this.length;
    this.length += size;
    return at;
  }

  scalar(spec: ScalarSpec, value: unknown): void {
    if (typeof value !== 'number' || Number.isNaN(value)) throw new EncodeError(`${spec} field is not a number`);
    if (spec !== 'f32') {
      const [min, max] = SCALAR_RANGES[spec];
      if (!Number.isInteger(value) || value < min || value > max) {
        throw new EncodeError(`${value} does not fit ${spec}`);
      }
    }
    const at = this.reserve(SCALAR_BYTES[spec]);
    switch (spec) {
      case 'u8': this.view.setUint8(at, value); break;
      case 'u16': this.view.setUint16(at, value, LITTLE_ENDIAN); break;
      case 'u32': this.view.setUint32(at, value, LITTLE_ENDIAN); break;
      case 'i32': this.view.setInt32(at, value, LITTLE_ENDIAN); break;
      case 'i64': this.view.setBigInt64(at, BigInt(value), LITTLE_ENDIAN); break;
      case 'f32': this.view.setFloat32(at, value, LITTLE_ENDIAN); break;
    }
  }

  raw(data: Uint8Array): void {
    const at = this.reserve(data.length);
    this.bytes.set(data, at);
  }

  field(spec: FieldSpec, value: unknown): void {
    if (typeof spec === 'string') return this.scalar(spec, value);
    switch (spec.kind) {
      case 'string': {
        if (typeof value !== 'string') throw new EncodeError('string field is not a string');
        if (!isWellFormed(value)) throw new EncodeError('string has a lone surrogate');
        const encoded = utf8Encoder.encode(value);
        if (encoded.length > spec.maxBytes) throw new EncodeError(`string of ${encoded.length} bytes > ${spec.maxBytes}`);
        this.scalar(spec.width === 1 ? 'u8' : 'u16', encoded.length);
        this.raw(encoded);
        return;
      }
      case 'sequence': {
        if (!Array.isArray(value)) throw new EncodeError('sequence field is not an array');
        if (value.length > spec.maxCount) throw new EncodeError(`${value.length} elements > ${spec.maxCount}`);
        this.scalar(spec.width === 1 ? 'u8' : 'u16', value.length);
        for (const item of value) this.field(spec.element, item);
        return;
      }
      case 'record': {
        const fields = value as Record<string, unknown>;
        for (const [name, field] of spec.fields) this.field(field, fields[name]);
        return;
      }
    }
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

// A message the protocol version does not know: ignored, so newer servers keep working.
export interface Unknown {
  type: 'Unknown';
  id: number;
}

export interface MessageTable {
  readonly byId: ReadonlyMap<number, { readonly type: string; readonly schema: RecordSpec }>;
  readonly byType: ReadonlyMap<string, { readonly id: number; readonly schema: RecordSpec }>;
}

export function messageTable(entries: ReadonlyArray<readonly [number, string, RecordSpec]>): MessageTable {
  return {
    byId: new Map(entries.map(([id, type, schema]) => [id, { type, schema }])),
    byType: new Map(entries.map(([id, type, schema]) => [type, { id, schema }])),
  };
}

export function decodeWith<T extends { type: string }>(
  table: MessageTable,
  frame: Uint8Array,
): Decoded<T | Unknown> {
  if (frame.length === 0) return { ok: false, error: 'Empty' };
  const id = frame[0]!;
  const entry = table.byId.get(id);
  if (!entry) return { ok: true, message: { type: 'Unknown', id } };
  const reader = new Reader(frame.subarray(1));
  try {
    const fields = reader.record(entry.schema);
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
  const writer = new Writer();
  writer.scalar('u8', entry.id);
  writer.field(entry.schema, message);
  return writer.result();
}

export function hexToBytes(hex: string): Uint8Array {
  const digits = hex.replace(/\s+/g, '');
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}
