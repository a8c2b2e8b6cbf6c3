#pragma once
// Finished hide-and-seek matches: a row in SQLite (table hns_matches) plus the COWLDHNS replay as
// <folder>/<id>.cowldhns. The row is the commit point: a replay file without a row is an
// interrupted save and is swept at open; a row whose file went missing is reported, not hidden.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/expected.hpp"
#include "store/store_error.hpp"

namespace hschool::store {

// A replay of a full match is a few hundred KB; anything near this is a bug or an attack.
inline constexpr std::size_t kMaxArchivedReplayBytes = 64 * 1024 * 1024;
// results_json and summary_json each; they are a few KB.
inline constexpr std::size_t kMaxArchivedJsonBytes = 16 * 1024 * 1024;
// An id names a file, so it is short and made of [A-Za-z0-9_-] only: no '.', no '/'.
inline constexpr std::size_t kMaxArchivedIdBytes = 32;
// Replay files are <id> + this suffix; a save writes <id> + this + kArchiveTempSuffix first.
inline constexpr const char* kArchivedReplaySuffix = ".cowldhns";
inline constexpr const char* kArchiveTempSuffix = ".tmp";
// What a row is (issue 33): a match of its own, or one a league played. Each kind is listed and
// bounded on its own, so a league's thousand matches never push ordinary matches out of history.
inline constexpr const char* kArchiveKindMatch = "match";
inline constexpr const char* kArchiveKindLeague = "league";

struct ArchivedMatch {
    std::string id;                   // e.g. "m12" — [A-Za-z0-9_-]{1,32}; anything else is refused (it names a file)
    std::string variant;              // variant name or "custom"
    std::int64_t finished_at_ms = 0;  // unix ms
    int final_tick = 0;               // the tick the match ended on
    std::string end_reason;           // e.g. "complete", "deadline", "stopped"
    std::string results_json;         // the sim's results document
    std::string summary_json;         // the server's match summary at the end (seats, policies), opaque here
    std::string owner_hash;           // SHA-256 of the creator's owner token; "" when only the operator owns it
    std::string kind = kArchiveKindMatch;  // kArchiveKindMatch or kArchiveKindLeague
};

// True for [A-Za-z0-9_-]{1,kMaxArchivedIdBytes}.
bool is_valid_archived_match_id(std::string_view id);

// Every call is synchronous and thread-safe (network and match threads share it) and returns
// errors as values; nothing throws out of it. Lookups with an id that is not a valid id answer
// "unknown" (nullopt / false) without touching storage; save refuses it.
class HnsArchive {
public:
    // SQLite (sqlite_hns_archive.*): db_path is the SQLite file (the schools' file is fine: own
    // table hns_matches, own connection, busy timeout kBusyTimeoutMs; PRAGMA user_version is left to
    // SchoolStore). folder: where the <id>.cowldhns files go, created if missing. Sweeps leftover
    // temp files and replay files that have no row (a save interrupted by a crash). OpenFailed when
    // either cannot be used. legacy_db: another SQLite file whose hns_matches rows (archives kept in
    // the schools' file before they had a file of their own) move into this one, before the sweep,
    // and whose table is then dropped; their replay files must already be in `folder`.
    static Expected<std::unique_ptr<HnsArchive>, StoreError> open(const std::filesystem::path& db_path,
                                                                  const std::filesystem::path& folder,
                                                                  const std::filesystem::path& legacy_db = {});
    // PostgreSQL (pg/pg_hns_archive.*, issue 34): rows and replay bytes in the shared database.
    static Expected<std::unique_ptr<HnsArchive>, StoreError> open_postgres(const std::string& url);

    virtual ~HnsArchive() = default;

    // Rows moved from legacy_db by open().
    virtual std::size_t imported() const { return 0; }

    // Durable before it returns; a failure leaves nothing. Refuses a bad id, an unknown kind, an id
    // already archived, a replay over kMaxArchivedReplayBytes (LimitReached) or JSON over
    // kMaxArchivedJsonBytes (LimitReached).
    virtual Expected<void, StoreError> save(const ArchivedMatch& match, std::string_view replay_bytes) = 0;

    // At most `limit` matches of one kind, newest finished_at_ms first (ties: the later save first).
    virtual Expected<std::vector<ArchivedMatch>, StoreError> list(std::size_t limit, std::string_view kind = kArchiveKindMatch) = 0;

    // Removes the matches of one kind past the newest `keep`, oldest first; how many went.
    virtual Expected<std::size_t, StoreError> trim(std::string_view kind, std::size_t keep) = 0;

    // The row of one match, or nullopt for an unknown id. Does not check the replay.
    virtual Expected<std::optional<ArchivedMatch>, StoreError> get(const std::string& id) = 0;

    // The replay's bytes, or nullopt for an unknown id. A replay missing, of another size than was
    // saved, or over kMaxArchivedReplayBytes is an Io error.
    virtual Expected<std::optional<std::string>, StoreError> replay(const std::string& id) = 0;

    // Deletes the match; false when unknown.
    virtual Expected<bool, StoreError> remove(const std::string& id) = 0;

    // The replay checked as replay() checks it but not read: a file for a download that streams it
    // (SQLite), or only its size (PostgreSQL: path empty, read it with replay()); nullopt for an
    // unknown id.
    struct ReplayFile {
        std::filesystem::path path;
        std::uint64_t bytes = 0;
    };
    virtual Expected<std::optional<ReplayFile>, StoreError> replay_file(const std::string& id) = 0;

    // The highest N among archived ids "m<N>", 0 when there is none, so a restarted server
    // continues numbering.
    virtual Expected<std::int64_t, StoreError> max_numeric_id() = 0;

    // The next match number when several servers share the archive (one sequence for all, so ids
    // never collide); nullopt when this archive is this server's alone (it numbers by itself).
    virtual Expected<std::optional<std::int64_t>, StoreError> claim_numeric_id() { return std::optional<std::int64_t>(); }
};

}  // namespace hschool::store
