#include "server/hns/hub/match_registry.hpp"

#include <algorithm>
#include <random>

#include "store/hns_archive.hpp"
#include "util/log.hpp"

namespace hschool::server::hns {

namespace {

// Six hex digits: a local match id's tag while the shared archive's sequence is out of reach.
std::string random_tag() {
    static constexpr char kHex[] = "0123456789abcdef";
    std::random_device device;
    std::string tag;
    for (int i = 0; i < 6; ++i) tag += kHex[device() % 16];
    return tag;
}

}  // namespace

Expected<Done> MatchRegistry::continue_ids() {
    if (!archive_) return Expected<Done>::ok({});
    auto max_id = archive_->max_numeric_id();
    if (!max_id) return Expected<Done>::fail("archive: " + max_id.error().message);
    std::lock_guard lock(mutex_);
    next_id_ = *max_id + 1;
    return Expected<Done>::ok({});
}

std::string MatchRegistry::new_match_id() {
    // A shared archive numbers the matches of every server (issue 34); outside the lock: it asks a database.
    auto claimed = archive_ ? archive_->claim_numeric_id() : std::optional<std::int64_t>();
    if (claimed && *claimed) return "m" + std::to_string(**claimed);
    std::lock_guard lock(mutex_);
    if (!claimed) {
        // The database is out of reach: a local number with a random tag cannot collide with the
        // fleet's (saving it waits for the database anyway).
        logging::warn("event=hns_match_id_local error=\"{}\"", claimed.error().message);
        return "m" + std::to_string(next_id_++) + "-" + random_tag();
    }
    return "m" + std::to_string(next_id_++);
}

bool MatchRegistry::add(std::shared_ptr<LiveMatch> match) {
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    if (match->is_default()) default_id_ = match->id();
    matches_[match->id()] = std::move(match);
    return true;
}

std::shared_ptr<LiveMatch> MatchRegistry::find(const std::string& id) const {
    std::lock_guard lock(mutex_);
    auto it = matches_.find(id);
    return it == matches_.end() ? nullptr : it->second;
}

std::shared_ptr<LiveMatch> MatchRegistry::find_running(const std::string& id) const {
    auto match = find(id);
    return match && !match->ended() ? match : nullptr;
}

std::string MatchRegistry::default_id() const {
    std::lock_guard lock(mutex_);
    return default_id_;
}

std::size_t MatchRegistry::running() const {
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(std::count_if(matches_.begin(), matches_.end(), [](const auto& m) { return !m.second->ended(); }));
}

std::size_t MatchRegistry::running_from(const std::string& address) const {
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(std::count_if(matches_.begin(), matches_.end(), [&](const auto& m) {
        return m.second->creator_address() == address && !m.second->ended();
    }));
}

std::vector<MatchView> MatchRegistry::running_views() const {
    std::vector<MatchView> out;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, match] : matches_)
            if (!match->ended()) out.push_back(match->view());  // an ended one is listed from the archive
    }
    std::sort(out.begin(), out.end(), [](const MatchView& a, const MatchView& b) {
        if (a.is_default != b.is_default) return a.is_default;
        return a.id < b.id;
    });
    return out;
}

std::shared_ptr<LiveMatch> MatchRegistry::take_running(const std::string& id, const std::function<bool(const LiveMatch&)>& may_take) {
    std::lock_guard lock(mutex_);
    auto it = matches_.find(id);
    if (it == matches_.end() || it->second->ended() || !may_take(*it->second)) return nullptr;
    auto match = std::move(it->second);
    matches_.erase(it);
    return match;
}

bool MatchRegistry::take_finished(const std::vector<std::string>& ids, std::vector<std::shared_ptr<LiveMatch>>& taken) {
    std::lock_guard lock(mutex_);
    bool was_default = false;
    for (const auto& id : ids) {
        if (id == default_id_) {
            was_default = true;
            default_id_.clear();
        }
        auto it = matches_.find(id);
        if (it == matches_.end()) continue;
        taken.push_back(std::move(it->second));
        matches_.erase(it);
    }
    return was_default;
}

std::vector<std::shared_ptr<LiveMatch>> MatchRegistry::close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    std::vector<std::shared_ptr<LiveMatch>> all;
    for (auto& [id, match] : matches_) all.push_back(std::move(match));
    matches_.clear();
    return all;
}

bool MatchRegistry::closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
}

}  // namespace hschool::server::hns
