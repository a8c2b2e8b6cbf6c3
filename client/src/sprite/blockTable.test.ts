import { describe, expect, it } from 'vitest';
import { BlockTable } from './blockTable';
import { MAX_LIVE_BLOCKS, MAX_LIVE_BLOCK_BYTES } from './compact';
import type { DefineBlock } from './compact';

const block = (blockId: number, zlibBytes: number): DefineBlock => ({
  type: 'DefineBlock', blockId, width: 2, height: 2, scale: 1, zlib: new Uint8Array(zlibBytes), rgba: null,
});

describe('block table', () => {
  it('keeps what a receiver must: 1024 blocks and 32 MiB of zlib', () => {
    const table = new BlockTable();
    expect([table.maxBlocks, table.maxBytes]).toStrictEqual([MAX_LIVE_BLOCKS, MAX_LIVE_BLOCK_BYTES]);
    for (let id = 0; id < MAX_LIVE_BLOCKS; id++) expect(table.define(block(id, 10))).toBe(true);
    expect(table.define(block(MAX_LIVE_BLOCKS, 10))).toBe(false); // a new id past the count
    expect(table.define(block(0, 20))).toBe(true); // replacing is not one more
    expect([table.size, table.bytes]).toStrictEqual([MAX_LIVE_BLOCKS, MAX_LIVE_BLOCKS * 10 + 10]);
  });

  it('refuses a block that would take it past its bytes, counting a replacement once', () => {
    const table = new BlockTable(8, 100);
    expect(table.define(block(1, 60))).toBe(true);
    expect(table.define(block(2, 41))).toBe(false);
    expect(table.define(block(1, 100))).toBe(true); // the old 60 bytes go
    expect(table.bytes).toBe(100);
    table.forget(1);
    table.forget(1); // an unknown id is nothing
    expect([table.size, table.bytes]).toStrictEqual([0, 0]);
    expect(table.define(block(2, 41))).toBe(true);
    table.clear();
    expect([table.size, table.bytes, table.get(2)]).toStrictEqual([0, 0, undefined]);
  });

  it('keeps its own copy of the stream, not the WebSocket message it came in', () => {
    const table = new BlockTable();
    const message = block(5, 4);
    table.define(message);
    message.zlib[0] = 99;
    expect(table.get(5)!.zlib[0]).toBe(0);
  });
});
