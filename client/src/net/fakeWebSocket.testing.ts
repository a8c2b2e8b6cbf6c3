// Test double for the browser WebSocket: the test plays the server, frames are raw bytes.
import { vi } from 'vitest';

export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];
  readyState = FakeWebSocket.CONNECTING;
  binaryType = 'blob';
  sent: Uint8Array[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: ArrayBuffer }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }
  send(frame: Uint8Array) {
    this.sent.push(frame);
  }
  close() {
    this.readyState = FakeWebSocket.CLOSED;
  }
  accept() {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.();
  }
  deliver(bytes: Uint8Array) {
    this.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
  }
  drop(code = 1006, reason = '') {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.({ code, reason });
  }
}

// Fake timers and the double in place of the browser's WebSocket (and of the page's location, when
// given) for one test; restoreSockets() puts both back.
export function useFakeSockets(location?: Pick<Location, 'protocol' | 'host'>): void {
  vi.useFakeTimers();
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
  if (location) vi.stubGlobal('location', location);
}

export function restoreSockets(): void {
  vi.useRealTimers();
  vi.unstubAllGlobals();
}

// The socket the code under test opened last.
export const lastFakeSocket = (): FakeWebSocket => FakeWebSocket.instances.at(-1)!;

// Every frame sent on a socket, decoded; one that does not decode fails the test.
export function decodedSent<T>(
  socket: FakeWebSocket,
  decode: (frame: Uint8Array) => { ok: true; message: T } | { ok: false; error: string },
): T[] {
  return socket.sent.map((frame) => {
    const decoded = decode(frame);
    if (!decoded.ok) throw new Error(decoded.error);
    return decoded.message;
  });
}
