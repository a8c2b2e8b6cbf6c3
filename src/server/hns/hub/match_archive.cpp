#include "server/hns/hub/match_archive.hpp"

#include "server/hns/hub/hub_options.hpp"
#include "store/hns_archive.hpp"
#include "util/log.hpp"

namespace hschool::server::hns {

namespace {

MatchView view_of_archived(const store::ArchivedMatch& m) {
    MatchView v;
    if (!match_view_from_json(m.summary_json, v)) {
        v = MatchView{};
        v.id = m.id;
        v.variant = m.variant;
    }
    v.phase = "finished";
    v.finished_at_ms = m.finished_at_ms;
    v.end_reason = m.end_reason;
    v.results_json = m.results_json;
    v.tick = m.final_tick;
    return v;
}

HubError no_finished_match(const std::string& id) { return HubError{404, "not-found", "no finished match " + id}; }

}  // namespace

void MatchArchive::save(const std::string& id, const FinishedMatch& finished) {
    if (!archive_) return;
    store::ArchivedMatch row;
    row.id = id;
    row.variant = finished.view.variant;
    row.finished_at_ms = finished.view.finished_at_ms;
    row.final_tick = finished.view.tick;
    row.end_reason = finished.view.end_reason;
    row.results_json = finished.results;
    row.summary_json = match_view_json(finished.view, false);
    row.owner_hash = finished.owner_hash;
    if (auto saved = archive_->save(row, finished.replay); !saved)
        logging::error("event=hns_archive_failed id={} error=\"{}\"", id, saved.error().message);
}

void MatchArchive::keep_bounded() {
    if (!archive_) return;
    if (auto all = archive_->list(kMaxArchivedMatches + 16); all && all->size() > kMaxArchivedMatches) {
        for (std::size_t i = kMaxArchivedMatches; i < all->size(); ++i) (void)archive_->remove((*all)[i].id);
    }
}

std::vector<MatchView> MatchArchive::list(std::size_t most) const {
    std::vector<MatchView> out;
    if (!archive_) return out;
    if (auto archived = archive_->list(most))
        for (const auto& m : *archived) out.push_back(view_of_archived(m));
    return out;
}

std::optional<MatchView> MatchArchive::get(const std::string& id) const {
    if (!archive_) return std::nullopt;
    auto archived = archive_->get(id);
    if (!archived || !*archived) return std::nullopt;
    return view_of_archived(**archived);
}

std::variant<std::string, HubError> MatchArchive::replay_file(const std::string& id) const {
    if (!archive_) return no_finished_match(id);
    auto file = archive_->replay_file(id);
    if (!file) return HubError{503, "store-unavailable", file.error().message};
    if (!*file) return no_finished_match(id);
    return (*file)->path.string();  // "" when the replay lives in a database: replay_bytes reads it
}

std::variant<std::string, HubError> MatchArchive::replay_bytes(const std::string& id) const {
    if (!archive_) return no_finished_match(id);
    auto bytes = archive_->replay(id);
    if (!bytes) return HubError{503, "store-unavailable", bytes.error().message};
    if (!*bytes) return no_finished_match(id);
    return std::move(**bytes);
}

std::optional<HubError> MatchArchive::remove(const std::string& id, const AccessCheck& access, std::string_view credential) {
    if (!archive_) return HubError{404, "not-found", "no match " + id};
    if (access) {
        auto archived = archive_->get(id);
        if (!archived) return HubError{503, "store-unavailable", archived.error().message};
        if (!*archived) return HubError{404, "not-found", "no match " + id};
        if (const Permission may = permission_of(access, credential, (*archived)->owner_hash); may != Permission::Granted)
            return permission_error(may, "match " + id);
    }
    auto removed = archive_->remove(id);
    if (!removed) return HubError{503, "store-unavailable", removed.error().message};
    if (!*removed) return HubError{404, "not-found", "no match " + id};
    return std::nullopt;
}

}  // namespace hschool::server::hns
