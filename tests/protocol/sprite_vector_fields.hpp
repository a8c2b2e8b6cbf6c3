#pragma once
// Reading Sprite v1's server messages out of a vector file's fields: shared by the Sprite v1 vectors
// and the compact watch stream's, whose frames carry the same six messages.
#include <boost/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "protocol/sprite_v1.hpp"
#include "vectors.hpp"

namespace hschool::test {

namespace sv = protocol::sprite_v1;
using boost::json::object;

template <class T>
T num(const object& o, const char* key) {
    return static_cast<T>(o.at(key).to_number<std::int64_t>());
}
inline std::string str(const object& o, const char* key) { return std::string(o.at(key).as_string()); }

inline sv::ServerMessage server_message(const std::string& type, const object& f) {
    if (type == "DefineSprite")
        return sv::DefineSprite{num<std::uint16_t>(f, "spriteId"), num<std::uint16_t>(f, "width"),
                                num<std::uint16_t>(f, "height"), test::from_hex(str(f, "compressed")), str(f, "label")};
    if (type == "DefineObject")
        return sv::DefineObject{num<std::uint16_t>(f, "objectId"), num<std::int16_t>(f, "x"), num<std::int16_t>(f, "y"),
                                num<std::int16_t>(f, "z"), num<std::uint8_t>(f, "layer"), num<std::uint16_t>(f, "spriteId")};
    if (type == "DeleteObject") return sv::DeleteObject{num<std::uint16_t>(f, "objectId")};
    if (type == "ClearObjects") return sv::ClearObjects{};
    if (type == "SetViewport")
        return sv::SetViewport{num<std::uint8_t>(f, "layer"), num<std::uint16_t>(f, "width"), num<std::uint16_t>(f, "height")};
    if (type == "DefineLayer")
        return sv::DefineLayer{num<std::uint8_t>(f, "layer"), num<std::uint8_t>(f, "type"), num<std::uint8_t>(f, "flags")};
    throw std::runtime_error("unknown Sprite v1 server type " + type);
}

}  // namespace hschool::test
