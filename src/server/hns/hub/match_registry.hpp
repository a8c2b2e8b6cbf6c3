#pragma once
// The live matches of the process by id, which one is the default (the match that starts with the
// server), and the ids: one sequence for every match, continued from the archive's (shared by
// several servers on one PostgreSQL, issue 34), so an id names one match whichever kind made it.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/hns/contract/expected.hpp"
#include "server/hns/contract/match_view.hpp"
#include "server/hns/live/live_match.hpp"

namespace hschool::store {
class HnsArchive;
}

namespace hschool::server::hns {

class MatchRegistry {
public:
    explicit MatchRegistry(store::HnsArchive* archive) : archive_(archive) {}

    // Ids continue after the archive's highest; why not when the archive cannot say.
    Expected<Done> continue_ids();
    // A fresh id from the matches' own sequence ("m<N>"; with a random tag while a shared archive is
    // out of reach). A league's matches are archived under such ids too (issue 33).
    std::string new_match_id();

    // False once the hub stops: the match is not kept (nor started).
    bool add(std::shared_ptr<LiveMatch> match);
    std::shared_ptr<LiveMatch> find(const std::string& id) const;
    // A running match (not ended) by id; null otherwise.
    std::shared_ptr<LiveMatch> find_running(const std::string& id) const;
    // The match that started with the server ("" between one default match and the next).
    std::string default_id() const;
    std::size_t running() const;
    std::size_t running_from(const std::string& address) const;  // made by this client address
    // The running matches' views, the default one first, then by id.
    std::vector<MatchView> running_views() const;
    // Takes a running match out if `may_take(match)` says so (a deleted match: the caller stops it).
    std::shared_ptr<LiveMatch> take_running(const std::string& id, const std::function<bool(const LiveMatch&)>& may_take);
    // Takes the finished matches out; true when the default match was among them (its thread has
    // left its loop: the caller joins them).
    bool take_finished(const std::vector<std::string>& ids, std::vector<std::shared_ptr<LiveMatch>>& taken);
    // Refuses matches from now on and hands over every one (to be stopped).
    std::vector<std::shared_ptr<LiveMatch>> close();
    bool closed() const;

private:
    store::HnsArchive* archive_;
    mutable std::mutex mutex_;  // guards everything below
    std::map<std::string, std::shared_ptr<LiveMatch>> matches_;
    std::string default_id_;
    std::int64_t next_id_ = 1;
    bool closed_ = false;
};

}  // namespace hschool::server::hns
