#include "league/runner.hpp"

#include <boost/json.hpp>
#include <iterator>

#include "league/seat_source.hpp"
#include "sim/hns/match.hpp"
#include "sim/hns/room.hpp"
#include "sim/hns/room_files.hpp"

namespace hschool::league {
namespace {

// room_for_seed picks a pool's room by seed modulo the number of rooms.
constexpr long long kRoomSeedsToCoverPool = static_cast<long long>(std::size(sim::hns::kRoomNames));

}  // namespace

Result<std::unique_ptr<HeadlessRunner>> HeadlessRunner::create(const std::vector<Entrant>& entrants,
                                                               const std::string& variant, const std::string& roomsDir) {
    using R = Result<std::unique_ptr<HeadlessRunner>>;
    auto config = sim::hns::variant_config(variant);
    if (!config) return R(hschool::unexpected(config.error));
    std::unique_ptr<HeadlessRunner> runner(new HeadlessRunner());
    runner->base_ = *config;
    runner->roomsDir_ = roomsDir;
    for (const Entrant& e : entrants) {
        auto policy = make_seat_source(e.kind)->headless_policy();
        if (!policy) return R(hschool::unexpected("entrant " + e.name + " (" + e.kind.text() + "): " + kNeedsServer));
        runner->policies_[e.name] = std::move(policy);
    }
    // Load the rooms once now, so a missing room folder fails before any match starts, and no
    // match reads and checks its room again. Seeds 0..2 name every room the pool can pick.
    for (long long seed = 0; seed < kRoomSeedsToCoverPool; ++seed) {
        sim::hns::GameConfig seeded = runner->base_;
        seeded.seed = seed;
        auto pinned = sim::hns::resolve_room_spec(seeded, roomsDir);
        if (!pinned) return R(hschool::unexpected(pinned.error));
        runner->roomSpecs_[sim::hns::room_for_seed(seeded.roomPool, seed)] = std::move(pinned->mapSpec);
    }
    return runner;
}

Result<PlayedMatch> HeadlessRunner::play(const ScheduledMatch& match) const {
    const auto fail = [&](const std::string& m) { return Result<PlayedMatch>(hschool::unexpected("match " + match.id + ": " + m)); };
    sim::hns::GameConfig config = base_;
    config.seed = match.seed;
    const auto room = roomSpecs_.find(sim::hns::room_for_seed(config.roomPool, config.seed));
    if (room == roomSpecs_.end()) return fail("no room for seed " + std::to_string(match.seed));
    config.mapSpec = room->second;
    sim::hns::MatchOptions options;
    for (int s = 0; s < kSeats; ++s) {
        const auto it = policies_.find(match.seats[s]);
        if (it == policies_.end()) return fail("no entrant named " + match.seats[s]);
        options.policies[s] = it->second;
    }
    auto outcome = sim::hns::run_match(config, options);
    if (!outcome) return fail(outcome.error);
    // run_match joins seat s into slot s in slot order, so the results' seat arrays are by slot.
    boost::system::error_code ec;
    const auto results = boost::json::parse(outcome->results, ec);
    const auto* scores = !ec && results.is_object() ? results.as_object().if_contains("scores") : nullptr;
    if (scores == nullptr || !scores->is_array() || scores->as_array().size() != kSeats)
        return fail("the results carry no six scores");
    PlayedMatch out;
    for (int s = 0; s < kSeats; ++s) {
        const auto& v = scores->as_array()[s];
        if (!v.is_number()) return fail("a score is not a number");
        out.scores[s] = v.to_number<double>();
    }
    out.replay = std::move(outcome->replay);
    out.gameVersion = std::string(sim::hns::game_version_text(config.gameVersion));
    return out;
}

}  // namespace hschool::league
