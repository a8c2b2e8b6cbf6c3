#pragma once
// One folder under mods/ as read from disk, before it is merged with other packs.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "content/school_map.hpp"

namespace hschool::content {

inline constexpr const char* kCorePackId = "core";

// A def as a pack writes it: kind and abstract may be left to inheritance, counts of 0 remove.
struct DefDecl {
    std::string id;
    std::string parent;
    bool abstract = false;
    std::optional<NodeKind> kind;  // nullopt → the parent's kind
    std::vector<Entry> items;      // count 0 removes an inherited entry
    std::vector<Entry> positions;
    std::string source;
};

struct PackLabels {
    Labels labels;
    std::string source;
};

struct PackMap {
    SchoolMap map;
    std::string source;
};

struct Pack {
    std::string id;
    bool required = false;
    std::string title_ru;
    std::string title_en;
    std::vector<DefDecl> defs;
    PackLabels russian;
    PackLabels english;
    std::optional<PackMap> default_map;
    std::optional<std::string> problem;  // set when the pack could not be read; names the file
};

// Reads mods_dir/<folder>; never throws. Display paths in problems start at mods_dir's own name.
Pack load_pack(const std::filesystem::path& mods_dir, const std::string& folder);

}  // namespace hschool::content
