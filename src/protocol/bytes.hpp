#pragma once
// Little-endian byte reader and writer: the only place that turns numbers into bytes and back.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hschool::protocol {

using Bytes = std::vector<std::uint8_t>;
using ByteView = std::span<const std::uint8_t>;

// The little-endian fields both writers offer; Writer supplies put(value, width).
template <class Writer>
class LittleEndianFields {
public:
    void u8(std::uint8_t v) { writer().put(v, 1); }
    void u16(std::uint16_t v) { writer().put(v, 2); }
    void u24(std::uint32_t v) { writer().put(v, 3); }
    void u32(std::uint32_t v) { writer().put(v, 4); }
    void u64(std::uint64_t v) { writer().put(v, 8); }
    void i8(std::int8_t v) { u8(static_cast<std::uint8_t>(v)); }
    void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
    void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
    void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }

private:
    Writer& writer() { return static_cast<Writer&>(*this); }
};

// Appends field by field.
class ByteWriter : public LittleEndianFields<ByteWriter> {
public:
    explicit ByteWriter(Bytes& out) : out_(out) {}
    void raw(std::string_view s) { out_.insert(out_.end(), s.begin(), s.end()); }

private:
    friend class LittleEndianFields<ByteWriter>;
    void put(std::uint64_t v, int width) {
        for (int i = 0; i < width; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    Bytes& out_;
};

// The same fields into room made once for a size known in advance: a pointer store per field
// instead of a vector push_back per byte (v5 encodes a Frame per client per tick). Grows if the
// size was short; finish() trims the room to what was written.
class RoomWriter : public LittleEndianFields<RoomWriter> {
public:
    RoomWriter(Bytes& out, std::size_t expected) : out_(out), at_(out.size()) { out_.resize(at_ + expected); }

    void raw(std::string_view s) { raw(ByteView(reinterpret_cast<const std::uint8_t*>(s.data()), s.size())); }
    void raw(ByteView s) {
        room(s.size());
        std::copy(s.begin(), s.end(), out_.begin() + static_cast<std::ptrdiff_t>(at_));
        at_ += s.size();
    }
    void finish() { out_.resize(at_); }

private:
    friend class LittleEndianFields<RoomWriter>;
    void room(std::size_t n) {
        if (out_.size() - at_ < n) out_.resize(std::max(2 * out_.size(), at_ + n));
    }
    void put(std::uint64_t v, int width) {
        room(static_cast<std::size_t>(width));
        std::uint8_t* p = out_.data() + at_;
        for (int i = 0; i < width; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
        at_ += static_cast<std::size_t>(width);
    }
    Bytes& out_;
    std::size_t at_;
};

// Every read checks the bytes left first; a failed read leaves the value untouched.
class ByteReader {
public:
    explicit ByteReader(ByteView in) : in_(in) {}

    std::size_t remaining() const { return in_.size() - pos_; }
    bool at_end() const { return pos_ == in_.size(); }

    bool u8(std::uint8_t& v) {
        if (remaining() < 1) return false;
        v = in_[pos_++];
        return true;
    }
    bool u16(std::uint16_t& v) { return get(v, 2); }
    bool u24(std::uint32_t& v) { return get(v, 3); }
    bool u32(std::uint32_t& v) { return get(v, 4); }
    bool u64(std::uint64_t& v) { return get(v, 8); }
    bool i8(std::int8_t& v) {
        std::uint8_t u = 0;
        if (!u8(u)) return false;
        v = static_cast<std::int8_t>(u);
        return true;
    }
    bool i32(std::int32_t& v) {
        std::uint32_t u = 0;
        if (!u32(u)) return false;
        v = static_cast<std::int32_t>(u);
        return true;
    }
    bool i64(std::int64_t& v) {
        std::uint64_t u = 0;
        if (!u64(u)) return false;
        v = static_cast<std::int64_t>(u);
        return true;
    }
    bool f32(float& v) {
        std::uint32_t u = 0;
        if (!u32(u)) return false;
        v = std::bit_cast<float>(u);
        return true;
    }
    bool raw(std::string& s, std::size_t length) {
        if (remaining() < length) return false;
        s.assign(reinterpret_cast<const char*>(in_.data() + pos_), length);
        pos_ += length;
        return true;
    }

private:
    template <class T>
    bool get(T& v, int width) {
        if (remaining() < static_cast<std::size_t>(width)) return false;
        T out = 0;
        for (int i = 0; i < width; ++i) out |= static_cast<T>(static_cast<T>(in_[pos_ + i]) << (8 * i));
        pos_ += static_cast<std::size_t>(width);
        v = out;
        return true;
    }
    ByteView in_;
    std::size_t pos_ = 0;
};

}  // namespace hschool::protocol
