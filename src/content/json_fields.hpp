#pragma once
// Typed field access on JSON objects whose errors are sentences, not exceptions.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "content/expected.hpp"

namespace hschool::content {

using FieldError = std::string;

// "an object", "a string", ...: for "'x' must be a string, not a number".
std::string json_kind_name(const boost::json::value& value);

// The first field not in `allowed`, if any; packs are strict so typos surface.
std::optional<std::string> first_unknown_field(const boost::json::object& object,
                                               std::initializer_list<std::string_view> allowed);

// A field that must be present and a string.
Expected<std::string, FieldError> required_string(const boost::json::object& object, std::string_view key);
// Missing or null → empty; otherwise must be a string.
Expected<std::string, FieldError> optional_string(const boost::json::object& object, std::string_view key);
// Missing or null → fallback; otherwise must be a bool.
Expected<bool, FieldError> optional_bool(const boost::json::object& object, std::string_view key, bool fallback);

}  // namespace hschool::content
