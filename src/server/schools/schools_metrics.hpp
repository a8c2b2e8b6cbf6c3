#pragma once
// What the schools report for /metrics; the server's Metrics implements it.
namespace hschool::server {

class SchoolsMetrics {
public:
    virtual ~SchoolsMetrics() = default;
    virtual void school_control_refused() = 0;  // owners mode: SetRunning/SetSpeed without the school's token
    virtual void store_error() = 0;             // a database write that failed (clock batch, create or delete)
};

}  // namespace hschool::server
