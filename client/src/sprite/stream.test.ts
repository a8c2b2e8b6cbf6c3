import { describe, expect, it } from 'vitest';
import { mapLayer, object, packet, solid } from './fixtures.testing';
import { hexToBytes } from './protocol';
import { CLOSE_MALFORMED, SpriteStream, bindSpriteSocket } from './stream';
import type { SpriteSocket } from './stream';
import type { SpriteError } from './protocol';

class StandInSocket implements SpriteSocket {
  binaryType = 'blob';
  onmessage: ((event: MessageEvent) => void) | null = null;
  closed: { code?: number; reason?: string } | null = null;
  close(code?: number, reason?: string): void {
    this.closed = { code, reason };
  }
  deliver(data: Uint8Array | string): void {
    const payload = typeof data === 'string' ? data : data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    this.onmessage?.(new MessageEvent('message', { data: payload }));
  }
}

function bound() {
  const socket = new StandInSocket();
  const stream = new SpriteStream();
  const log = { applied: 0, errors: [] as SpriteError[], texts: [] as string[] };
  bindSpriteSocket(socket, stream, {
    onApplied: () => log.applied++,
    onError: (error) => log.errors.push(error),
    onText: (text) => log.texts.push(text),
  });
  return { socket, stream, log };
}

describe('a Sprite v1 socket', () => {
  it('asks for ArrayBuffers and applies each binary message, empty ones included', () => {
    const { socket, stream, log } = bound();
    expect(socket.binaryType).toBe('arraybuffer');
    socket.deliver(packet(...mapLayer(720, 400), solid(7, 1, 1, [1, 2, 3, 4], 'test'), object(3, 10, 20, 0, 7)));
    socket.deliver(new Uint8Array(0));
    expect(log.applied).toBe(2);
    expect(stream.messages).toBe(2);
    expect(stream.world.objects.get(3)).toMatchObject({ x: 10, y: 20 });
  });

  it('passes text frames (the player stream’s decision JSON) on without touching the tables', () => {
    const { socket, log } = bound();
    socket.deliver('{"tick":1}');
    expect(log.texts).toStrictEqual(['{"tick":1}']);
    expect(socket.closed).toBeNull();
  });

  it('closes the socket and reports the error once on a malformed message, never throwing', () => {
    const { socket, stream, log } = bound();
    socket.deliver(packet(...mapLayer(720, 400)));
    expect(() => socket.deliver(hexToBytes('01 07 00 02 00 02 00 0e 00 00 00 0c 2c ff 00 00 ff 00 ff 00 ff 00 00 ff ff 00 00'))).not.toThrow();
    expect(socket.closed).toStrictEqual({ code: CLOSE_MALFORMED, reason: 'SizeMismatch' });
    expect(log.errors).toStrictEqual(['SizeMismatch']);
    socket.deliver(packet(object(3, 0, 0, 0, 7))); // a late message after the close changes nothing
    expect(log.errors).toHaveLength(1);
    expect(stream.world.objects.size).toBe(0);
    expect(stream.error).toBe('SizeMismatch');
  });

  it('treats an object on an unknown layer as malformed too', () => {
    const { socket, log } = bound();
    socket.deliver(packet(object(3, 0, 0, 0, 7, 4)));
    expect(log.errors).toStrictEqual(['UnknownLayer']);
    expect(socket.closed?.code).toBe(CLOSE_MALFORMED);
  });

  it('turns an unexpected exception into an error instead of letting it reach the page', () => {
    const stream = new SpriteStream();
    stream.world.apply = () => {
      throw new Error('boom');
    };
    expect(stream.receive(packet(...mapLayer(1, 1)))).toStrictEqual({ ok: false, error: 'Internal' });
  });
});
