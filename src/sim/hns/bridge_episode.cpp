#include "sim/hns/bridge_episode.hpp"

#include "sim/hns/baselines.hpp"
#include "sim/hns/records.hpp"

namespace hschool::sim::hns {
namespace {

constexpr int kBridgePrepTurns = 2;
constexpr int kBridgeHuntTurns = 3;
constexpr int kBridgeGames = 2;
// A turn's key: game and turn in one number, as the bridge tells a new turn from a repeated one.
constexpr int kTurnKeyGameStride = 1'000'000;
// What a bridge replay's register records name as the seats' policy.
constexpr const char* kBridgePolicy = "bridge";
// Our replay extension: a re-stepping sim starts the first game before tick 1, as the bridge did.
constexpr const char* kStartRecord = "{\"k\":\"start\"}";

int index_for_slot(const Sim& sim, int slot) {
    const auto& players = sim.players();
    for (std::size_t i = 0; i < players.size(); ++i)
        if (players[i].joinOrder == slot) return static_cast<int>(i);
    return -1;
}

}  // namespace

GameConfig bridge_config(std::int64_t seed) {
    GameConfig c;
    c.seed = seed;
    c.numAgents = kSeats;
    c.minPlayers = kSeats;
    c.prepTurns = kBridgePrepTurns;
    c.huntTurns = kBridgeHuntTurns;
    c.maxGames = kBridgeGames;
    c.turnSpacingMs = 0;
    c.startWaitTicks = 0;
    c.gameOverTicks = 0;
    c.fastMode = true;
    return c;
}

BridgeEpisode::BridgeEpisode(Sim sim) : sim_(std::move(sim)), driver_(sim_) {}

Expected<BridgeEpisode> BridgeEpisode::create(const GameConfig& config, bool record) {
    using R = Expected<BridgeEpisode>;
    auto created = Sim::create(config);
    if (!created) return R::fail(created.error);
    for (int s = 0; s < kSeats; ++s) {
        // The seat's address is its alias, as the bridge joins them (aliasForSlot).
        auto joined = created->add_player(created->alias(s), s, "", true);
        if (!joined) return R::fail("join " + std::to_string(s) + ": " + joined.error);
    }
    created->set_policy_kinds(std::vector<std::string>(kSeats, "external"));
    // The driver reads the grid at creation, before the first game starts (initDecisionEngine).
    BridgeEpisode episode(std::move(*created));
    if (record) {
        episode.writer_.emplace(config_to_json(config), 0, config.gameVersion);
        episode.record_start();
    }
    episode.sim_.start_without_lobby();
    episode.previous_.assign(episode.sim_.players().size(), Input{});
    episode.drive_until_decision();
    return R::ok(std::move(episode));
}

int BridgeEpisode::turn() const { return sim_.game_tick() / sim_.config().turnTicks; }

Order BridgeEpisode::burrow_for(int slot, int turn) const {
    const int index = index_for_slot(sim_, slot);
    if (index < 0) {
        Order watch;
        watch.fromReply = true;
        return watch;
    }
    return baseline_order(Baseline::Burrow, sim_, driver_, index, turn);
}

std::string BridgeEpisode::seat_view() const {
    if (finished_ || pending_.empty()) return "{}";
    std::array<SeatMemory, kSeats> memory = memory_;
    for (int s = 0; s < kSeats; ++s) memory[s].last_order = haveOrder_[s] ? &orders_[s] : nullptr;
    return seat_view_json(SeatViewInput{sim_, driver_, seat(), turn(), true, memory});
}

boost::json::object BridgeEpisode::seat_view_object() const {
    if (finished_ || pending_.empty()) return {};
    std::array<SeatMemory, kSeats> memory = memory_;
    for (int s = 0; s < kSeats; ++s) memory[s].last_order = haveOrder_[s] ? &orders_[s] : nullptr;
    return ::hschool::sim::hns::seat_view_object(SeatViewInput{sim_, driver_, seat(), turn(), true, memory});
}

Order BridgeEpisode::teacher_order() const {
    if (finished_ || pending_.empty()) return Order{};
    return burrow_for(seat(), turn());
}

void BridgeEpisode::record_start() {
    for (int s = 0; s < kSeats; ++s) {
        writer_->join(0, s, sim_.alias(s), s, "");
        writer_->chat(0, s, register_record(s, kBridgePolicy, "external", "burrow"));
    }
    writer_->chat(0, 0, kStartRecord);
}

void BridgeEpisode::step_sim(std::vector<Input> inputs) {
    if (writer_) {
        const std::uint32_t ms = replay_tick_time(sim_.tick_count());
        for (std::size_t p = 0; p < inputs.size(); ++p) writer_->input_if_changed(ms, static_cast<int>(p), inputs[p].mask);
    }
    sim_.step(inputs, previous_);
    previous_ = std::move(inputs);
    if (writer_) writer_->hash(static_cast<std::uint32_t>(sim_.tick_count()), sim_.hash());
}

void BridgeEpisode::drive_until_decision() {
    const GameConfig& cfg = sim_.config();
    while (static_cast<int>(sim_.game_margins().size()) < cfg.maxGames) {
        const int n = static_cast<int>(sim_.players().size());
        std::vector<Input> inputs(static_cast<std::size_t>(n));
        if (sim_.phase() == GamePhase::Playing) {
            if (sim_.tick_count() != lastObservedTick_) {
                driver_.observe(sim_);
                lastObservedTick_ = sim_.tick_count();
            }
            const int now = turn();
            const int key = sim_.game_index() * kTurnKeyGameStride + now;
            if (sim_.game_tick() % cfg.turnTicks == 0 && key != lastTurnKey_) {
                pending_.clear();
                for (int s = 0; s < cfg.numAgents; ++s) {
                    const int index = index_for_slot(sim_, s);
                    if (index >= 0 && !sim_.frozen_seeker(index)) pending_.push_back(s);
                }
                if (!pending_.empty()) {
                    position_ = 0;
                    return;
                }
            }
            for (int index = 0; index < n; ++index) {
                const int slot = sim_.players()[index].joinOrder;
                const Order order = slot < kSeats && haveOrder_[slot] ? orders_[slot] : burrow_for(slot, now);
                // Compiled for a frozen seeker too, then zeroed: compiling warms the driver's flow
                // fields, and the bridge's later steering depends on when they were built.
                const std::uint8_t mask = driver_.compile_mask(sim_, order, index);
                inputs[index].mask = sim_.frozen_seeker(index) ? 0 : mask;
            }
        }
        step_sim(std::move(inputs));
    }
    sim_.settle_episode();
    finished_ = true;
    pending_.clear();
    if (writer_) writer_->chat(replay_tick_time(sim_.tick_count()), 0, result_record(sim_.results_json()));
}

void BridgeEpisode::answer(std::string_view reply) {
    if (finished_ || pending_.empty()) return;
    replies_[static_cast<std::size_t>(seat())] = std::string(reply);
    ++decision_;
    if (position_ + 1 < pending_.size()) {
        ++position_;
        return;
    }
    run_turn();
    drive_until_decision();
}

void BridgeEpisode::run_turn() {
    const int now = turn();
    for (const int s : pending_) {
        const std::string& reply = replies_[static_cast<std::size_t>(s)];
        std::optional<ParsedOrder> parsed;
        if (!reply.empty() && reply.size() <= kMaxReplyBytes)
            if (auto object = extract_json_object(reply))
                if (auto order = parse_order(*object, order_context(sim_))) parsed = std::move(*order);
        SeatMemory& m = memory_[static_cast<std::size_t>(s)];
        bool rejected = false;
        Order order;
        if (parsed) {
            order = resolve_reply(haveOrder_[s] ? &orders_[s] : nullptr, *parsed, burrow_for(s, now), rejected);
            if (rejected) m.last_result = kResultUnknownObject;
            sim_.add_llm_turn(s);
        } else {
            order = burrow_for(s, now);
            sim_.add_fallback_turn(s);
        }
        // The engine's installOrder: radio and notes outlive the turn when the order carries them.
        if (!order.radio.empty()) m.radio = order.radio;
        if (!order.notes.empty()) m.notes = order.notes;
        if (m.last_result == kResultUnknownObject) sim_.add_orders_rejected(s);
        if (writer_) {
            const std::uint32_t ms = replay_tick_time(sim_.tick_count());
            if (!parsed) writer_->chat(ms, 0, fallback_record(sim_, s, now, "parse_error", 1, "no order from the catalog"));
            writer_->chat(ms, s, directive_record(sim_, s, now, order, m.last_result, parsed ? "llm" : "fallback", 0));
        }
        orders_[s] = std::move(order);
        haveOrder_[s] = true;
    }
    lastTurnKey_ = sim_.game_index() * kTurnKeyGameStride + now;
}

}  // namespace hschool::sim::hns
