#pragma once
// One packs selection, loaded and merged: what the create editor, map validation and snapshots use.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include "content/catalog.hpp"
#include "content/expected.hpp"
#include "content/lang.hpp"
#include "content/problem.hpp"
#include "content/school_map.hpp"
#include "content/tree.hpp"

namespace hschool::content {

class ResolvedPacks {
public:
    ResolvedPacks(std::vector<std::string> mod_ids, std::shared_ptr<const Catalog> catalog, SchoolMap default_map,
                  std::string default_map_pack);

    // The selection, core first, in merge order.
    const std::vector<std::string>& mod_ids() const { return mod_ids_; }
    const Catalog& catalog() const { return *catalog_; }

    // {"lang","mods","types":[{"id","kind","label","items":[{"id","label","count"}],"positions":[...]}],"defaultMap"}
    // Only placeable types, ordered by kind (territory → room) then id. See docs/content.md.
    boost::json::value catalog_json(Lang lang) const;

    // The last selected pack's maps/default.jsonc; valid for this selection (resolve checks it).
    const SchoolMap& default_map() const { return default_map_; }
    // Which pack that default map came from.
    const std::string& default_map_pack() const { return default_map_pack_; }

    // A client's map (JSON value or raw JSON text): shape first, then the rules; errors are invalid-map.
    Expected<SchoolMap, Problem> validate_map(const boost::json::value& json) const;
    Expected<SchoolMap, Problem> validate_map_text(std::string_view json_text) const;
    // An already parsed map, e.g. one read back from storage.
    Expected<SchoolMap, Problem> validate_map(const SchoolMap& map) const;

    // MapSnapshot nodes for `map` in `lang`, parents before children.
    std::vector<TreeNode> tree(const SchoolMap& map, Lang lang) const;

private:
    std::vector<std::string> mod_ids_;
    std::shared_ptr<const Catalog> catalog_;  // shared: copies of a selection are cheap
    SchoolMap default_map_;
    std::string default_map_pack_;
};

}  // namespace hschool::content
