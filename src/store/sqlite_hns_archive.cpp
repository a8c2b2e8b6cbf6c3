#include "store/sqlite_hns_archive.hpp"

#include <cerrno>
#include <cstring>
#include <exception>
#include <limits>
#include <set>
#include <system_error>
#include <utility>

#include <SQLiteCpp/SQLiteCpp.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/schema.hpp"
#include "store/sqlite_support.hpp"
#include "store/school_store.hpp"

namespace hschool::store {
namespace {

// Own table in a file SchoolStore may share: IF NOT EXISTS and no user_version, which is SchoolStore's.
// replay_bytes lets replay() notice a file that was truncated or replaced by hand.
constexpr const char* kCreateTable = R"sql(
CREATE TABLE IF NOT EXISTS hns_matches (
    id             TEXT    PRIMARY KEY NOT NULL,
    variant        TEXT    NOT NULL,
    finished_at_ms INTEGER NOT NULL,
    final_tick     INTEGER NOT NULL,
    end_reason     TEXT    NOT NULL,
    results_json   TEXT    NOT NULL,
    summary_json   TEXT    NOT NULL,
    replay_bytes   INTEGER NOT NULL CHECK (replay_bytes >= 0),
    owner_hash     TEXT    NOT NULL DEFAULT '',
    kind           TEXT    NOT NULL DEFAULT 'match'
) STRICT;
CREATE INDEX IF NOT EXISTS hns_matches_by_finish ON hns_matches (finished_at_ms);
)sql";

constexpr const char* kColumns =
    "id, variant, finished_at_ms, final_tick, end_reason, results_json, summary_json, replay_bytes, owner_hash, kind";
// Archives written before owners existed lack the column; their matches belong to the operator.
constexpr const char* kAddOwnerColumn = "ALTER TABLE hns_matches ADD COLUMN owner_hash TEXT NOT NULL DEFAULT ''";
// Archives written before leagues (issue 33) lack the kind; every row of theirs is a match of its own.
constexpr const char* kAddKindColumn = "ALTER TABLE hns_matches ADD COLUMN kind TEXT NOT NULL DEFAULT 'match'";
// After the column exists: a kind's list and trim walk its rows newest first.
constexpr const char* kCreateKindIndex =
    "CREATE INDEX IF NOT EXISTS hns_matches_by_kind ON hns_matches (kind, finished_at_ms)";

bool has_column(SQLite::Database& db, const char* schema, const char* table, const char* column) {
    SQLite::Statement info(db, "SELECT 1 FROM pragma_table_info(?, ?) WHERE name = ?");
    info.bind(1, table);
    info.bind(2, schema);
    info.bind(3, column);
    return info.executeStep();
}

StoreError io_error(std::string message) { return StoreError{StoreErrorKind::Io, std::move(message)}; }

StoreError errno_error(const std::string& what, const std::filesystem::path& path, int error) {
    return io_error(what + " " + path.string() + ": " + std::strerror(error));
}

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    // close() can report a deferred write error, so a writer must check it.
    int release_and_close() {
        const int fd = fd_;
        fd_ = -1;
        return ::close(fd);
    }

private:
    int fd_;
};

std::optional<StoreError> fsync_directory(const std::filesystem::path& dir) {
    Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0) return errno_error("cannot open directory", dir, errno);
    if (::fsync(fd.get()) != 0) return errno_error("cannot fsync directory", dir, errno);
    return std::nullopt;
}

// temp file + fsync + rename + directory fsync: after it returns, `path` holds `bytes` or the old
// contents, never a torn file, even across a power cut.
std::optional<StoreError> write_file_durably(const std::filesystem::path& path, const std::filesystem::path& temp,
                                             std::string_view bytes) {
    Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd.get() < 0) return errno_error("cannot create", temp, errno);
    const auto fail = [&](const char* what, int error) {
        ::unlink(temp.c_str());
        return errno_error(what, temp, error);
    };
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd.get(), bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            return fail("cannot write", errno);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd.get()) != 0) return fail("cannot fsync", errno);
    if (fd.release_and_close() != 0) return fail("cannot close", errno);
    if (::rename(temp.c_str(), path.c_str()) != 0) return fail("cannot rename", errno);
    if (auto error = fsync_directory(path.parent_path())) {
        ::unlink(path.c_str());
        return error;
    }
    return std::nullopt;
}

ArchivedMatch read_row(SQLite::Statement& row) {
    ArchivedMatch match;
    match.id = row.getColumn(0).getString();
    match.variant = row.getColumn(1).getString();
    match.finished_at_ms = row.getColumn(2).getInt64();
    match.final_tick = row.getColumn(3).getInt();
    match.end_reason = row.getColumn(4).getString();
    match.results_json = row.getColumn(5).getString();
    match.summary_json = row.getColumn(6).getString();
    match.owner_hash = row.getColumn(8).getString();
    match.kind = row.getColumn(9).getString();
    return match;
}

// "m<digits>" that fits in int64, else nullopt ("m", "m1x", "mm1" and overflows are not numbered).
std::optional<std::int64_t> numeric_suffix(std::string_view id) {
    if (id.size() < 2 || id[0] != 'm') return std::nullopt;
    std::int64_t value = 0;
    for (const char c : id.substr(1)) {
        if (c < '0' || c > '9') return std::nullopt;
        const int digit = c - '0';
        if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) return std::nullopt;
        value = value * 10 + digit;
    }
    return value;
}

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

bool is_valid_archived_match_id(std::string_view id) {
    if (id.empty() || id.size() > kMaxArchivedIdBytes) return false;
    for (const char c : id) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                        c == '-';
        if (!ok) return false;
    }
    return true;
}

Expected<std::unique_ptr<HnsArchive>, StoreError> HnsArchive::open(const std::filesystem::path& db_path,
                                                                  const std::filesystem::path& folder,
                                                                  const std::filesystem::path& legacy_db) {
    return SqliteHnsArchive::open(db_path, folder, legacy_db);
}

Expected<std::unique_ptr<HnsArchive>, StoreError> SqliteHnsArchive::open(const std::filesystem::path& db_path,
                                                                         const std::filesystem::path& folder,
                                                                         const std::filesystem::path& legacy_db) {
    const auto open_failed = [](std::string message) {
        return unexpected(StoreError{StoreErrorKind::OpenFailed, std::move(message)});
    };
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) return open_failed(folder.string() + ": " + ec.message());
    if (!std::filesystem::is_directory(folder, ec)) return open_failed(folder.string() + ": not a directory");

    std::unique_ptr<SQLite::Database> db;
    try {
        db = std::make_unique<SQLite::Database>(db_path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE,
                                                kBusyTimeoutMs);
    } catch (const std::exception& e) {
        return open_failed(db_path.string() + ": " + e.what());
    }
    if (auto error = configure_connection(*db)) return open_failed(db_path.string() + ": " + error->message);
    try {
        SQLite::Transaction transaction(*db, SQLite::TransactionBehavior::IMMEDIATE);
        db->exec(kCreateTable);
        if (!has_column(*db, "main", "hns_matches", "owner_hash")) db->exec(kAddOwnerColumn);
        if (!has_column(*db, "main", "hns_matches", "kind")) db->exec(kAddKindColumn);
        db->exec(kCreateKindIndex);
        // A table of the same name with another layout would fail here rather than on first use.
        SQLite::Statement probe(*db, std::string("SELECT ") + kColumns + " FROM hns_matches LIMIT 0");
        transaction.commit();
    } catch (const SQLite::Exception& e) {
        auto error = statement_error(e);
        if (error.kind != StoreErrorKind::Busy) error.kind = StoreErrorKind::OpenFailed;
        error.message = db_path.string() + ": hns_matches: " + error.message;
        return unexpected(std::move(error));
    } catch (const std::exception& e) {
        return open_failed(db_path.string() + ": hns_matches: " + e.what());
    }

    std::unique_ptr<SQLite::Database> reader;
    try {
        reader = std::make_unique<SQLite::Database>(db_path.string(), SQLite::OPEN_READONLY, kBusyTimeoutMs);
    } catch (const std::exception& e) {
        return open_failed(db_path.string() + ": " + e.what());
    }
    std::unique_ptr<SqliteHnsArchive> archive(new SqliteHnsArchive(std::move(db), std::move(reader), folder));
    {
        const std::lock_guard lock(archive->mutex_);
        if (!legacy_db.empty()) {  // before the sweep, which would take the moved rows' files for strays
            auto moved = archive->import_locked(legacy_db);
            if (!moved) return unexpected(std::move(moved.error()));
            archive->imported_ = *moved;
        }
        if (auto error = archive->sweep_locked()) return unexpected(std::move(*error));
    }
    return std::unique_ptr<HnsArchive>(std::move(archive));
}

SqliteHnsArchive::SqliteHnsArchive(std::unique_ptr<SQLite::Database> db, std::unique_ptr<SQLite::Database> reader,
                       std::filesystem::path folder)
    : db_(std::move(db)), reader_(std::move(reader)), folder_(std::move(folder)) {}

SqliteHnsArchive::~SqliteHnsArchive() = default;

std::filesystem::path SqliteHnsArchive::replay_path(const std::string& id) const {
    return folder_ / (id + kArchivedReplaySuffix);
}

// Under the write lock, so no other connection is between its rename and its commit.
std::optional<StoreError> SqliteHnsArchive::sweep_locked() {
    try {
        SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
        std::set<std::string> ids;
        SQLite::Statement select(*db_, "SELECT id FROM hns_matches");
        while (select.executeStep()) ids.insert(select.getColumn(0).getString());

        const std::string replay_suffix = kArchivedReplaySuffix;
        const std::string temp_suffix = replay_suffix + kArchiveTempSuffix;
        std::error_code ec;
        std::vector<std::filesystem::path> stale;
        for (std::filesystem::directory_iterator it(folder_, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            for (const auto& suffix : {temp_suffix, replay_suffix}) {
                if (!ends_with(name, suffix)) continue;
                const std::string id = name.substr(0, name.size() - suffix.size());
                if (!is_valid_archived_match_id(id)) break;
                if (suffix == temp_suffix || ids.count(id) == 0) stale.push_back(it->path());
                break;
            }
        }
        if (ec) return StoreError{StoreErrorKind::OpenFailed, folder_.string() + ": " + ec.message()};
        for (const auto& path : stale) std::filesystem::remove(path, ec);  // a leftover that stays is harmless
        transaction.commit();
        return std::nullopt;
    } catch (const SQLite::Exception& e) {
        return statement_error(e);
    } catch (const std::exception& e) {
        return io_error(e.what());
    }
}

Expected<void, StoreError> SqliteHnsArchive::save(const ArchivedMatch& match, std::string_view replay_bytes) {
    if (!is_valid_archived_match_id(match.id))
        return unexpected(io_error("invalid match id (want [A-Za-z0-9_-]{1,32}): refusing to name a file after it"));
    if (match.kind != kArchiveKindMatch && match.kind != kArchiveKindLeague)
        return unexpected(io_error("unknown archive kind '" + match.kind.substr(0, kMaxArchivedIdBytes) + "' of " + match.id));
    if (replay_bytes.size() > kMaxArchivedReplayBytes) {
        return unexpected(StoreError{StoreErrorKind::LimitReached,
                                     "replay of " + match.id + " is " + std::to_string(replay_bytes.size()) +
                                         " bytes, over kMaxArchivedReplayBytes"});
    }
    if (match.results_json.size() > kMaxArchivedJsonBytes || match.summary_json.size() > kMaxArchivedJsonBytes) {
        return unexpected(StoreError{StoreErrorKind::LimitReached,
                                     "results or summary of " + match.id + " over kMaxArchivedJsonBytes"});
    }

    const std::lock_guard lock(mutex_);
    const auto path = replay_path(match.id);
    bool file_written = false;
    try {
        const FullSyncScope full_sync(*db_);
        // IMMEDIATE: the duplicate check, the rename and the insert happen under the file's write
        // lock, so another connection cannot archive the same id in between.
        SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
        SQLite::Statement exists(*db_, "SELECT 1 FROM hns_matches WHERE id = ?");
        exists.bind(1, match.id);
        if (exists.executeStep()) return unexpected(io_error("match " + match.id + " is already archived"));

        const auto temp = folder_ / (match.id + kArchivedReplaySuffix + kArchiveTempSuffix);
        if (auto error = write_file_durably(path, temp, replay_bytes)) return unexpected(std::move(*error));
        file_written = true;

        SQLite::Statement insert(*db_, std::string("INSERT INTO hns_matches (") + kColumns +
                                           ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        insert.bind(1, match.id);
        insert.bind(2, match.variant);
        insert.bind(3, match.finished_at_ms);
        insert.bind(4, match.final_tick);
        insert.bind(5, match.end_reason);
        insert.bind(6, match.results_json);
        insert.bind(7, match.summary_json);
        insert.bind(8, static_cast<std::int64_t>(replay_bytes.size()));
        insert.bind(9, match.owner_hash);
        insert.bind(10, match.kind);
        insert.exec();
        transaction.commit();
        return {};
    } catch (const SQLite::Exception& e) {
        if (file_written) ::unlink(path.c_str());  // no row for it: the id was free under the lock
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        if (file_written) ::unlink(path.c_str());
        return unexpected(io_error(e.what()));
    }
}

Expected<std::vector<ArchivedMatch>, StoreError> SqliteHnsArchive::list(std::size_t limit, std::string_view kind) {
    const std::lock_guard lock(read_mutex_);
    try {
        std::vector<ArchivedMatch> matches;
        if (limit == 0) return matches;
        const auto max = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
        SQLite::Statement select(*reader_, std::string("SELECT ") + kColumns +
                                               " FROM hns_matches WHERE kind = ? ORDER BY finished_at_ms DESC, rowid DESC LIMIT ?");
        select.bind(1, std::string(kind));
        select.bind(2, static_cast<std::int64_t>(limit < max ? limit : max));
        while (select.executeStep()) matches.push_back(read_row(select));
        return matches;
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e.what()));
    }
}

Expected<std::optional<ArchivedMatch>, StoreError> SqliteHnsArchive::get(const std::string& id) {
    if (!is_valid_archived_match_id(id)) return std::optional<ArchivedMatch>{};
    const std::lock_guard lock(read_mutex_);
    try {
        SQLite::Statement select(*reader_, std::string("SELECT ") + kColumns + " FROM hns_matches WHERE id = ?");
        select.bind(1, id);
        if (!select.executeStep()) return std::optional<ArchivedMatch>{};
        return std::optional<ArchivedMatch>(read_row(select));
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e.what()));
    }
}

Expected<std::optional<HnsArchive::ReplayFile>, StoreError> SqliteHnsArchive::replay_file(const std::string& id) {
    if (!is_valid_archived_match_id(id)) return std::optional<ReplayFile>{};
    std::int64_t expected_size = 0;
    try {
        const std::lock_guard lock(read_mutex_);  // the row only: the file is checked outside the lock
        SQLite::Statement select(*reader_, "SELECT replay_bytes FROM hns_matches WHERE id = ?");
        select.bind(1, id);
        if (!select.executeStep()) return std::optional<ReplayFile>{};
        expected_size = select.getColumn(0).getInt64();
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e.what()));
    }
    const auto path = replay_path(id);
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        const int error = errno;
        if (error == ENOENT)
            return unexpected(io_error("replay file of archived match " + id + " is missing: " + path.string()));
        return unexpected(errno_error("cannot stat", path, error));
    }
    if (!S_ISREG(info.st_mode)) return unexpected(io_error(path.string() + ": not a regular file"));
    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (size > kMaxArchivedReplayBytes) {
        return unexpected(
            io_error(path.string() + ": " + std::to_string(size) + " bytes, over kMaxArchivedReplayBytes"));
    }
    if (static_cast<std::int64_t>(size) != expected_size) {
        return unexpected(io_error(path.string() + ": " + std::to_string(size) + " bytes, but " +
                                   std::to_string(expected_size) + " were archived"));
    }
    return std::optional<ReplayFile>(ReplayFile{path, size});
}

Expected<std::optional<std::string>, StoreError> SqliteHnsArchive::replay(const std::string& id) {
    auto file = replay_file(id);
    if (!file) return unexpected(file.error());
    if (!*file) return std::optional<std::string>{};
    const auto& path = (*file)->path;
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) {
        const int error = errno;
        if (error == ENOENT)
            return unexpected(io_error("replay file of archived match " + id + " is missing: " + path.string()));
        return unexpected(errno_error("cannot open", path, error));
    }
    std::string bytes(static_cast<std::size_t>((*file)->bytes), '\0');
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return unexpected(errno_error("cannot read", path, errno));
        }
        if (n == 0) return unexpected(io_error(path.string() + ": shrank while being read"));
        done += static_cast<std::size_t>(n);
    }
    return std::optional<std::string>(std::move(bytes));
}

Expected<bool, StoreError> SqliteHnsArchive::remove(const std::string& id) {
    if (!is_valid_archived_match_id(id)) return false;
    const std::lock_guard lock(mutex_);
    try {
        const FullSyncScope full_sync(*db_);
        SQLite::Statement remove_row(*db_, "DELETE FROM hns_matches WHERE id = ?");
        remove_row.bind(1, id);
        if (remove_row.exec() == 0) return false;
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e.what()));
    }
    // After the row: a crash in between leaves a file without a row, which the next open sweeps.
    std::error_code ignored;
    std::filesystem::remove(replay_path(id), ignored);
    return true;
}

Expected<std::size_t, StoreError> SqliteHnsArchive::trim(std::string_view kind, std::size_t keep) {
    std::vector<std::string> ids;
    try {
        const std::lock_guard lock(read_mutex_);
        const auto max = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
        SQLite::Statement select(*reader_, "SELECT id FROM hns_matches WHERE kind = ? "
                                           "ORDER BY finished_at_ms DESC, rowid DESC LIMIT -1 OFFSET ?");
        select.bind(1, std::string(kind));
        select.bind(2, static_cast<std::int64_t>(keep < max ? keep : max));
        while (select.executeStep()) ids.push_back(select.getColumn(0).getString());
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e.what()));
    }
    std::size_t removed = 0;
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) {  // the oldest first
        auto gone = remove(*it);
        if (!gone) return unexpected(std::move(gone.error()));
        removed += *gone ? 1 : 0;
    }
    return removed;
}

Expected<std::int64_t, StoreError> SqliteHnsArchive::max_numeric_id() {
    const std::lock_guard lock(read_mutex_);
    try {
        std::int64_t highest = 0;
        SQLite::Statement select(*reader_, "SELECT id FROM hns_matches WHERE id GLOB 'm[0-9]*'");
        while (select.executeStep()) {
            if (const auto n = numeric_suffix(select.getColumn(0).getString()); n && *n > highest) highest = *n;
        }
        return highest;
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e.what()));
    }
}

Expected<std::size_t, StoreError> SqliteHnsArchive::import_locked(const std::filesystem::path& other_db) {
    std::error_code ec;
    if (!std::filesystem::exists(other_db, ec)) return std::size_t{0};
    try {
        {
            SQLite::Database other(other_db.string(), SQLite::OPEN_READONLY, kBusyTimeoutMs);
            if (!other.tableExists("hns_matches")) return std::size_t{0};
        }
        SQLite::Statement attach(*db_, "ATTACH DATABASE ? AS legacy");
        attach.bind(1, other_db.string());
        attach.exec();
        std::size_t moved = 0;
        try {
            const bool owners = has_column(*db_, "legacy", "hns_matches", "owner_hash");
            const bool kinds = has_column(*db_, "legacy", "hns_matches", "kind");
            SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
            moved = static_cast<std::size_t>(db_->exec(
                std::string("INSERT OR IGNORE INTO main.hns_matches (") + kColumns + ") SELECT id, variant, finished_at_ms, "
                "final_tick, end_reason, results_json, summary_json, replay_bytes, " + (owners ? "owner_hash" : "''") +
                ", " + (kinds ? "kind" : "'match'") + " FROM legacy.hns_matches"));
            db_->exec("DROP TABLE legacy.hns_matches");
            transaction.commit();
        } catch (...) {
            db_->exec("DETACH DATABASE legacy");
            throw;
        }
        db_->exec("DETACH DATABASE legacy");
        return moved;
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e.what()));
    }
}

}  // namespace hschool::store
