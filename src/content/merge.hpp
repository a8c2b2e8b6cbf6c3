#pragma once
// Packs in selection order become one catalog: later packs win, then inheritance is flattened.
#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "content/expected.hpp"
#include "content/pack.hpp"

namespace hschool::content {

// The error names the file and def at fault ("mods/x/defs/a.jsonc: def 'room.gym' inherits unknown 'room.base'").
Expected<Catalog, std::string> merge_packs(const std::vector<const Pack*>& packs_in_order);

}  // namespace hschool::content
