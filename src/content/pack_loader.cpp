#include "content/pack.hpp"

#include <algorithm>
#include <set>
#include <system_error>

#include "content/json_fields.hpp"
#include "content/jsonc.hpp"
#include "content/limits.hpp"
#include "content/map_json.hpp"
#include "content/text_rules.hpp"

namespace hschool::content {

namespace {

namespace fs = std::filesystem;

// A problem with one file: "mods/annex/defs/rooms.jsonc: <what>".
struct FileProblem {
    std::string text;
};

template <class T>
using Read = Expected<T, FileProblem>;

FileProblem in_file(const std::string& source, const std::string& what) { return {source + ": " + what}; }

std::string mods_dir_name(const fs::path& mods_dir) {
    fs::path normal = mods_dir.lexically_normal();
    if (normal.filename().empty()) normal = normal.parent_path();
    return normal.filename().string();
}

Read<boost::json::object> read_object_file(const fs::path& path, const std::string& source) {
    auto json = read_jsonc_file(path);
    if (!json) return unexpected(in_file(source, json.error()));
    if (!json->is_object()) return unexpected(in_file(source, "the top level must be an object, not " + json_kind_name(*json)));
    return std::move(json->get_object());
}

Expected<std::string, std::string> read_label(const boost::json::value& json) {
    if (!json.is_string()) return unexpected("must be a string, not " + json_kind_name(json));
    std::string text(json.get_string());
    if (text.empty() || !is_clean_text(text)) return unexpected(std::string("must be non-empty text without control or bidi characters"));
    if (char_count(text) > limits::kMaxLabelChars) {
        return unexpected("is longer than " + std::to_string(limits::kMaxLabelChars) + " characters");
    }
    return text;
}

Expected<Entry, std::string> parse_entry(const boost::json::value& json) {
    Entry entry;
    if (json.is_string()) {
        entry.id = std::string(json.get_string());
    } else if (json.is_object()) {
        const auto& object = json.get_object();
        if (auto unknown = first_unknown_field(object, {"id", "count"})) return unexpected("unknown field '" + *unknown + "'");
        auto id = required_string(object, "id");
        if (!id) return unexpected(id.error());
        entry.id = std::move(*id);
        if (const auto* count = object.if_contains("count")) {
            if (!count->is_int64() || count->get_int64() < 0 ||
                static_cast<std::uint64_t>(count->get_int64()) > limits::kMaxEntryCount) {
                return unexpected("'count' must be a whole number from 0 to " + std::to_string(limits::kMaxEntryCount));
            }
            entry.count = static_cast<std::size_t>(count->get_int64());
        }
    } else {
        return unexpected("must be an id string or {\"id\", \"count\"}, not " + json_kind_name(json));
    }
    if (!is_content_id(entry.id, limits::kMaxDefIdBytes)) return unexpected("'" + entry.id + "' is not a valid id");
    return entry;
}

Expected<std::vector<Entry>, std::string> parse_entries(const boost::json::object& def, std::string_view key) {
    std::vector<Entry> entries;
    const auto* list = def.if_contains(key);
    if (list == nullptr) return entries;
    if (!list->is_array()) return unexpected("'" + std::string(key) + "' must be an array, not " + json_kind_name(*list));
    std::set<std::string> seen;
    for (const auto& item : list->get_array()) {
        auto entry = parse_entry(item);
        if (!entry) return unexpected(std::string(key) + ": " + entry.error());
        if (!seen.insert(entry->id).second) return unexpected(std::string(key) + ": '" + entry->id + "' is listed twice");
        entries.push_back(std::move(*entry));
    }
    return entries;
}

Expected<DefDecl, std::string> parse_def(const boost::json::value& json, std::size_t index) {
    const std::string where = "defs[" + std::to_string(index) + "]";
    if (!json.is_object()) return unexpected(where + " must be an object, not " + json_kind_name(json));
    const auto& object = json.get_object();
    DefDecl decl;
    auto id = required_string(object, "id");
    if (!id) return unexpected(where + ": " + id.error());
    if (!is_content_id(*id, limits::kMaxDefIdBytes)) return unexpected(where + ": '" + *id + "' is not a valid def id");
    decl.id = std::move(*id);
    const std::string def_where = "def '" + decl.id + "'";
    if (auto unknown = first_unknown_field(object, {"id", "parent", "abstract", "kind", "items", "positions"})) {
        return unexpected(def_where + ": unknown field '" + *unknown + "'");
    }
    auto parent = optional_string(object, "parent");
    if (!parent) return unexpected(def_where + ": " + parent.error());
    decl.parent = std::move(*parent);
    auto abstract = optional_bool(object, "abstract", false);
    if (!abstract) return unexpected(def_where + ": " + abstract.error());
    decl.abstract = *abstract;
    auto kind = optional_string(object, "kind");
    if (!kind) return unexpected(def_where + ": " + kind.error());
    if (!kind->empty()) {
        decl.kind = node_kind_from_name(*kind);
        if (!decl.kind) return unexpected(def_where + ": kind '" + *kind + "' is not territory, building, floor or room");
    }
    auto items = parse_entries(object, "items");
    if (!items) return unexpected(def_where + ": " + items.error());
    decl.items = std::move(*items);
    auto positions = parse_entries(object, "positions");
    if (!positions) return unexpected(def_where + ": " + positions.error());
    decl.positions = std::move(*positions);
    return decl;
}

Read<std::vector<DefDecl>> read_defs_file(const fs::path& path, const std::string& source) {
    auto object = read_object_file(path, source);
    if (!object) return unexpected(std::move(object).error());
    if (auto unknown = first_unknown_field(*object, {"defs"})) return unexpected(in_file(source, "unknown field '" + *unknown + "'"));
    const auto* defs = object->if_contains("defs");
    if (defs == nullptr || !defs->is_array()) return unexpected(in_file(source, "'defs' must be an array"));
    std::vector<DefDecl> decls;
    for (std::size_t i = 0; i < defs->get_array().size(); ++i) {
        auto decl = parse_def(defs->get_array()[i], i);
        if (!decl) return unexpected(in_file(source, decl.error()));
        decl->source = source;
        decls.push_back(std::move(*decl));
    }
    return decls;
}

Read<Labels> read_labels_file(const fs::path& path, const std::string& source) {
    auto object = read_object_file(path, source);
    if (!object) return unexpected(std::move(object).error());
    if (auto unknown = first_unknown_field(*object, {"types", "items", "positions"})) {
        return unexpected(in_file(source, "unknown field '" + *unknown + "'"));
    }
    Labels labels;
    for (auto [key, target] : {std::pair{"types", &labels.types}, std::pair{"items", &labels.items},
                               std::pair{"positions", &labels.positions}}) {
        const auto* section = object->if_contains(key);
        if (section == nullptr) continue;
        if (!section->is_object()) return unexpected(in_file(source, "'" + std::string(key) + "' must be an object"));
        for (const auto& field : section->get_object()) {
            auto label = read_label(field.value());
            if (!label) return unexpected(in_file(source, std::string(key) + " '" + std::string(field.key()) + "': label " + label.error()));
            (*target)[std::string(field.key())] = std::move(*label);
        }
    }
    return labels;
}

std::vector<fs::path> sorted_jsonc_files(const fs::path& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".jsonc" && it->is_regular_file(ec)) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

struct PackReader {
    fs::path root;
    std::string display_root;  // "mods/core"

    std::string source(const std::string& relative) const { return display_root + "/" + relative; }

    std::optional<FileProblem> read_manifest(Pack& pack) const {
        const std::string src = source("pack.jsonc");
        auto object = read_object_file(root / "pack.jsonc", src);
        if (!object) return std::move(object).error();
        if (auto unknown = first_unknown_field(*object, {"id", "required", "title"})) {
            return in_file(src, "unknown field '" + *unknown + "'");
        }
        auto id = required_string(*object, "id");
        if (!id) return in_file(src, id.error());
        if (*id != pack.id) return in_file(src, "id '" + *id + "' does not match the folder name '" + pack.id + "'");
        auto required = optional_bool(*object, "required", pack.id == kCorePackId);
        if (!required) return in_file(src, required.error());
        if (*required && pack.id != kCorePackId) return in_file(src, "only the core pack can be required");
        pack.required = pack.id == kCorePackId;
        if (const auto* title = object->if_contains("title")) {
            if (!title->is_object()) return in_file(src, "'title' must be an object {\"ru\", \"en\"}");
            auto ru = optional_string(title->get_object(), "ru");
            auto en = optional_string(title->get_object(), "en");
            if (!ru || !en) return in_file(src, "title: " + (ru ? en.error() : ru.error()));
            pack.title_ru = std::move(*ru);
            pack.title_en = std::move(*en);
        }
        return std::nullopt;
    }

    std::optional<FileProblem> read_defs(Pack& pack) const {
        std::set<std::string> ids;
        for (const fs::path& file : sorted_jsonc_files(root / "defs")) {
            const std::string src = source("defs/" + file.filename().string());
            auto decls = read_defs_file(file, src);
            if (!decls) return std::move(decls).error();
            for (DefDecl& decl : *decls) {
                if (!ids.insert(decl.id).second) return in_file(src, "def '" + decl.id + "' is defined twice in this pack");
                pack.defs.push_back(std::move(decl));
            }
            if (pack.defs.size() > limits::kMaxDefsPerPack) {
                return in_file(src, "the pack has more than " + std::to_string(limits::kMaxDefsPerPack) + " defs");
            }
        }
        return std::nullopt;
    }

    std::optional<FileProblem> read_lang(PackLabels& out, const std::string& code) const {
        out.source = source("lang/" + code + ".jsonc");
        auto labels = read_labels_file(root / "lang" / (code + ".jsonc"), out.source);
        if (!labels) return std::move(labels).error();
        out.labels = std::move(*labels);
        return std::nullopt;
    }

    std::optional<FileProblem> read_default_map(Pack& pack) const {
        const fs::path path = root / "maps" / "default.jsonc";
        std::error_code ec;
        if (!fs::exists(path, ec)) return std::nullopt;
        const std::string src = source("maps/default.jsonc");
        auto json = read_jsonc_file(path);
        if (!json) return in_file(src, json.error());
        auto map = parse_map_json(*json);
        if (!map) return in_file(src, map.error());
        pack.default_map = PackMap{std::move(*map), src};
        return std::nullopt;
    }
};

}  // namespace

Pack load_pack(const fs::path& mods_dir, const std::string& folder) {
    Pack pack;
    pack.id = folder;
    pack.required = folder == kCorePackId;
    const PackReader reader{mods_dir / folder, mods_dir_name(mods_dir) + "/" + folder};
    std::optional<FileProblem> problem = reader.read_manifest(pack);
    if (!problem) problem = reader.read_defs(pack);
    if (!problem) problem = reader.read_lang(pack.russian, "ru");
    if (!problem) problem = reader.read_lang(pack.english, "en");
    if (!problem) problem = reader.read_default_map(pack);
    if (problem) pack.problem = std::move(problem->text);
    return pack;
}

}  // namespace hschool::content
