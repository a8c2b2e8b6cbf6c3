#pragma once
// The merged, inheritance-resolved types and labels of one packs selection.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "content/lang.hpp"
#include "content/node_kind.hpp"

namespace hschool::content {

// An item or position a type brings, `count` times (positions are numbered when count > 1).
struct Entry {
    std::string id;
    std::size_t count = 1;
    bool operator==(const Entry&) const = default;
};

struct Def {
    std::string id;
    std::string parent;  // empty for a root def
    bool abstract = false;
    NodeKind kind = NodeKind::Room;
    std::vector<Entry> items;      // inherited then extended/overridden
    std::vector<Entry> positions;  // inherited then extended/overridden
    std::string source;            // the pack file that defined it, for error details
};

template <class V>
using StringMap = std::map<std::string, V, std::less<>>;

struct Labels {
    StringMap<std::string> types;
    StringMap<std::string> items;
    StringMap<std::string> positions;
};

struct Catalog {
    StringMap<Def> defs;
    Labels russian;
    Labels english;

    const Labels& labels(Lang lang) const { return lang == Lang::English ? english : russian; }
    const Def* find(std::string_view id) const {
        auto it = defs.find(id);
        return it == defs.end() ? nullptr : &it->second;
    }
};

// The label, or the id itself when a label is missing (resolve refuses packs that miss labels).
const std::string& label_or_id(const StringMap<std::string>& labels, const std::string& id);

}  // namespace hschool::content
