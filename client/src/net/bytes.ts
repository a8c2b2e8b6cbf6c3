// Little-endian byte reader and writer that every version's codec reads and writes through: each
// read checks the bytes left, each write checks that the value fits (like src/protocol/bytes.hpp).

export type DecodeError =
  | 'Empty' // a frame with no message id
  | 'Truncated' // a field runs past the end of the frame
  | 'TrailingBytes' // bytes left after the last field
  | 'LengthTooLarge' // a string length above its named maximum
  | 'CountTooLarge' // an element count above its maximum or the bytes left
  | 'InvalidUtf8' // a string that is not well-formed UTF-8
  | 'InvalidFieldMask'; // v5: a flags or field-mask byte with bits the version does not define

// Thrown by a read and turned into a result value before it leaves the codec (codec.ts decodeWith).
export class DecodeFailure {
  constructor(readonly error: DecodeError) {}
}

// Encoding our own message can only fail through our own bug, so it throws with the reason.
export class EncodeError extends Error {}

export type PrefixWidth = 1 | 2; // bytes of a length or count prefix

const LITTLE_ENDIAN = true;
const MAX_U24 = 0xffffff;
const INITIAL_WRITER_BYTES = 64;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class ByteReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  remaining(): number {
    return this.bytes.length - this.pos;
  }

  u8(): number { return this.view.getUint8(this.take(1)); }
  i8(): number { return this.view.getInt8(this.take(1)); }
  u16(): number { return this.view.getUint16(this.take(2), LITTLE_ENDIAN); }
  u24(): number {
    const at = this.take(3);
    return this.bytes[at]! | (this.bytes[at + 1]! << 8) | (this.bytes[at + 2]! << 16);
  }
  u32(): number { return this.view.getUint32(this.take(4), LITTLE_ENDIAN); }
  i32(): number { return this.view.getInt32(this.take(4), LITTLE_ENDIAN); }
  i64(): number { return Number(this.view.getBigInt64(this.take(8), LITTLE_ENDIAN)); }
  f32(): number { return this.view.getFloat32(this.take(4), LITTLE_ENDIAN); }

  prefix(width: PrefixWidth): number {
    return width === 1 ? this.u8() : this.u16();
  }

  // A count is checked against its maximum and the bytes left before anything is allocated.
  count(width: PrefixWidth, max: number, minElementBytes: number): number {
    const n = this.prefix(width);
    if (n > max || n * minElementBytes > this.remaining()) throw new DecodeFailure('CountTooLarge');
    return n;
  }

  string(width: PrefixWidth, maxBytes: number): string {
    const length = this.prefix(width);
    if (length > maxBytes) throw new DecodeFailure('LengthTooLarge');
    const at = this.take(length);
    try {
      return strictUtf8.decode(this.bytes.subarray(at, at + length));
    } catch {
      throw new DecodeFailure('InvalidUtf8');
    }
  }

  private take(size: number): number {
    if (this.remaining() < size) throw new DecodeFailure('Truncated');
    const at = this.pos;
    this.pos += size;
    return at;
  }
}

export class ByteWriter {
  private bytes = new Uint8Array(INITIAL_WRITER_BYTES);
  private view = new DataView(this.bytes.buffer);
  private length = 0;

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  // Room first, then the view: reserve() may replace the buffer and its view.
  u8(v: number): void { const at = this.integer(v, 0, 0xff, 'u8', 1); this.view.setUint8(at, v); }
  i8(v: number): void { const at = this.integer(v, -0x80, 0x7f, 'i8', 1); this.view.setInt8(at, v); }
  u16(v: number): void { const at = this.integer(v, 0, 0xffff, 'u16', 2); this.view.setUint16(at, v, LITTLE_ENDIAN); }
  u24(v: number): void {
    const at = this.integer(v, 0, MAX_U24, 'u24', 3);
    this.bytes[at] = v & 0xff;
    this.bytes[at + 1] = (v >> 8) & 0xff;
    this.bytes[at + 2] = v >> 16;
  }
  u32(v: number): void { const at = this.integer(v, 0, 0xffffffff, 'u32', 4); this.view.setUint32(at, v, LITTLE_ENDIAN); }
  i32(v: number): void { const at = this.integer(v, -0x80000000, 0x7fffffff, 'i32', 4); this.view.setInt32(at, v, LITTLE_ENDIAN); }
  i64(v: number): void {
    const at = this.integer(v, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'i64', 8);
    this.view.setBigInt64(at, BigInt(v), LITTLE_ENDIAN);
  }
  f32(v: number): void {
    if (typeof v !== 'number' || Number.isNaN(v)) throw new EncodeError('f32 field is not a number');
    const at = this.reserve(4);
    this.view.setFloat32(at, v, LITTLE_ENDIAN);
  }

  prefix(width: PrefixWidth, n: number): void {
    if (width === 1) this.u8(n);
    else this.u16(n);
  }

  count(width: PrefixWidth, n: number, max: number): void {
    if (n > max) throw new EncodeError(`${n} elements > ${max}`);
    this.prefix(width, n);
  }

  string(width: PrefixWidth, text: string, maxBytes: number): void {
    if (typeof text !== 'string') throw new EncodeError('string field is not a string');
    // TextEncoder would quietly turn a lone surrogate into U+FFFD: a name the caller never chose.
    if (LONE_SURROGATE.test(text)) throw new EncodeError('string has a lone surrogate');
    const encoded = utf8Encoder.encode(text);
    if (encoded.length > maxBytes) throw new EncodeError(`string of ${encoded.length} bytes > ${maxBytes}`);
    this.prefix(width, encoded.length);
    const at = this.reserve(encoded.length);
    this.bytes.set(encoded, at);
  }

  // Checks an integer field and makes room for it; returns where it goes.
  private integer(v: unknown, min: number, max: number, what: string, size: number): number {
    if (typeof v !== 'number' || Number.isNaN(v)) throw new EncodeError(`${what} field is not a number`);
    if (!Number.isInteger(v) || v < min || v > max) throw new EncodeError(`${v} does not fit ${what}`);
    return this.reserve(size);
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
}
