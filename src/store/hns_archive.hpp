#pragma once
// Finished hide-and-seek matches: a row in SQLite (table hns_matches) plus the COWLDHNS replay as
// <folder>/<id>.cowldhns. The row is the commit point: a replay file without a row is an
// interrupted save and is swept at open; a row whose file went missing is reported, not hidden.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/expected.hpp"
#include "store/store_error.hpp"

namespace SQLite {
class Database;
}

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

// Every call is synchronous, takes one internal mutex (network and match threads share it) and
// returns errors as values; nothing throws out of it. Lookups with an id that is not a valid id
// answer "unknown" (nullopt / false) without touching the disk; save refuses it.
class HnsArchive {
public:
    // db_path: the SQLite file (the schools' file is fine: own table hns_matches, own connection,
    // busy timeout kBusyTimeoutMs; PRAGMA user_version is left to SchoolStore). folder: where the
    // <id>.cowldhns files go, created if missing. Sweeps leftover temp files and replay files that
    // have no row (a save interrupted by a crash). OpenFailed when either cannot be used.
    // legacy_db: another SQLite file whose hns_matches rows (archives kept in the schools' file
    // before they had a file of their own) move into this one, before the sweep, and whose table
    // is then dropped; their replay files must already be in `folder`. Missing: nothing to move.
    static Expected<std::unique_ptr<HnsArchive>, StoreError> open(const std::filesystem::path& db_path,
                                                                  const std::filesystem::path& folder,
                                                                  const std::filesystem::path& legacy_db = {});
    // Rows moved from legacy_db by open().
    std::size_t imported() const { return imported_; }

    ~HnsArchive();
    HnsArchive(const HnsArchive&) = delete;
    HnsArchive& operator=(const HnsArchive&) = delete;

    // Writes the replay file durably (temp file + fsync + rename + directory fsync) THEN commits the
    // row (synchronous=FULL), all under the file's write lock; a failure leaves neither. Refuses a
    // bad id, an id already archived, a replay over kMaxArchivedReplayBytes (LimitReached) or JSON
    // over kMaxArchivedJsonBytes (LimitReached).
    Expected<void, StoreError> save(const ArchivedMatch& match, std::string_view replay_bytes);

    // At most `limit` matches of one kind, newest finished_at_ms first (ties: the later save first).
    Expected<std::vector<ArchivedMatch>, StoreError> list(std::size_t limit, std::string_view kind = kArchiveKindMatch);

    // Removes the matches of one kind past the newest `keep` (as remove() does, oldest first); how
    // many went.
    Expected<std::size_t, StoreError> trim(std::string_view kind, std::size_t keep);

    // The row of one match, or nullopt for an unknown id. Does not check the replay file.
    Expected<std::optional<ArchivedMatch>, StoreError> get(const std::string& id);

    // The replay file's bytes, or nullopt for an unknown id. A row whose file is missing, of another
    // size than was saved, or over kMaxArchivedReplayBytes is an Io error.
    Expected<std::optional<std::string>, StoreError> replay(const std::string& id);

    // Deletes the row (durably), then the file; false when unknown. A file already gone is fine.
    Expected<bool, StoreError> remove(const std::string& id);

    // The replay file of one match, checked as replay() checks it but not read, for a download that
    // streams it; nullopt for an unknown id.
    struct ReplayFile {
        std::filesystem::path path;
        std::uint64_t bytes = 0;
    };
    Expected<std::optional<ReplayFile>, StoreError> replay_file(const std::string& id);

    // The highest N among archived ids "m<N>" (decimal digits, fits in int64), 0 when there is
    // none, so a restarted server continues numbering.
    Expected<std::int64_t, StoreError> max_numeric_id();

private:
    HnsArchive(std::unique_ptr<SQLite::Database> db, std::unique_ptr<SQLite::Database> reader, std::filesystem::path folder);

    std::filesystem::path replay_path(const std::string& id) const;
    std::optional<StoreError> sweep_locked();
    Expected<std::size_t, StoreError> import_locked(const std::filesystem::path& other_db);

    // Writers (save, remove) and readers have their own connection and lock: in WAL mode a list or a
    // lookup on a network thread never waits for a save's fsync.
    std::mutex mutex_;  // guards db_ and the folder's files
    std::unique_ptr<SQLite::Database> db_;
    std::mutex read_mutex_;  // guards reader_
    std::unique_ptr<SQLite::Database> reader_;
    const std::filesystem::path folder_;
    std::size_t imported_ = 0;
};

}  // namespace hschool::store
