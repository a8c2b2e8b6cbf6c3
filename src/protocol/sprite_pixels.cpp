#include "protocol/sprite_pixels.hpp"

#include <snappy.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace hschool::protocol::sprite_v1 {
namespace {

const char* chars(ByteView bytes) { return reinterpret_cast<const char*>(bytes.data()); }

}  // namespace

Bytes compress_rgba(ByteView rgba) {
    if (rgba.empty() || rgba.size() % 4 != 0 || rgba.size() > kMaxSpriteRgbaBytes) {
        std::fprintf(stderr, "hschool: bug: cannot compress %zu RGBA bytes\n", rgba.size());
        std::abort();
    }
    // Scratch room for the worst case, not zeroed (a cone is megabytes and Snappy writes only what it
    // needs); the block kept is exactly the compressed size, as cached blocks live long.
    const std::unique_ptr<char[]> scratch(new char[snappy::MaxCompressedLength(rgba.size())]);
    std::size_t length = 0;
    snappy::RawCompress(chars(rgba), rgba.size(), scratch.get(), &length);
    const auto* block = reinterpret_cast<const std::uint8_t*>(scratch.get());
    return Bytes(block, block + length);
}

Result<Bytes> decompress_rgba(ByteView block, std::uint16_t width, std::uint16_t height) {
    if (width == 0 || height == 0) return Error::ZeroDimension;
    const std::size_t expected = std::size_t{width} * height * 4;
    if (expected > kMaxSpriteRgbaBytes) return Error::TooLarge;
    std::size_t length = 0;
    // The preamble is read before anything is allocated, so a hostile length costs nothing.
    if (!snappy::GetUncompressedLength(chars(block), block.size(), &length)) return Error::BadSnappy;
    if (length != expected) return Error::SizeMismatch;
    Bytes rgba(expected);
    if (!snappy::RawUncompress(chars(block), block.size(), reinterpret_cast<char*>(rgba.data())))
        return Error::BadSnappy;
    return rgba;
}

std::optional<Error> check_pixels(const DefineSprite& sprite) {
    if (sprite.pixels.empty()) return std::nullopt;  // pixels stripped (Sprites Off)
    if (sprite.width == 0 || sprite.height == 0) return Error::ZeroDimension;
    std::size_t length = 0;
    if (!snappy::GetUncompressedLength(chars(sprite.pixels), sprite.pixels.size(), &length)) return Error::BadSnappy;
    if (length != std::size_t{sprite.width} * sprite.height * 4) return Error::SizeMismatch;
    // Validates every tag without writing the output anywhere.
    if (!snappy::IsValidCompressedBuffer(chars(sprite.pixels), sprite.pixels.size())) return Error::BadSnappy;
    return std::nullopt;
}

Result<std::vector<ServerMessage>> decode_server_checked(ByteView ws_message) {
    auto decoded = decode_server(ws_message);
    if (!decoded) return decoded;
    for (const auto& message : *decoded)
        if (const auto* sprite = std::get_if<DefineSprite>(&message))
            if (const auto error = check_pixels(*sprite)) return *error;
    return decoded;
}

}  // namespace hschool::protocol::sprite_v1
