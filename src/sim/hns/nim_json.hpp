#pragma once
// JSON text as the reference's Nim writes it ($ on a JsonNode): compact, keys in insertion order,
// floats as nim_float_text prints them (0.0, 0.9340000000000001), strings escaped as its
// escapeJson does. The seat view, the order catalog and the training bridge's answers use it, so
// our lines match the reference's byte for byte.
#include <boost/json/value.hpp>
#include <string>
#include <string_view>

namespace hschool::sim::hns {

void append_nim_json(const boost::json::value& value, std::string& out);
// A JSON string literal, quotes included.
void append_nim_json_string(std::string_view text, std::string& out);
std::string nim_json_text(const boost::json::value& value);

}  // namespace hschool::sim::hns
