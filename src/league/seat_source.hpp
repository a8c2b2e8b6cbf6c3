#pragma once
// Who plays an entrant's seats (issue 33). A headless league asks each entrant's source for the
// policy that plays its three seats in process; built-ins have one. prompt: and cmd: entrants need
// a live server (a language model asked each turn, or a program dialling its seat's /player URL),
// so their sources have none here and the headless runner refuses them with kNeedsServer;
// `hschool-hns league` plays their matches through hschool-server (tools/hns/server_runner.hpp:
// src/league never depends on the server).
#include <memory>

#include "league/entrant.hpp"
#include "sim/hns/seat_policy.hpp"

namespace hschool::league {

inline constexpr const char* kNeedsServer = "needs a server: the headless runner plays built-ins only";

class SeatSource {
public:
    virtual ~SeatSource() = default;
    virtual const EntrantKind& kind() const = 0;
    // The policy that plays this entrant's seats in a headless match, or null when it needs a server.
    virtual std::shared_ptr<const sim::hns::SeatPolicy> headless_policy() const = 0;
};

std::unique_ptr<SeatSource> make_seat_source(const EntrantKind& kind);

}  // namespace hschool::league
