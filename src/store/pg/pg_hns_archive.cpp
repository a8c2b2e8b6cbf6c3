#include "store/pg/pg_hns_archive.hpp"

#include <limits>

#include "store/pg/pg_schema.hpp"

namespace hschool::store::pg {
namespace {

constexpr const char* kColumns = "id, variant, finished_at_ms, final_tick, end_reason, results_json, summary_json, owner_hash, kind";

ArchivedMatch read_row(const Rows& rows, int r) {
    ArchivedMatch match;
    match.id = rows.text(r, 0);
    match.variant = rows.text(r, 1);
    match.finished_at_ms = rows.integer(r, 2);
    match.final_tick = static_cast<int>(rows.integer(r, 3));
    match.end_reason = rows.text(r, 4);
    match.results_json = rows.text(r, 5);
    match.summary_json = rows.text(r, 6);
    match.owner_hash = rows.text(r, 7);
    match.kind = rows.text(r, 8);
    return match;
}

std::int64_t as_limit(std::size_t n) {
    const auto max = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
    return static_cast<std::int64_t>(n < max ? n : max);
}

}  // namespace

}  // namespace hschool::store::pg

namespace hschool::store {

Expected<std::unique_ptr<HnsArchive>, StoreError> HnsArchive::open_postgres(const std::string& url) {
    return pg::PgHnsArchive::open(url);
}

}  // namespace hschool::store

namespace hschool::store::pg {

Expected<std::unique_ptr<HnsArchive>, StoreError> PgHnsArchive::open(const std::string& url) {
    std::unique_ptr<PgHnsArchive> archive(new PgHnsArchive(url));
    auto lease = archive->pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    if (auto error = ensure_schema(**lease)) {
        error->message = redacted_url(url) + ": " + error->message;
        return unexpected(std::move(*error));
    }
    return std::unique_ptr<HnsArchive>(std::move(archive));
}

Expected<void, StoreError> PgHnsArchive::save(const ArchivedMatch& match, std::string_view replay_bytes) {
    if (!is_valid_archived_match_id(match.id))
        return unexpected(StoreError{StoreErrorKind::Io, "invalid match id (want [A-Za-z0-9_-]{1,32})"});
    if (match.kind != kArchiveKindMatch && match.kind != kArchiveKindLeague)
        return unexpected(StoreError{StoreErrorKind::Io, "unknown archive kind of " + match.id});
    if (replay_bytes.size() > kMaxArchivedReplayBytes)
        return unexpected(StoreError{StoreErrorKind::LimitReached, "replay of " + match.id + " over kMaxArchivedReplayBytes"});
    if (match.results_json.size() > kMaxArchivedJsonBytes || match.summary_json.size() > kMaxArchivedJsonBytes)
        return unexpected(StoreError{StoreErrorKind::LimitReached, "results or summary of " + match.id + " over kMaxArchivedJsonBytes"});
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    // ON CONFLICT DO NOTHING: a duplicate id inserts no row, and says so.
    auto inserted = (*lease)->exec(std::string("INSERT INTO hns_matches (") + kColumns +
                                       ", replay) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING",
                                   {Param::text(match.id), Param::text(match.variant), Param::integer(match.finished_at_ms),
                                    Param::integer(match.final_tick), Param::text(match.end_reason), Param::text(match.results_json),
                                    Param::text(match.summary_json), Param::text(match.owner_hash), Param::text(match.kind),
                                    Param::bytes(std::string(replay_bytes))});
    if (!inserted) return unexpected(std::move(inserted).error());
    if (inserted->affected() == 0) return unexpected(StoreError{StoreErrorKind::Io, "match " + match.id + " is already archived"});
    return {};
}

Expected<std::vector<ArchivedMatch>, StoreError> PgHnsArchive::list(std::size_t limit, std::string_view kind) {
    std::vector<ArchivedMatch> matches;
    if (limit == 0) return matches;
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto rows = (*lease)->exec(std::string("SELECT ") + kColumns +
                                   " FROM hns_matches WHERE kind = $1 ORDER BY finished_at_ms DESC, saved_seq DESC LIMIT $2",
                               {Param::text(std::string(kind)), Param::integer(as_limit(limit))});
    if (!rows) return unexpected(std::move(rows).error());
    for (int r = 0; r < rows->size(); ++r) matches.push_back(read_row(*rows, r));
    return matches;
}

Expected<std::size_t, StoreError> PgHnsArchive::trim(std::string_view kind, std::size_t keep) {
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto removed = (*lease)->exec("DELETE FROM hns_matches WHERE id IN (SELECT id FROM hns_matches WHERE kind = $1 "
                                  "ORDER BY finished_at_ms DESC, saved_seq DESC OFFSET $2)",
                                  {Param::text(std::string(kind)), Param::integer(as_limit(keep))});
    if (!removed) return unexpected(std::move(removed).error());
    return static_cast<std::size_t>(removed->affected());
}

Expected<std::optional<ArchivedMatch>, StoreError> PgHnsArchive::get(const std::string& id) {
    if (!is_valid_archived_match_id(id)) return std::optional<ArchivedMatch>{};
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto rows = (*lease)->exec(std::string("SELECT ") + kColumns + " FROM hns_matches WHERE id = $1", {Param::text(id)});
    if (!rows) return unexpected(std::move(rows).error());
    if (rows->size() == 0) return std::optional<ArchivedMatch>{};
    return std::optional<ArchivedMatch>(read_row(*rows, 0));
}

Expected<std::optional<std::string>, StoreError> PgHnsArchive::replay(const std::string& id) {
    if (!is_valid_archived_match_id(id)) return std::optional<std::string>{};
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto rows = (*lease)->exec("SELECT replay FROM hns_matches WHERE id = $1", {Param::text(id)}, /*binary_result=*/true);
    if (!rows) return unexpected(std::move(rows).error());
    if (rows->size() == 0) return std::optional<std::string>{};
    return std::optional<std::string>(rows->text(0, 0));
}

Expected<bool, StoreError> PgHnsArchive::remove(const std::string& id) {
    if (!is_valid_archived_match_id(id)) return false;
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto removed = (*lease)->exec("DELETE FROM hns_matches WHERE id = $1", {Param::text(id)});
    if (!removed) return unexpected(std::move(removed).error());
    return removed->affected() > 0;
}

Expected<std::optional<HnsArchive::ReplayFile>, StoreError> PgHnsArchive::replay_file(const std::string& id) {
    if (!is_valid_archived_match_id(id)) return std::optional<ReplayFile>{};
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto rows = (*lease)->exec("SELECT octet_length(replay) FROM hns_matches WHERE id = $1", {Param::text(id)});
    if (!rows) return unexpected(std::move(rows).error());
    if (rows->size() == 0) return std::optional<ReplayFile>{};
    return std::optional<ReplayFile>(ReplayFile{{}, static_cast<std::uint64_t>(rows->integer(0, 0))});
}

Expected<std::int64_t, StoreError> PgHnsArchive::max_numeric_id() {
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    // The sequence hands out every number: what it gave last is at least every archived one.
    auto rows = (*lease)->exec("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM hns_match_ids");
    if (!rows) return unexpected(std::move(rows).error());
    return rows->integer(0, 0);
}

Expected<std::optional<std::int64_t>, StoreError> PgHnsArchive::claim_numeric_id() {
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto rows = (*lease)->exec("SELECT nextval('hns_match_ids')");
    if (!rows) return unexpected(std::move(rows).error());
    return std::optional<std::int64_t>(rows->integer(0, 0));
}

}  // namespace hschool::store::pg
