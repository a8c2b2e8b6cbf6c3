// The results document (§3.16, the reference's roomResultsJson): a closed key set, six entries in
// every seat array, one entry per filed game in every game array. Written by hand so scores
// print as the reference prints floats (0.0, -0.5).

#include "sim/hns/constants.hpp"
#include "sim/hns/float_text.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {
namespace {

constexpr const char* kIdentityNames[3] = {"alpha", "beta", "gamma"};

std::string quote(std::string_view s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(static_cast<char>(c));
        } else if (c < 0x20) {
            static const char* hex = "0123456789abcdef";
            out += "\\u00";
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    return out + "\"";
}


template <class T, class F>
std::string list(const std::vector<T>& v, F f) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + f(v[i]);
    return out + "]";
}

std::string ints(const std::vector<int>& v) {
    return list(v, [](int x) { return std::to_string(x); });
}
std::string bools(const std::vector<bool>& v) {
    return list(v, [](bool x) { return std::string(x ? "true" : "false"); });
}
std::string strings(const std::vector<std::string>& v) {
    return list(v, [](const std::string& x) { return quote(x); });
}

}  // namespace

std::string Sim::results_json() const {
    const int seats = std::max(config_.numAgents, static_cast<int>(players_.size()));
    std::vector<std::string> names(seats), aliases(seats), teams(seats), kinds(seats);
    std::vector<int> seen(seats), sealed(seats), grabs(seats), pushed(seats), locks(seats), vaults(seats),
        shouts(seats), llm(seats), fallback(seats), rejected(seats);
    std::vector<bool> win(seats), dead(seats);
    std::vector<double> scores(seats);
    bool sawLlm = false, sawScripted = false;
    for (int s = 0; s < seats; ++s) {
        int index = -1;
        for (std::size_t i = 0; i < players_.size(); ++i)
            if (players_[i].joinOrder == s) index = static_cast<int>(i);
        if (s < static_cast<int>(seatNames_.size()) && !seatNames_[s].empty()) names[s] = seatNames_[s];
        else if (index >= 0) names[s] = players_[index].address;
        else names[s] = "Seat " + std::to_string(s + 1);
        const bool hider = s % 2 == 0;  // game-1 side by slot parity
        teams[s] = hider ? "hiders" : "seekers";
        aliases[s] = std::string(hider ? "HIDER-" : "SEEKER-") + kIdentityNames[(s / 2) % 3];
        kinds[s] = s < static_cast<int>(policyKinds_.size()) && !policyKinds_[s].empty() ? policyKinds_[s] : "scripted";
        (kinds[s] == "llm" || kinds[s] == "external" ? sawLlm : sawScripted) = true;
        if (s < kSeatsCap) {
            fallback[s] = fallbackTurns_[s];
            rejected[s] = ordersRejected_[s];
            llm[s] = llmTurns_[s];
            dead[s] = deadSeats_[s];
        }
        if (index >= 0) {
            const Player& p = players_[index];
            seen[s] = p.seatSeenTicks;
            sealed[s] = p.sealedTicks;
            grabs[s] = p.grabs;
            pushed[s] = p.pushedPx;
            locks[s] = p.locks;
            vaults[s] = p.vaults;
            shouts[s] = p.shouts;
        }
        int permille = 0;
        if (!gameMargins_.empty()) {
            int total = 0;
            for (std::size_t g = 0; g < gameMargins_.size(); ++g)
                total += ((s + static_cast<int>(g)) % 2 == 0 ? 1 : -1) * gameMargins_[g];
            permille = total / static_cast<int>(gameMargins_.size());
        }
        scores[s] = permille / 1000.0;
        win[s] = permille > 0;
    }
    std::string o = "{";
    o += "\"names\":" + strings(names);
    o += ",\"aliases\":" + strings(aliases);
    o += ",\"team\":" + strings(teams);
    o += ",\"scores\":" + list(scores, [](double d) { return nim_float_text(d); });
    o += ",\"win\":" + bools(win);
    o += ",\"reason\":" + quote(endReason_.empty() ? "complete" : endReason_);
    o += ",\"endRule\":" + quote(endRule_.empty() ? "full_time" : endRule_);
    o += ",\"games\":" + std::to_string(gameMargins_.size());
    o += ",\"gameMargins\":" + ints(gameMargins_);
    o += ",\"hiddenTicks\":" + ints(gameHidden_);
    o += ",\"seenTicks\":" + ints(gameSeen_);
    o += ",\"huntTicksPlayed\":" + ints(gameHuntPlayed_);
    o += ",\"seatSeenTicks\":" + ints(seen);
    o += ",\"sealedTicks\":" + ints(sealed);
    o += ",\"grabs\":" + ints(grabs);
    o += ",\"pushedPx\":" + ints(pushed);
    o += ",\"locks\":" + ints(locks);
    o += ",\"vaults\":" + ints(vaults);
    o += ",\"shouts\":" + ints(shouts);
    o += ",\"room\":" + quote(room_.name);
    o += ",\"policyKinds\":" + strings(kinds);
    o += std::string(",\"crossPlay\":") + (sawLlm && sawScripted ? "true" : "false");
    o += ",\"llmTurns\":" + ints(llm);
    o += ",\"fallbackTurns\":" + ints(fallback);
    o += ",\"ordersRejected\":" + ints(rejected);
    o += ",\"deadSeats\":" + bools(dead);
    o += ",\"finalTick\":" + std::to_string(tickCount_);
    o += ",\"seed\":" + std::to_string(config_.seed);
    o += ",\"stopDetail\":" + quote(stopDetail_);
    return o + "}";
}

}  // namespace hschool::sim::hns
