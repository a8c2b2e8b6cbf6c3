// Bytes as spaced hex and back: how the golden vectors (tests/vectors/*.json) write frames.
export function hexToBytes(hex: string): Uint8Array {
  const digits = hex.replace(/\s+/g, '');
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}
