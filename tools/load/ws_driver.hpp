#pragma once
// Runs the simulated WebSocket clients on one io_context per thread. The only header the rest of
// the tool sees; Beast stays inside ws_driver.cpp.
#include <atomic>
#include <memory>

#include "client_stats.hpp"
#include "load_plan.hpp"

namespace hschool::load {

class WsDriver {
public:
    explicit WsDriver(LoadPlan plan);
    ~WsDriver();

    // Starts the threads; clients connect in batches of plan.ramp_batch.
    void start();
    // Clients still connecting (neither welcomed nor failed).
    int pending() const;
    int welcomed() const;
    // While on, frames, bytes, gaps and round trips are counted.
    void set_measuring(bool on);
    // Stops every thread and returns what the clients saw.
    DriverResult stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace hschool::load
