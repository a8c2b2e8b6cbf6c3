#pragma once
// Finished matches (the store's hide-and-seek archive, when there is one): saved as they end, kept
// to kMaxArchivedMatches, listed, read and deleted as the REST asks.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "server/hns/contract/match_request.hpp"
#include "server/hns/contract/match_view.hpp"
#include "server/hns/contract/permission.hpp"
#include "server/hns/live/live_match.hpp"

namespace hschool::store {
class HnsArchive;
}

namespace hschool::server::hns {

class MatchArchive {
public:
    explicit MatchArchive(store::HnsArchive* archive) : archive_(archive) {}

    // Its results, summary and replay; a failure is logged (the match is gone either way).
    void save(const std::string& id, const FinishedMatch& finished);
    // The oldest beyond kMaxArchivedMatches are deleted.
    void keep_bounded();
    // The newest `most` finished matches; none when the archive cannot be read.
    std::vector<MatchView> list(std::size_t most) const;
    std::optional<MatchView> get(const std::string& id) const;
    // The replay's file for a download that streams it ("" when it lives in a database row).
    std::variant<std::string, HubError> replay_file(const std::string& id) const;
    // The replay's bytes (up to 64 MiB: the caller is on the hub's worker, never a network thread).
    std::variant<std::string, HubError> replay_bytes(const std::string& id) const;
    // Deletes a finished match; in owners mode only with its owner's token or the operator's.
    std::optional<HubError> remove(const std::string& id, const AccessCheck& access, std::string_view credential);

private:
    store::HnsArchive* archive_;  // null: nothing is kept
};

}  // namespace hschool::server::hns
