#!/usr/bin/env python3
"""Writes tests/vectors/hns_compact.json: the compact watch stream's golden vectors (docs/hide-and-seek.md,
"The compact watch stream"). Checked by tests/protocol/hns_compact_vectors_test.cpp and the client's
client/src/sprite/compact.test.ts. Run it again after changing a vector; the output is deterministic."""
import json
import os
import struct
import zlib

def hx(b):
    return " ".join(f"{x:02x}" for x in b)

def u8(v): return struct.pack("<B", v)
def u16(v): return struct.pack("<H", v)
def i16(v): return struct.pack("<h", v)
def u32(v): return struct.pack("<I", v)

def frame_mark(tick, flags):
    return u8(0x10) + u32(tick) + u8(flags)

def define_block(block_id, w, h, scale, z):
    return u8(0x11) + u16(block_id) + u16(w) + u16(h) + u8(scale) + u32(len(z)) + z

def use_block(sprite_id, block_id, label):
    l = label.encode()
    return u8(0x12) + u16(sprite_id) + u16(block_id) + u16(len(l)) + l

def relabel(sprite_id, label):
    l = label.encode()
    return u8(0x13) + u16(sprite_id) + u16(len(l)) + l

def forget(block_id):
    return u8(0x14) + u16(block_id)

def define_object(oid, x, y, z, layer, sid):
    return u8(0x02) + u16(oid) + i16(x) + i16(y) + i16(z) + u8(layer) + u16(sid)

def widen(small, w, h, scale):
    sw = w // scale
    out = bytearray()
    for y in range(h):
        row = small[(y // scale) * sw * 4:(y // scale + 1) * sw * 4]
        for x in range(w):
            out += row[(x // scale) * 4:(x // scale) * 4 + 4]
    return bytes(out)

# A 2x2 image (the spec's test sprite's colours), and a 1x1 widened to 2x2 and 4x4.
SMALL_2X2 = bytes([0xff, 0, 0, 0xff, 0, 0xff, 0, 0xff, 0, 0, 0xff, 0xff, 0, 0, 0, 0])
Z_2X2 = zlib.compress(SMALL_2X2, 9)
SMALL_1X1 = bytes([0x3f, 0x7c, 0xc4, 0x80])
Z_1X1 = zlib.compress(SMALL_1X1, 9)
# A stored (uncompressed) deflate block: what any zlib may write; decoders take every valid stream.
Z_2X2_STORED = zlib.compress(SMALL_2X2, 0)

def block_fields(block_id, w, h, scale, z, small):
    return {"blockId": block_id, "width": w, "height": h, "scale": scale, "zlib": hx(z), "rgba": hx(widen(small, w, h, scale))}

valid = []
def add(name, type_, fields, raw):
    valid.append({"name": name, "type": type_, "fields": fields, "hex": hx(raw)})

add("frame-mark", "FrameMark", {"tick": 1234, "flags": 0}, frame_mark(1234, 0))
add("frame-mark-keyframe-resync", "FrameMark", {"tick": 0xFFFFFFFF, "flags": 3}, frame_mark(0xFFFFFFFF, 3))
add("define-block-2x2-scale-1", "DefineBlock", block_fields(0, 2, 2, 1, Z_2X2, SMALL_2X2), define_block(0, 2, 2, 1, Z_2X2))
add("define-block-2x2-stored", "DefineBlock", block_fields(9, 2, 2, 1, Z_2X2_STORED, SMALL_2X2), define_block(9, 2, 2, 1, Z_2X2_STORED))
add("define-block-1x1-widened-to-4x4", "DefineBlock", block_fields(65535, 4, 4, 4, Z_1X1, SMALL_1X1), define_block(65535, 4, 4, 4, Z_1X1))
add("define-block-2x2-widened-to-4x4", "DefineBlock", block_fields(7, 4, 4, 2, Z_2X2, SMALL_2X2), define_block(7, 4, 4, 2, Z_2X2))
add("use-block", "UseBlock", {"spriteId": 2400, "blockId": 7, "label": "vision cone 1 aim 37 deg 60 range 340 on"},
    use_block(2400, 7, "vision cone 1 aim 37 deg 60 range 340 on"))
add("use-block-no-label", "UseBlock", {"spriteId": 30, "blockId": 0, "label": ""}, use_block(30, 0, ""))
add("relabel", "Relabel", {"spriteId": 2400, "label": "vision cone 1 aim 38 deg 60 range 340 on"},
    relabel(2400, "vision cone 1 aim 38 deg 60 range 340 on"))
add("forget-block", "ForgetBlock", {"blockId": 513}, forget(513))

keyframe = [
    ({"type": "FrameMark", "fields": {"tick": 42, "flags": 1}}, frame_mark(42, 1)),
    ({"type": "ClearObjects", "fields": {}}, u8(0x04)),
    ({"type": "DefineLayer", "fields": {"layer": 0, "type": 0, "flags": 1}}, u8(0x06) + u8(0) + u8(0) + u8(1)),
    ({"type": "SetViewport", "fields": {"layer": 0, "width": 1440, "height": 800}}, u8(0x05) + u8(0) + u16(1440) + u16(800)),
    ({"type": "DefineBlock", "fields": block_fields(0, 4, 4, 2, Z_2X2, SMALL_2X2)}, define_block(0, 4, 4, 2, Z_2X2)),
    ({"type": "UseBlock", "fields": {"spriteId": 100, "blockId": 0, "label": "cog HIDER own aim 3"}}, use_block(100, 0, "cog HIDER own aim 3")),
    ({"type": "DefineObject", "fields": {"objectId": 1000, "x": 212, "y": -8, "z": 92, "layer": 0, "spriteId": 100}},
     define_object(1000, 212, -8, 92, 0, 100)),
]
add("frame-keyframe", "Frame", {"messages": [m for m, _ in keyframe]}, b"".join(r for _, r in keyframe))
diff = [
    ({"type": "FrameMark", "fields": {"tick": 43, "flags": 0}}, frame_mark(43, 0)),
    ({"type": "ForgetBlock", "fields": {"blockId": 3}}, forget(3)),
    ({"type": "Relabel", "fields": {"spriteId": 100, "label": "cog HIDER own aim 4"}}, relabel(100, "cog HIDER own aim 4")),
    ({"type": "DefineObject", "fields": {"objectId": 1000, "x": 214, "y": -8, "z": 92, "layer": 0, "spriteId": 100}},
     define_object(1000, 214, -8, 92, 0, 100)),
    ({"type": "DeleteObject", "fields": {"objectId": 2320}}, u8(0x03) + u16(2320)),
]
add("frame-diff", "Frame", {"messages": [m for m, _ in diff]}, b"".join(r for _, r in diff))
# An always-sent sprite (a tether, a shout) goes inline as Sprite v1's Define Sprite.
snappy_2x2 = bytes([0x10, 0x3c]) + SMALL_2X2
add("define-sprite-inline", "DefineSprite",
    {"spriteId": 2600, "width": 2, "height": 2, "compressed": hx(snappy_2x2), "rgba": hx(SMALL_2X2), "label": "carry tether 0 1,1"},
    u8(0x01) + u16(2600) + u16(2) + u16(2) + u32(len(snappy_2x2)) + snappy_2x2 + u16(18) + b"carry tether 0 1,1")

malformed = []
def bad(name, raw, error):
    malformed.append({"name": name, "hex": hx(raw), "error": error})

bad("unknown-type-15", u8(0x15), "UnknownType")
bad("unknown-type-07", u8(0x07), "UnknownType")
bad("client-id", u8(0x81) + u16(0), "UnknownType")
bad("frame-truncated", frame_mark(1, 0)[:5], "Truncated")
bad("frame-bad-flags", frame_mark(1, 4), "BadFlags")
bad("frame-bad-flags-high", frame_mark(1, 0x80), "BadFlags")
bad("block-truncated-header", define_block(0, 2, 2, 1, Z_2X2)[:8], "Truncated")
bad("block-truncated-pixels", define_block(0, 2, 2, 1, Z_2X2)[:-1], "Truncated")
bad("block-zero-width", define_block(0, 0, 2, 1, Z_2X2), "ZeroDimension")
bad("block-zero-height", define_block(0, 2, 0, 1, Z_2X2), "ZeroDimension")
bad("block-scale-zero", define_block(0, 2, 2, 0, Z_2X2), "BadScale")
bad("block-scale-nine", define_block(0, 9, 9, 9, Z_1X1), "BadScale")
bad("block-scale-not-dividing", define_block(0, 3, 2, 2, Z_2X2), "BadScale")
bad("block-too-large-image", define_block(0, 4097, 4096, 1, Z_2X2), "TooLarge")
bad("block-too-many-bytes", u8(0x11) + u16(0) + u16(2) + u16(2) + u8(1) + u32(100000), "TooLarge")
bad("block-not-zlib", define_block(0, 2, 2, 1, b"\x00\x00" + Z_2X2[2:]), "BadZlib")
bad("block-zlib-preset-dictionary", define_block(0, 2, 2, 1, bytes([0x78, 0xBB]) + Z_2X2[2:]), "BadZlib")
bad("block-empty", define_block(0, 2, 2, 1, b""), "BadZlib")
# Past a good header: needs the full check (inflating).
bad("block-corrupt-body", define_block(0, 2, 2, 1, Z_2X2[:2] + b"\xff" * (len(Z_2X2) - 2)), "BadZlib")
bad("block-cut-stream", define_block(0, 2, 2, 1, Z_2X2[:-5]), "BadZlib")
bad("block-short-pixels", define_block(0, 2, 2, 1, zlib.compress(SMALL_2X2[:12], 9)), "SizeMismatch")
bad("block-long-pixels", define_block(0, 2, 2, 1, zlib.compress(SMALL_2X2 + b"\0\0\0\0", 9)), "SizeMismatch")
bad("block-widened-wrong-size", define_block(0, 4, 4, 2, Z_1X1), "SizeMismatch")
bad("block-trailing-bytes", define_block(0, 2, 2, 1, Z_2X2 + b"\x00"), "BadZlib")
bad("use-block-truncated", use_block(1, 2, "abc")[:-1], "Truncated")
bad("use-block-truncated-ids", use_block(1, 2, "")[:4], "Truncated")
bad("relabel-truncated", relabel(1, "abc")[:-2], "Truncated")
bad("forget-truncated", forget(1)[:2], "Truncated")
bad("good-then-garbage", frame_mark(1, 0) + u8(0xEE), "UnknownType")

# Receiver state: messages applied in order by a drawing receiver, and what it says.
def seq(name, messages, error):
    return {"name": name, "messages": [hx(m) for m in messages], "error": error}
z0 = define_block(0, 2, 2, 1, Z_2X2)
receiver = [
    seq("use-before-define", [frame_mark(1, 1), use_block(5, 0, "x")], "UnknownBlock"),
    seq("use-after-forget", [frame_mark(1, 1), z0, forget(0), use_block(5, 0, "x")], "UnknownBlock"),
    seq("a-keyframe-clears-the-blocks", [frame_mark(1, 1), z0, frame_mark(2, 1), use_block(5, 0, "x")], "UnknownBlock"),
    seq("a-plain-frame-keeps-the-blocks", [frame_mark(1, 1), z0, frame_mark(2, 0), use_block(5, 0, "x")], None),
    seq("relabel-unknown-sprite", [frame_mark(1, 1), relabel(5, "x")], "UnknownSprite"),
    seq("relabel-known-sprite", [frame_mark(1, 1), z0, use_block(5, 0, "x"), relabel(5, "y")], None),
    seq("forget-unknown-is-nothing", [frame_mark(1, 1), forget(77)], None),
    seq("object-on-unknown-layer", [frame_mark(1, 1), z0, use_block(5, 0, "x"), define_object(1, 0, 0, 0, 3, 5)], "UnknownLayer"),
    seq("too-many-blocks", [frame_mark(1, 1)] + [define_block(i, 1, 1, 1, Z_1X1) for i in range(1025)], "TooManyBlocks"),
    seq("redefining-a-block-is-not-one-more", [frame_mark(1, 1)] + [define_block(i % 1024, 1, 1, 1, Z_1X1) for i in range(1100)], None),
]

doc = {
    "version": "hns-compact",
    "about": [
        "The compact watch stream's golden vectors (docs/hide-and-seek.md, 'The compact watch stream'), written by make_hns_compact.py.",
        "Checked by tests/protocol/hns_compact_vectors_test.cpp and client/src/sprite/compact.test.ts.",
        "valid: hex is one whole WebSocket message; type Frame holds fields.messages, a list of {type, fields}, back to back.",
        "FrameMark: tick, flags (1 keyframe, 2 resync). DefineBlock: blockId, width, height, scale, zlib (hex of the stream as written), rgba (hex of the widened width*height*4 pixels). UseBlock: spriteId, blockId, label. Relabel: spriteId, label. ForgetBlock: blockId.",
        "Sprite v1 messages keep their sprite_v1.json fields (DefineSprite: spriteId, width, height, compressed, rgba, label).",
        "malformed: error is UnknownType, Truncated, TooLarge, ZeroDimension, BadScale, BadZlib, SizeMismatch or BadFlags; BadZlib past a correct header and SizeMismatch need the full check (inflating).",
        "receiver: messages (hex each) applied in order by a drawing receiver; error is the first receiver error (UnknownBlock, UnknownSprite, UnknownLayer, TooManyBlocks) or null.",
    ],
    "valid": valid,
    "malformed": malformed,
    "receiver": receiver,
}
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hns_compact.json")
with open(out, "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
print(f"wrote {out}: {len(valid)} valid, {len(malformed)} malformed, {len(receiver)} receiver sequences")
