#pragma once
// Finished hide-and-seek matches in PostgreSQL (issue 34): the row and the replay's bytes in one
// table, committed together, so every server on the database lists them and serves any replay.
// Match numbers come from one sequence, so ids never collide between servers.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/hns_archive.hpp"
#include "store/pg/pg_pool.hpp"

namespace hschool::store::pg {

class PgHnsArchive final : public HnsArchive {
public:
    static Expected<std::unique_ptr<HnsArchive>, StoreError> open(const std::string& url);

    // The row and the bytes commit together.
    Expected<void, StoreError> save(const ArchivedMatch& match, std::string_view replay_bytes) override;
    Expected<std::vector<ArchivedMatch>, StoreError> list(std::size_t limit, std::string_view kind = kArchiveKindMatch) override;
    Expected<std::size_t, StoreError> trim(std::string_view kind, std::size_t keep) override;
    Expected<std::optional<ArchivedMatch>, StoreError> get(const std::string& id) override;
    Expected<std::optional<std::string>, StoreError> replay(const std::string& id) override;
    Expected<bool, StoreError> remove(const std::string& id) override;
    // Only the size: the bytes are in the database (read them with replay()).
    Expected<std::optional<ReplayFile>, StoreError> replay_file(const std::string& id) override;
    Expected<std::int64_t, StoreError> max_numeric_id() override;
    // The next match number of the whole fleet ("m<N>"): never handed out twice.
    Expected<std::optional<std::int64_t>, StoreError> claim_numeric_id() override;

private:
    explicit PgHnsArchive(std::string url) : pool_(std::move(url)) {}
    Pool pool_;
};

}  // namespace hschool::store::pg
