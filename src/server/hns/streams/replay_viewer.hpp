#pragma once
// /replay?match=ID (spec §2.8, §4.5): a saved replay re-stepped on the server for one viewer,
// verifying every hash as it goes, drawn as the global stream plus the chrome sprite 4090, driven
// by the transport keys (play, pause, restart, step, seek "s:<tick>", speed). Its frames are drawn
// on the hub's replay pool (a net::TaskPool at a low priority) until its socket closes.
#include <atomic>
#include <memory>
#include <string>
#include <variant>

#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "net/task_pool.hpp"
#include "net/ws_connection.hpp"
#include "server/hns/contract/replay_keys.hpp"

namespace hschool::server::hns {

// Parses the replay now (a broken file is a 422 before the upgrade); its frames start on `pool`
// when the socket attaches. `viewers` counts live viewers, for the hub's cap. `compact`: the frames
// are our browser's compact stream (issue 31) instead of the contract's Sprite v1.
std::variant<Rejection, std::shared_ptr<net::WsHandler>> open_replay_viewer(std::string replay_bytes, HnsMetrics& metrics,
                                                                      std::shared_ptr<std::atomic<int>> viewers, net::TaskPool& pool,
                                                                      bool compact = false);

}  // namespace hschool::server::hns
