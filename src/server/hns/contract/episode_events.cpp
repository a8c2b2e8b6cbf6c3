#include "server/hns/contract/episode_events.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <set>
#include <utility>

#include "sim/hns/constants.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/sim.hpp"
#include "sim/hns/verify.hpp"

namespace hschool::server::hns {

namespace json = boost::json;
namespace sh = sim::hns;

namespace {

const char* phase_text(sh::GamePhase phase) {
    switch (phase) {
        case sh::GamePhase::Lobby: return "lobby";
        case sh::GamePhase::Playing: return "playing";
        case sh::GamePhase::GameOver: return "gameover";
    }
    return "lobby";
}

const char* locker_text(sh::LockOwner owner) { return owner == sh::LockOwner::Seekers ? "seekers" : "hiders"; }

// What one tick is compared against: only the fields events are read from.
struct Snapshot {
    sh::GamePhase phase = sh::GamePhase::Lobby;
    sh::MatchPhase match_phase = sh::MatchPhase::Prep;
    std::vector<int> holding, vault_left;
    std::vector<bool> sealed;
    std::vector<sh::ActionResult> results;
    std::vector<sh::LockOwner> locks;
    std::size_t shouts = 0;
    std::set<std::pair<int, int>> seen;  // (seeker, hider) pairs in sight

    static Snapshot of(const sh::Sim& sim) {
        Snapshot s;
        s.phase = sim.phase();
        s.match_phase = sim.match_phase();
        for (const auto& p : sim.players()) {
            s.holding.push_back(p.holding);
            s.vault_left.push_back(p.vaultLeft);
            s.sealed.push_back(p.sealed);
        }
        s.results = sim.last_results();
        for (const auto& o : sim.objects()) s.locks.push_back(o.lockedBy);
        s.shouts = sim.shouts().size();
        if (sim.phase() == sh::GamePhase::Playing && sim.match_phase() == sh::MatchPhase::Hunt) {
            const auto& players = sim.players();
            for (int a = 0; a < static_cast<int>(players.size()); ++a) {
                if (players[a].team != sh::Team::Blue) continue;
                for (int b = 0; b < static_cast<int>(players.size()); ++b)
                    if (players[b].team == sh::Team::Red && sim.player_visible_to(a, b)) s.seen.insert({a, b});
            }
        }
        return s;
    }
};

class Collector {
public:
    void add(EpisodeEvent e) {
        if (events_.size() >= kMaxEpisodeEvents) {
            ++dropped_;
            return;
        }
        events_.push_back(std::move(e));
    }
    std::vector<EpisodeEvent>& events() { return events_; }
    std::size_t dropped() const { return dropped_; }

private:
    std::vector<EpisodeEvent> events_;
    std::size_t dropped_ = 0;
};

EpisodeEvent event(int tick, const char* kind) {
    EpisodeEvent e;
    e.tick = tick;
    e.kind = kind;
    return e;
}

// The state changes of one step, as events at the tick the step produced.
void diff(const Snapshot& before, const Snapshot& after, const sh::Sim& sim, Collector& out) {
    const int tick = sim.tick_count();
    if (after.phase != before.phase) {
        auto e = event(tick, "phase");
        e.amount = static_cast<int>(after.phase);
        e.subject = "game " + std::to_string(sim.game_index() + 1);
        e.content = phase_text(after.phase);
        out.add(std::move(e));
    }
    if (after.phase == sh::GamePhase::Playing && before.match_phase == sh::MatchPhase::Prep && after.match_phase == sh::MatchPhase::Hunt) {
        auto e = event(tick, "release");
        e.amount = sim.game_index() + 1;
        e.content = "hunt";
        out.add(std::move(e));
    }
    const auto& players = sim.players();
    const auto& objects = sim.objects();
    for (int s = 0; s < static_cast<int>(players.size()) && s < static_cast<int>(before.holding.size()); ++s) {
        const auto& p = players[s];
        if (after.holding[s] != before.holding[s]) {
            const int object = after.holding[s] >= 0 ? after.holding[s] : before.holding[s];
            auto e = event(tick, after.holding[s] >= 0 ? "grab" : "drop");
            e.source = s;
            e.target = object;
            if (object >= 0 && object < static_cast<int>(objects.size())) {
                e.subject = objects[object].id;
                e.x = objects[object].x;
                e.y = objects[object].y;
            }
            out.add(std::move(e));
        }
        if (before.vault_left[s] == 0 && after.vault_left[s] > 0) {
            auto e = event(tick, "vault");
            e.source = s;
            e.x = p.vaultFromX;
            e.y = p.vaultFromY;
            e.heading_brads = p.vaultDirBrads;
            out.add(std::move(e));
        }
        if (after.sealed[s] != before.sealed[s]) {
            auto e = event(tick, after.sealed[s] ? "sealed" : "unsealed");
            e.source = s;
            e.x = p.x;
            e.y = p.y;
            out.add(std::move(e));
        }
        if (s < static_cast<int>(after.results.size()) && s < static_cast<int>(before.results.size()) &&
            after.results[s] == sh::ActionResult::LockRefused && before.results[s] != sh::ActionResult::LockRefused) {
            auto e = event(tick, "lock_refused");
            e.source = s;
            out.add(std::move(e));
        }
    }
    for (int o = 0; o < static_cast<int>(objects.size()) && o < static_cast<int>(before.locks.size()); ++o) {
        if (after.locks[o] == before.locks[o]) continue;
        const bool locked = after.locks[o] != sh::LockOwner::None;
        auto e = event(tick, locked ? "lock" : "unlock");
        e.target = o;
        e.subject = objects[o].id;
        e.content = locker_text(locked ? after.locks[o] : before.locks[o]);
        e.x = objects[o].x;
        e.y = objects[o].y;
        // The cog whose last action this tick was the (un)lock.
        for (int s = 0; s < static_cast<int>(after.results.size()) && s < static_cast<int>(before.results.size()); ++s) {
            const auto want = locked ? sh::ActionResult::Locked : sh::ActionResult::Unlocked;
            if (after.results[s] == want && before.results[s] != want) e.source = s;
        }
        out.add(std::move(e));
    }
    for (std::size_t i = before.shouts; i < sim.shouts().size(); ++i) {
        const auto& shout = sim.shouts()[i];
        auto e = event(shout.tick, "shout");
        for (int s = 0; s < static_cast<int>(players.size()); ++s)
            if (players[s].address == shout.address) e.source = s;
        e.x = shout.x;
        e.y = shout.y;
        e.content = shout.text;
        out.add(std::move(e));
    }
    // A (seeker, hider) pair in sight now and not before was spotted, there; one gone was lost.
    const auto sight = [&](const auto& now, const auto& then, const char* kind, bool located) {
        for (const auto& pair : now) {
            if (then.count(pair)) continue;
            auto e = event(tick, kind);
            e.source = pair.first;
            e.target = pair.second;
            if (located) {
                e.x = players[pair.second].x;
                e.y = players[pair.second].y;
            }
            out.add(std::move(e));
        }
    };
    sight(after.seen, before.seen, "spotted", true);
    sight(before.seen, after.seen, "lost", false);
}

int int_of(const json::object& o, const char* key, int fallback = 0) {
    const auto* v = o.if_contains(key);
    return v && v->is_int64() ? static_cast<int>(v->as_int64()) : fallback;
}

std::string text_of(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

// A decision turn runs before the step whenever a game is playing and its tick is a turn boundary.
void turn_start(const sh::Sim& sim, Collector& out) {
    const int turn_ticks = std::max(1, sim.config().turnTicks);
    if (sim.phase() != sh::GamePhase::Playing || sim.game_tick() % turn_ticks != 0) return;
    if (sim.game_tick() / turn_ticks >= sim.config().prepTurns + sim.config().huntTurns) return;  // the game's last tick
    auto e = event(sim.tick_count(), "turn");
    e.amount = sim.game_tick() / turn_ticks;
    e.subject = sim.match_phase() == sh::MatchPhase::Hunt ? "hunt" : "prep";
    e.content = "game " + std::to_string(sim.game_index() + 1);
    out.add(std::move(e));
}

// The decision records the replay carries (directive, fallback).
void control_record(const sh::ReplayChat& chat, int tick, Collector& out) {
    if (chat.message.empty() || chat.message.front() != '{') return;
    boost::system::error_code ec;
    const auto parsed = json::parse(chat.message, ec);
    if (ec || !parsed.is_object()) return;
    const auto& o = parsed.as_object();
    const std::string kind = text_of(o, "k");
    if (kind != "directive" && kind != "fallback") return;
    const int turn = int_of(o, "turn");
    auto e = event(tick, kind == "directive" ? "directive" : "fallback");
    e.source = int_of(o, "slot", -1);
    e.amount = turn;
    e.subject = text_of(o, kind == "directive" ? "source" : "cause");
    e.content = text_of(o, kind == "directive" ? "radio" : "detail");
    out.add(std::move(e));
}

}  // namespace

std::string events_jsonl(const std::vector<EpisodeEvent>& events, int ticks, sh::GameVersion version,
                         std::size_t dropped) {
    std::string text;
    for (const auto& e : events) {
        json::object row{{"tick", e.tick},       {"kind", e.kind},   {"source", e.source}, {"target", e.target},
                         {"subject", e.subject}, {"amount", e.amount}, {"x", e.x},         {"y", e.y},
                         {"heading_brads", e.heading_brads},           {"content", e.content}};
        text += json::serialize(row);
        text += '\n';
    }
    json::object summary{{"type", "summary"}, {"ticks", ticks}, {"events", events.size()}, {"gameVersion", sh::game_version_text(version)}};
    if (dropped > 0) summary["dropped"] = dropped;
    text += json::serialize(summary);
    text += '\n';
    return text;
}

sh::Expected<std::string> episode_events_jsonl(std::string_view replay_bytes) {
    auto data = sh::parse_replay(replay_bytes);
    if (!data) return sh::Expected<std::string>::fail("replay: " + data.error);
    auto stepper = sh::ReplayStepper::create(*data);
    if (!stepper) return sh::Expected<std::string>::fail("replay: " + stepper.error);
    Collector out;
    std::size_t chat = 0;
    for (;;) {
        const sh::Sim& sim = stepper->sim();
        const int tick = sim.tick_count();
        turn_start(sim, out);
        // The records the stepper applies before this step, read at the same time it applies them.
        for (; chat < data->chats.size() && data->chats[chat].ms <= sh::replay_tick_time(tick); ++chat)
            control_record(data->chats[chat], tick, out);
        const Snapshot before = Snapshot::of(sim);
        const auto status = stepper->step();
        if (status != sh::ReplayStepper::Status::Stepped && status != sh::ReplayStepper::Status::Mismatch) break;
        diff(before, Snapshot::of(stepper->sim()), stepper->sim(), out);
    }
    return sh::Expected<std::string>::ok(events_jsonl(out.events(), stepper->sim().tick_count(), data->version, out.dropped()));
}

}  // namespace hschool::server::hns
