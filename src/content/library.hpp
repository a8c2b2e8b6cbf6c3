#pragma once
// The mods/ folder: which packs exist, and resolving a selection of them into one catalog.
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "content/expected.hpp"
#include "content/lang.hpp"
#include "content/pack.hpp"
#include "content/problem.hpp"
#include "content/resolved_packs.hpp"

namespace hschool::content {

struct ModInfo {
    std::string id;
    bool required = false;  // only core
    std::string title_ru;   // from pack.jsonc; may be empty
    std::string title_en;
    bool operator==(const ModInfo&) const = default;
};

// {"mods":[{"id","required","title"}]}: the GET /api/mods body; title in `lang`, falling back to the id.
boost::json::value mods_json(const std::vector<ModInfo>& mods, Lang lang);

class ContentLibrary {
public:
    // Reads every pack folder (one holding a pack.jsonc) eagerly; never throws. A pack that fails to
    // load is still listed, and resolving a selection that contains it is invalid-catalog.
    // Packs are read once: restart the server to pick up edited mods.
    static ContentLibrary scan(const std::filesystem::path& mods_dir);

    // core first, then the others sorted by id.
    std::vector<ModInfo> mods() const;

    // core + extras in the given order (later wins). "core" and repeats in `extra_mod_ids` are
    // ignored. Errors: unknown-mod (an extra not under mods/), invalid-catalog (a pack that failed to
    // load, a bad inheritance, a missing label, no default map or an invalid one); the detail names the file.
    // Pure and const: safe to call from several threads at once.
    Expected<ResolvedPacks, Problem> resolve(std::span<const std::string> extra_mod_ids) const;

private:
    std::vector<Pack> packs_;  // core first, then by id
};

}  // namespace hschool::content
