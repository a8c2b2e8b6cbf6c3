#include "content/merge.hpp"

#include <algorithm>

#include "content/limits.hpp"

namespace hschool::content {

namespace {

std::string def_ref(const DefDecl& decl) { return decl.source + ": def '" + decl.id + "'"; }

// A child entry with the parent's id replaces its count (0 removes it); a new id is appended.
Expected<std::vector<Entry>, std::string> extend_entries(std::vector<Entry> inherited, const std::vector<Entry>& own,
                                                         std::string_view what) {
    for (const Entry& entry : own) {
        auto found = std::find_if(inherited.begin(), inherited.end(), [&](const Entry& e) { return e.id == entry.id; });
        if (found == inherited.end()) {
            if (entry.count == 0) return unexpected("removes " + std::string(what) + " '" + entry.id + "' that it does not inherit");
            inherited.push_back(entry);
        } else if (entry.count == 0) {
            inherited.erase(found);
        } else {
            found->count = entry.count;
        }
    }
    return inherited;
}

std::size_t expanded_count(const std::vector<Entry>& entries) {
    std::size_t total = 0;
    for (const Entry& entry : entries) total += entry.count;
    return total;
}

class Flattener {
public:
    explicit Flattener(const StringMap<DefDecl>& decls) : decls_(decls) {}

    Expected<StringMap<Def>, std::string> run() {
        for (const auto& [id, decl] : decls_) {
            if (auto failed = flatten(decl, {})) return unexpected(std::move(*failed));
        }
        return std::move(done_);
    }

private:
    // Returns the error, if any; `chain` is the path of defs that led here, to report cycles.
    std::optional<std::string> flatten(const DefDecl& decl, std::vector<std::string> chain) {
        if (done_.contains(decl.id)) return std::nullopt;
        if (std::find(chain.begin(), chain.end(), decl.id) != chain.end()) {
            std::string cycle;
            for (const std::string& id : chain) cycle += id + " → ";
            return def_ref(decl) + ": inheritance cycle " + cycle + decl.id;
        }
        if (chain.size() >= limits::kMaxInheritanceDepth) {
            return def_ref(decl) + ": inheritance deeper than " + std::to_string(limits::kMaxInheritanceDepth) + " levels";
        }
        Def def{decl.id, decl.parent, decl.abstract, NodeKind::Room, {}, {}, decl.source};
        if (decl.parent.empty()) {
            if (!decl.kind) return def_ref(decl) + ": a def without a parent needs a 'kind'";
            def.kind = *decl.kind;
        } else {
            auto parent_decl = decls_.find(decl.parent);
            if (parent_decl == decls_.end()) return def_ref(decl) + ": inherits unknown '" + decl.parent + "'";
            chain.push_back(decl.id);
            if (auto failed = flatten(parent_decl->second, chain)) return failed;
            const Def& parent = done_.at(decl.parent);
            if (decl.kind && *decl.kind != parent.kind) {
                return def_ref(decl) + ": kind " + std::string(node_kind_name(*decl.kind)) + " differs from its parent '" +
                       parent.id + "' (" + std::string(node_kind_name(parent.kind)) + ")";
            }
            def.kind = parent.kind;
            def.items = parent.items;
            def.positions = parent.positions;
        }
        auto items = extend_entries(std::move(def.items), decl.items, "item");
        if (!items) return def_ref(decl) + ": " + items.error();
        def.items = std::move(*items);
        auto positions = extend_entries(std::move(def.positions), decl.positions, "position");
        if (!positions) return def_ref(decl) + ": " + positions.error();
        def.positions = std::move(*positions);
        if (def.items.size() > limits::kMaxEntriesPerNode || expanded_count(def.positions) > limits::kMaxEntriesPerNode) {
            return def_ref(decl) + ": more than " + std::to_string(limits::kMaxEntriesPerNode) + " items or positions";
        }
        done_.emplace(def.id, std::move(def));
        return std::nullopt;
    }

    const StringMap<DefDecl>& decls_;
    StringMap<Def> done_;
};

void merge_labels(Labels& into, const Labels& from) {
    for (const auto& [id, text] : from.types) into.types[id] = text;
    for (const auto& [id, text] : from.items) into.items[id] = text;
    for (const auto& [id, text] : from.positions) into.positions[id] = text;
}

std::optional<std::string> missing_label(const Def& def, const Labels& labels, std::string_view lang_name) {
    const std::string where = def.source + ": def '" + def.id + "': no " + std::string(lang_name) + " label for ";
    if (!labels.types.contains(def.id)) return where + "the type itself";
    for (const Entry& item : def.items) {
        if (!labels.items.contains(item.id)) return where + "item '" + item.id + "'";
    }
    for (const Entry& position : def.positions) {
        if (!labels.positions.contains(position.id)) return where + "position '" + position.id + "'";
    }
    return std::nullopt;
}

}  // namespace

Expected<Catalog, std::string> merge_packs(const std::vector<const Pack*>& packs_in_order) {
    StringMap<DefDecl> decls;
    Catalog catalog;
    for (const Pack* pack : packs_in_order) {
        for (const DefDecl& decl : pack->defs) decls.insert_or_assign(decl.id, decl);
        merge_labels(catalog.russian, pack->russian.labels);
        merge_labels(catalog.english, pack->english.labels);
    }
    auto defs = Flattener(decls).run();
    if (!defs) return unexpected(std::move(defs).error());
    catalog.defs = std::move(*defs);
    // Only placeable types reach players, so only they must be fully labelled.
    for (const auto& [id, def] : catalog.defs) {
        if (def.abstract) continue;
        if (auto missing = missing_label(def, catalog.russian, "Russian")) return unexpected(std::move(*missing));
        if (auto missing = missing_label(def, catalog.english, "English")) return unexpected(std::move(*missing));
    }
    return catalog;
}

}  // namespace hschool::content
