#include "content/library.hpp"

#include <algorithm>
#include <system_error>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "content/limits.hpp"
#include "content/map_rules.hpp"
#include "content/merge.hpp"
#include "content/text_rules.hpp"

namespace hschool::content {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> pack_folders(const fs::path& mods_dir) {
    std::vector<std::string> folders;
    std::error_code ec;
    for (fs::directory_iterator it(mods_dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code entry_ec;
        const std::string name = it->path().filename().string();
        if (!it->is_directory(entry_ec) || !is_content_id(name, limits::kMaxPackIdBytes)) continue;
        if (fs::is_regular_file(it->path() / "pack.jsonc", entry_ec)) folders.push_back(name);
    }
    // core first, then alphabetical, so listings and merge order never depend on the file system.
    std::sort(folders.begin(), folders.end(), [](const std::string& a, const std::string& b) {
        if ((a == kCorePackId) != (b == kCorePackId)) return a == kCorePackId;
        return a < b;
    });
    return folders;
}

}  // namespace

boost::json::value mods_json(const std::vector<ModInfo>& mods, Lang lang) {
    boost::json::array list;
    for (const ModInfo& mod : mods) {
        const std::string& title = lang == Lang::English ? mod.title_en : mod.title_ru;
        boost::json::object entry;
        entry["id"] = mod.id;
        entry["required"] = mod.required;
        entry["title"] = title.empty() ? mod.id : title;
        list.emplace_back(std::move(entry));
    }
    boost::json::object out;
    out["mods"] = std::move(list);
    return out;
}

ContentLibrary ContentLibrary::scan(const fs::path& mods_dir) {
    ContentLibrary library;
    try {
        for (const std::string& folder : pack_folders(mods_dir)) library.packs_.push_back(load_pack(mods_dir, folder));
    } catch (const std::exception& error) {
        // Only allocation or path encoding can land here; keep what was read.
        (void)error;
    }
    return library;
}

std::vector<ModInfo> ContentLibrary::mods() const {
    std::vector<ModInfo> out;
    for (const Pack& pack : packs_) out.push_back({pack.id, pack.required, pack.title_ru, pack.title_en});
    return out;
}

Expected<ResolvedPacks, Problem> ContentLibrary::resolve(std::span<const std::string> extra_mod_ids) const {
    auto find_pack = [this](std::string_view id) -> const Pack* {
        auto it = std::find_if(packs_.begin(), packs_.end(), [&](const Pack& p) { return p.id == id; });
        return it == packs_.end() ? nullptr : &*it;
    };
    const Pack* core = find_pack(kCorePackId);
    if (core == nullptr) return unexpected(invalid_catalog("the required pack 'core' is missing from the mods folder"));
    std::vector<const Pack*> selected{core};
    std::vector<std::string> ids{kCorePackId};
    for (const std::string& id : extra_mod_ids) {
        if (std::find(ids.begin(), ids.end(), id) != ids.end()) continue;
        const Pack* pack = find_pack(id);
        if (pack == nullptr) return unexpected(unknown_mod("unknown mod '" + id + "'"));
        selected.push_back(pack);
        ids.push_back(id);
    }
    for (const Pack* pack : selected) {
        if (pack->problem) return unexpected(invalid_catalog(*pack->problem));
    }
    auto catalog = merge_packs(selected);
    if (!catalog) return unexpected(invalid_catalog(std::move(catalog).error()));

    const Pack* map_owner = nullptr;
    for (const Pack* pack : selected) {
        if (pack->default_map) map_owner = pack;
    }
    if (map_owner == nullptr) return unexpected(invalid_catalog("no selected pack has maps/default.jsonc"));
    if (auto violation = first_map_violation(map_owner->default_map->map, *catalog)) {
        return unexpected(invalid_catalog(map_owner->default_map->source + ": " + *violation));
    }
    return ResolvedPacks(std::move(ids), std::make_shared<const Catalog>(std::move(*catalog)), map_owner->default_map->map,
                         map_owner->id);
}

}  // namespace hschool::content
