#pragma once
// Several servers on one database (issue 34): what a server needs to share its schools with the
// others. Only the PostgreSQL store has it (SchoolStore::shared()); on SQLite a server is alone.
// A school's clock is advanced by the server holding its lease (renewed in the database, taken
// over when it lapses); any server may pause or speed a school (a control write, which every
// server adopts); creates, deletes and controls are announced (NOTIFY) so the others read at once.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/expected.hpp"
#include "store/school_record.hpp"
#include "store/store_error.hpp"

namespace hschool::store {

using namespace std::chrono_literals;

inline constexpr auto kClockLease = 3000ms;        // a dead holder's schools are taken over after this
inline constexpr auto kLeaseRenewInterval = 1000ms;  // holders renew, and others look for lapsed leases, this often
inline constexpr auto kFollowInterval = 250ms;     // every server reads the clocks at least this often

struct SharedClockRow {
    std::int32_t id = 0;
    ClockState state;
    std::int64_t control_seq = 0;  // bumped by every pause or speed change, from any server
    bool held_here = false;        // this server holds the clock's lease
};

class SharedSchools {
public:
    virtual ~SharedSchools() = default;
    // This server's name in the leases (random per process).
    virtual const std::string& holder() const = 0;
    // Renews this server's leases and takes every lapsed one; the schools it holds now.
    virtual Expected<std::vector<std::int32_t>, StoreError> renew_leases() = 0;
    // Lets the others take this server's schools at once (clean shutdown).
    virtual void release_leases() = 0;
    // Every school's clock, in id order.
    virtual Expected<std::vector<SharedClockRow>, StoreError> read_clocks() = 0;
    // One school with its packs, or nullopt when it is gone.
    virtual Expected<std::optional<SchoolRecord>, StoreError> load_one(std::int32_t id) = 0;
    // Tells every server (this one too) that schools changed.
    virtual void announce() = 0;
    // Waits up to `timeout` for an announcement; false on timeout (or a listener that broke and
    // will reconnect on the next call).
    virtual bool wait_for_announcement(std::chrono::milliseconds timeout) = 0;
};

}  // namespace hschool::store
