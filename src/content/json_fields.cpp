#include "content/json_fields.hpp"

namespace hschool::content {

std::string json_kind_name(const boost::json::value& value) {
    switch (value.kind()) {
        case boost::json::kind::null: return "null";
        case boost::json::kind::bool_: return "a boolean";
        case boost::json::kind::int64:
        case boost::json::kind::uint64:
        case boost::json::kind::double_: return "a number";
        case boost::json::kind::string: return "a string";
        case boost::json::kind::array: return "an array";
        case boost::json::kind::object: return "an object";
    }
    return "a value";
}

std::optional<std::string> first_unknown_field(const boost::json::object& object,
                                               std::initializer_list<std::string_view> allowed) {
    for (const auto& field : object) {
        bool known = false;
        for (std::string_view name : allowed) known = known || field.key() == name;
        if (!known) return std::string(field.key());
    }
    return std::nullopt;
}

Expected<std::string, FieldError> required_string(const boost::json::object& object, std::string_view key) {
    const boost::json::value* value = object.if_contains(key);
    if (value == nullptr) return unexpected("'" + std::string(key) + "' is missing");
    if (!value->is_string()) return unexpected("'" + std::string(key) + "' must be a string, not " + json_kind_name(*value));
    return std::string(value->get_string());
}

Expected<std::string, FieldError> optional_string(const boost::json::object& object, std::string_view key) {
    const boost::json::value* value = object.if_contains(key);
    if (value == nullptr || value->is_null()) return std::string();
    if (!value->is_string()) return unexpected("'" + std::string(key) + "' must be a string, not " + json_kind_name(*value));
    return std::string(value->get_string());
}

Expected<bool, FieldError> optional_bool(const boost::json::object& object, std::string_view key, bool fallback) {
    const boost::json::value* value = object.if_contains(key);
    if (value == nullptr || value->is_null()) return fallback;
    if (!value->is_bool()) return unexpected("'" + std::string(key) + "' must be true or false, not " + json_kind_name(*value));
    return value->get_bool();
}

}  // namespace hschool::content
