#include "protocol/block_pixels.hpp"

#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "protocol/sprite_pixels.hpp"

namespace hschool::protocol::hns_compact {
namespace {

// Whether every scale×scale cell of the image holds one colour.
bool widened_by(ByteView rgba, std::size_t width, std::size_t height, std::size_t scale) {
    if (width % scale != 0 || height % scale != 0) return false;
    const std::size_t row = width * 4;
    for (std::size_t y = 0; y < height; ++y) {
        const std::uint8_t* line = rgba.data() + y * row;
        // A row inside a cell repeats the cell's first row.
        if (y % scale != 0 && std::memcmp(line, line - (y % scale) * row, row) != 0) return false;
        if (y % scale != 0) continue;
        for (std::size_t x = 0; x < width; x += scale)
            for (std::size_t i = 1; i < scale; ++i)
                if (std::memcmp(line + (x + i) * 4, line + x * 4, 4) != 0) return false;
    }
    return true;
}

Bytes narrowed(ByteView rgba, std::size_t width, std::size_t height, std::size_t scale) {
    Bytes out;
    out.reserve((width / scale) * (height / scale) * 4);
    for (std::size_t y = 0; y < height; y += scale)
        for (std::size_t x = 0; x < width; x += scale) {
            const std::uint8_t* px = rgba.data() + (y * width + x) * 4;
            out.insert(out.end(), px, px + 4);
        }
    return out;
}

Bytes deflate(ByteView raw) {
    uLongf length = compressBound(static_cast<uLong>(raw.size()));
    Bytes out(length);
    if (compress2(out.data(), &length, raw.data(), static_cast<uLong>(raw.size()), kBlockZlibLevel) != Z_OK) {
        std::fprintf(stderr, "hschool: bug: zlib could not compress %zu bytes\n", raw.size());
        std::abort();
    }
    out.resize(length);
    out.shrink_to_fit();  // the bound is far above the real size; packed blocks live long
    return out;
}

// Inflates into exactly `expected` bytes; one byte more, or a stream that ends short, is a mismatch.
Result<Bytes> inflate_exactly(ByteView zlib, std::size_t expected) {
    Bytes out(expected + 1);  // the spare byte catches a stream that would run longer
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return Error::BadZlib;
    z.next_in = const_cast<Bytef*>(zlib.data());
    z.avail_in = static_cast<uInt>(zlib.size());
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&z, Z_FINISH);
    const std::size_t produced = out.size() - z.avail_out;
    const bool all_input = z.avail_in == 0, out_full = z.avail_out == 0;
    inflateEnd(&z);
    if (status == Z_STREAM_END) {
        if (produced != expected) return Error::SizeMismatch;
        if (!all_input) return Error::BadZlib;  // bytes after the stream's end
        out.resize(expected);
        return out;
    }
    if (status == Z_BUF_ERROR && out_full) return Error::SizeMismatch;  // it would run longer than expected
    return Error::BadZlib;  // broken, or cut before its end
}

Bytes widened(const Bytes& small, std::size_t width, std::size_t height, std::size_t scale) {
    if (scale == 1) return small;
    Bytes out(width * height * 4);
    const std::size_t small_width = width / scale, row = width * 4;
    for (std::size_t y = 0; y < height; y += scale) {
        std::uint8_t* line = out.data() + y * row;
        const std::uint8_t* src = small.data() + (y / scale) * small_width * 4;
        for (std::size_t x = 0; x < small_width; ++x)
            for (std::size_t i = 0; i < scale; ++i) std::memcpy(line + (x * scale + i) * 4, src + x * 4, 4);
        for (std::size_t i = 1; i < scale; ++i) std::memcpy(line + i * row, line, row);
    }
    return out;
}

}  // namespace

PackedBlock pack_block(ByteView rgba, std::uint16_t width, std::uint16_t height) {
    if (width == 0 || height == 0 || rgba.size() != std::size_t{width} * height * 4) {
        std::fprintf(stderr, "hschool: bug: cannot pack %zu RGBA bytes as %ux%u\n", rgba.size(), width, height);
        std::abort();
    }
    for (std::uint8_t scale = kMaxBlockScale; scale > 1; --scale)
        if (widened_by(rgba, width, height, scale)) return {scale, deflate(narrowed(rgba, width, height, scale))};
    return {1, deflate(rgba)};
}

Result<Bytes> unpack_block(const DefineBlock& block) {
    if (block.width == 0 || block.height == 0) return Error::ZeroDimension;
    if (block.scale < 1 || block.scale > kMaxBlockScale || block.width % block.scale || block.height % block.scale)
        return Error::BadScale;
    if (std::size_t{block.width} * block.height * 4 > sprite_v1::kMaxSpriteRgbaBytes) return Error::TooLarge;
    const std::size_t small = static_cast<std::size_t>(block.width / block.scale) * static_cast<std::size_t>(block.height / block.scale) * 4;
    auto pixels = inflate_exactly(block.zlib, small);
    if (!pixels) return pixels;
    return widened(*pixels, block.width, block.height, block.scale);
}

std::optional<Error> check_block(const DefineBlock& block) {
    const auto pixels = unpack_block(block);
    return pixels ? std::nullopt : std::optional<Error>(pixels.error());
}

Result<std::vector<ServerMessage>> decode_checked(ByteView ws_message) {
    auto decoded = decode(ws_message);
    if (!decoded) return decoded;
    for (const auto& message : *decoded) {
        if (const auto* block = std::get_if<DefineBlock>(&message))
            if (const auto error = check_block(*block)) return *error;
        if (const auto* sprite = std::get_if<sprite_v1::DefineSprite>(&message))
            if (const auto error = sprite_v1::check_pixels(*sprite)) return *error;
    }
    return decoded;
}

}  // namespace hschool::protocol::hns_compact
