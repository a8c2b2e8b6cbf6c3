#pragma once
// Finished hide-and-seek matches in SQLite plus files (the embedded default): a row in table
// hns_matches and the COWLDHNS replay as <folder>/<id>.cowldhns. The row is the commit point: a
// replay file without a row is an interrupted save and is swept at open; a row whose file went
// missing is reported, not hidden.
#include <memory>
#include <mutex>

#include "store/hns_archive.hpp"

namespace SQLite {
class Database;
}

namespace hschool::store {

class SqliteHnsArchive final : public HnsArchive {
public:
    static Expected<std::unique_ptr<HnsArchive>, StoreError> open(const std::filesystem::path& db_path,
                                                                  const std::filesystem::path& folder,
                                                                  const std::filesystem::path& legacy_db);
    ~SqliteHnsArchive() override;
    SqliteHnsArchive(const SqliteHnsArchive&) = delete;
    SqliteHnsArchive& operator=(const SqliteHnsArchive&) = delete;

    std::size_t imported() const override { return imported_; }
    // The replay file is written durably (temp file + fsync + rename + directory fsync) THEN the row
    // is committed (synchronous=FULL), all under the file's write lock.
    Expected<void, StoreError> save(const ArchivedMatch& match, std::string_view replay_bytes) override;
    Expected<std::vector<ArchivedMatch>, StoreError> list(std::size_t limit, std::string_view kind = kArchiveKindMatch) override;
    Expected<std::size_t, StoreError> trim(std::string_view kind, std::size_t keep) override;
    Expected<std::optional<ArchivedMatch>, StoreError> get(const std::string& id) override;
    Expected<std::optional<std::string>, StoreError> replay(const std::string& id) override;
    // Deletes the row (durably), then the file. A file already gone is fine.
    Expected<bool, StoreError> remove(const std::string& id) override;
    Expected<std::optional<ReplayFile>, StoreError> replay_file(const std::string& id) override;
    Expected<std::int64_t, StoreError> max_numeric_id() override;

private:
    SqliteHnsArchive(std::unique_ptr<SQLite::Database> db, std::unique_ptr<SQLite::Database> reader, std::filesystem::path folder);

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
