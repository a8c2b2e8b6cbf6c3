#pragma once
// The check every codec's golden vectors get: no prefix of a valid frame decodes, and a frame with
// one byte more is refused as TrailingBytes.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "protocol/bytes.hpp"
#include "protocol/errors.hpp"
#include "vectors.hpp"

namespace hschool::test {

template <class Decode>
void expect_every_prefix_rejected(const char* file, const char* direction, Decode decode) {
    using protocol::Bytes;
    using protocol::DecodeError;
    const auto doc = load_vectors(file);
    int checked = 0;
    for (const auto& v : doc.at("valid").as_array()) {
        const auto& o = v.as_object();
        if (o.at("direction").as_string() != direction) continue;
        const Bytes frame = from_hex(o.at("hex").as_string());
        SCOPED_TRACE(std::string(o.at("name").as_string()));
        for (std::size_t cut = 0; cut < frame.size(); ++cut) {
            const Bytes prefix(frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(cut));
            const auto decoded = decode(prefix);
            EXPECT_FALSE(decoded.ok()) << "prefix of " << cut << " bytes was accepted";
            if (!decoded.ok() && cut > 0) {
                EXPECT_NE(decoded.error(), DecodeError::TrailingBytes);
            }
        }
        Bytes longer = frame;
        longer.push_back(0);
        const auto decoded = decode(longer);
        ASSERT_FALSE(decoded.ok());
        EXPECT_EQ(decoded.error(), DecodeError::TrailingBytes);
        ++checked;
    }
    EXPECT_GT(checked, 0);
}

}  // namespace hschool::test
