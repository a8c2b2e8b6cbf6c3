#include "content/resolved_packs.hpp"

#include <algorithm>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "content/jsonc.hpp"
#include "content/map_json.hpp"
#include "content/map_rules.hpp"

namespace hschool::content {

namespace {

boost::json::array entries_json(const std::vector<Entry>& entries, const StringMap<std::string>& labels) {
    boost::json::array out;
    for (const Entry& entry : entries) {
        boost::json::object item;
        item["id"] = entry.id;
        item["label"] = label_or_id(labels, entry.id);
        item["count"] = static_cast<std::int64_t>(entry.count);
        out.emplace_back(std::move(item));
    }
    return out;
}

boost::json::object type_json(const Def& def, const Labels& labels) {
    boost::json::object out;
    out["id"] = def.id;
    out["kind"] = node_kind_name(def.kind);
    out["label"] = label_or_id(labels.types, def.id);
    out["items"] = entries_json(def.items, labels.items);
    out["positions"] = entries_json(def.positions, labels.positions);
    return out;
}

}  // namespace

ResolvedPacks::ResolvedPacks(std::vector<std::string> mod_ids, std::shared_ptr<const Catalog> catalog,
                             SchoolMap default_map, std::string default_map_pack)
    : mod_ids_(std::move(mod_ids)),
      catalog_(std::move(catalog)),
      default_map_(std::move(default_map)),
      default_map_pack_(std::move(default_map_pack)) {}

boost::json::value ResolvedPacks::catalog_json(Lang lang) const {
    const Labels& labels = catalog_->labels(lang);
    std::vector<const Def*> placeable;
    for (const auto& [id, def] : catalog_->defs) {
        if (!def.abstract) placeable.push_back(&def);
    }
    std::stable_sort(placeable.begin(), placeable.end(), [](const Def* a, const Def* b) { return a->kind < b->kind; });
    boost::json::array types;
    for (const Def* def : placeable) types.emplace_back(type_json(*def, labels));
    boost::json::array mods;
    for (const std::string& id : mod_ids_) mods.emplace_back(id);
    boost::json::object out;
    out["lang"] = lang_code(lang);
    out["mods"] = std::move(mods);
    out["types"] = std::move(types);
    out["defaultMap"] = map_to_json(default_map_);
    return out;
}

Expected<SchoolMap, Problem> ResolvedPacks::validate_map(const boost::json::value& json) const {
    auto map = parse_map_json(json);
    if (!map) return unexpected(invalid_map(std::move(map).error()));
    return validate_map(*map);
}

Expected<SchoolMap, Problem> ResolvedPacks::validate_map_text(std::string_view json_text) const {
    auto json = parse_jsonc(json_text);
    if (!json) return unexpected(invalid_map("not JSON: " + json.error()));
    return validate_map(*json);
}

Expected<SchoolMap, Problem> ResolvedPacks::validate_map(const SchoolMap& map) const {
    if (auto violation = first_map_violation(map, *catalog_)) return unexpected(invalid_map(std::move(*violation)));
    return map;
}

std::vector<TreeNode> ResolvedPacks::tree(const SchoolMap& map, Lang lang) const {
    return build_tree(map, *catalog_, lang);
}

}  // namespace hschool::content
