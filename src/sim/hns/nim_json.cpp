#include "sim/hns/nim_json.hpp"

#include <boost/json.hpp>

#include "sim/hns/float_text.hpp"

namespace hschool::sim::hns {

namespace {

bool needs_escape(char c) { return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\'; }

}  // namespace

void append_nim_json_string(std::string_view s, std::string& out) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    out.push_back('"');
    std::size_t run = 0;  // the start of the stretch that needs no escape: appended in one piece
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (!needs_escape(c)) continue;
        out.append(s, run, i - run);
        run = i + 1;
        switch (c) {
            case '\n': out += "\\n"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\t': out += "\\t"; break;
            case '\v': out += "\\u000b"; break;
            case '\r': out += "\\r"; break;
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            default:
                out += "\\u00";
                out.push_back(kHex[(c >> 4) & 0xF]);
                out.push_back(kHex[c & 0xF]);
        }
    }
    out.append(s, run, s.size() - run);
    out.push_back('"');
}

void append_nim_json(const boost::json::value& v, std::string& out) {
    namespace json = boost::json;
    switch (v.kind()) {
        case json::kind::null: out += "null"; break;
        case json::kind::bool_: out += v.get_bool() ? "true" : "false"; break;
        case json::kind::int64: out += std::to_string(v.get_int64()); break;
        case json::kind::uint64: out += std::to_string(v.get_uint64()); break;
        case json::kind::double_: out += nim_float_text(v.get_double()); break;
        case json::kind::string: append_nim_json_string(v.get_string(), out); break;
        case json::kind::array: {
            out.push_back('[');
            bool first = true;
            for (const auto& item : v.get_array()) {
                if (!first) out.push_back(',');
                first = false;
                append_nim_json(item, out);
            }
            out.push_back(']');
            break;
        }
        case json::kind::object: {
            out.push_back('{');
            bool first = true;
            for (const auto& [key, item] : v.get_object()) {
                if (!first) out.push_back(',');
                first = false;
                append_nim_json_string(key, out);
                out.push_back(':');
                append_nim_json(item, out);
            }
            out.push_back('}');
            break;
        }
    }
}

std::string nim_json_text(const boost::json::value& value) {
    std::string out;
    append_nim_json(value, out);
    return out;
}

}  // namespace hschool::sim::hns
