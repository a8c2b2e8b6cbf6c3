// One Sprite v1 socket's receiving side: decode, apply, and report an error instead of ever throwing,
// so a malformed message closes the socket and shows an error rather than freezing the page.
import { PixelCache } from './pixelCache';
import { decodeServer } from './protocol';
import type { SpriteError } from './protocol';
import { SpriteWorld } from './world';
import type { Applied } from './world';

// Browsers let a page close with 1000 or 3000–4999 only; 4000 says "the server sent bytes we reject".
export const CLOSE_MALFORMED = 4000;

export class SpriteStream {
  readonly world = new SpriteWorld();
  readonly pixels = new PixelCache(); // repeated pixel blocks (redefined vision cones) decode once
  messages = 0; // WebSocket messages applied: the server sends one per tick (more when chunked, §1.4)
  error: SpriteError | null = null;

  receive(data: ArrayBuffer | Uint8Array): Applied {
    if (this.error) return { ok: false, error: this.error };
    let result: Applied;
    try {
      const decoded = decodeServer(data instanceof Uint8Array ? data : new Uint8Array(data), this.pixels);
      result = decoded.ok ? this.world.apply(decoded.messages) : decoded;
    } catch {
      result = { ok: false, error: 'Internal' };
    }
    if (result.ok) this.messages++;
    else this.error = result.error;
    return result;
  }
}

// The part of a browser WebSocket this needs, so tests can pass a stand-in.
export interface SpriteSocket {
  binaryType: string;
  onmessage: ((event: MessageEvent) => void) | null;
  close(code?: number, reason?: string): void;
}

// Feeds a socket into a stream; on the first bad message it closes the socket and calls onError once.
// Text frames are not Sprite v1 (the player stream sends its decision JSON as text): they go to onText.
export function bindSpriteSocket(
  socket: SpriteSocket,
  stream: SpriteStream,
  handlers: { onApplied: () => void; onError: (error: SpriteError) => void; onText?: (text: string) => void },
): void {
  socket.binaryType = 'arraybuffer';
  socket.onmessage = (event) => {
    if (stream.error) return;
    if (typeof event.data === 'string') {
      handlers.onText?.(event.data);
      return;
    }
    if (!(event.data instanceof ArrayBuffer)) return;
    const result = stream.receive(event.data);
    if (result.ok) {
      handlers.onApplied();
      return;
    }
    socket.onmessage = null;
    socket.close(CLOSE_MALFORMED, result.error);
    handlers.onError(result.error);
  };
}
