// Several Sprite v1 WebSocket messages that arrive between two display frames are applied together,
// and a Define Sprite that a later one in the same batch redefines is dropped before it is decoded:
// the tables end exactly as if every message had been applied (a redefinition replaces pixels and
// label), but a 1364×1364 vision cone re-sent every tick is decompressed once per drawn frame, not
// once per tick. Only message boundaries are read here; the real decoder still checks everything.
const DEFINE_SPRITE = 0x01;
const FIXED_SIZE: Readonly<Record<number, number>> = { 0x02: 12, 0x03: 3, 0x04: 1, 0x05: 6, 0x06: 4 };
const SPRITE_HEADER = 11; // type, id, w, h, u32 N
const LABEL_LENGTH = 2;

export interface Span {
  start: number;
  end: number;
  spriteId: number | null; // for a Define Sprite
}

// The messages of one WebSocket message, or null if it does not walk cleanly (left to the decoder).
export function spans(bytes: Uint8Array): Span[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Span[] = [];
  let at = 0;
  while (at < bytes.length) {
    const type = bytes[at]!;
    if (type === DEFINE_SPRITE) {
      if (at + SPRITE_HEADER > bytes.length) return null;
      const pixels = view.getUint32(at + 7, true);
      const labelAt = at + SPRITE_HEADER + pixels;
      if (labelAt + LABEL_LENGTH > bytes.length) return null;
      const end = labelAt + LABEL_LENGTH + view.getUint16(labelAt, true);
      if (end > bytes.length) return null;
      out.push({ start: at, end, spriteId: view.getUint16(at + 1, true) });
      at = end;
      continue;
    }
    const size = FIXED_SIZE[type];
    if (size === undefined || at + size > bytes.length) return null;
    out.push({ start: at, end: at + size, spriteId: null });
    at += size;
  }
  return out;
}

// The batch with every superseded Define Sprite cut out; messages that do not walk are kept whole
// (and stop anything before them from being cut, so an error still surfaces in order).
export function coalesce(batch: readonly Uint8Array[]): Uint8Array[] {
  const walked = batch.map(spans);
  const later = new Set<number>(); // sprite ids defined again further on
  const keep: boolean[][] = walked.map((list) => (list ? list.map(() => true) : []));
  for (let m = batch.length - 1; m >= 0; m--) {
    const list = walked[m];
    if (!list) {
      later.clear(); // do not reorder around a message the decoder will judge
      continue;
    }
    for (let i = list.length - 1; i >= 0; i--) {
      const id = list[i]!.spriteId;
      if (id === null) continue;
      if (later.has(id)) keep[m]![i] = false;
      else later.add(id);
    }
  }
  return batch.map((bytes, m) => {
    const list = walked[m];
    const flags = keep[m]!;
    if (!list || flags.every(Boolean)) return bytes;
    return join(bytes, list.filter((_, i) => flags[i]));
  });
}

export const BIG_SPRITE_RGBA_BYTES = 1 << 20;

// Cuts out every Define Sprite of a sprite at least `minRgbaBytes` big that `known` says is already
// defined, and returns them (in order) apart: the caller applies the latest of each later.
export function splitBigRedefinitions(
  message: Uint8Array,
  known: (spriteId: number) => boolean,
  minRgbaBytes = BIG_SPRITE_RGBA_BYTES,
): { rest: Uint8Array; big: Array<{ spriteId: number; bytes: Uint8Array }> } {
  const list = spans(message);
  if (!list) return { rest: message, big: [] };
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const big: Array<{ spriteId: number; bytes: Uint8Array }> = [];
  const keep: Span[] = [];
  for (const span of list) {
    const id = span.spriteId;
    const rgba = id === null ? 0 : view.getUint16(span.start + 3, true) * view.getUint16(span.start + 5, true) * 4;
    if (id !== null && rgba >= minRgbaBytes && known(id)) big.push({ spriteId: id, bytes: message.subarray(span.start, span.end) });
    else keep.push(span);
  }
  if (big.length === 0) return { rest: message, big };
  return { rest: join(message, keep), big };
}

function join(bytes: Uint8Array, parts: readonly Span[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, s) => sum + (s.end - s.start), 0));
  let at = 0;
  for (const s of parts) {
    out.set(bytes.subarray(s.start, s.end), at);
    at += s.end - s.start;
  }
  return out;
}
