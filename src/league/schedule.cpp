#include "league/schedule.hpp"

#include "sim/hns/rng.hpp"

namespace hschool::league {
namespace {

constexpr int kSeedShift = 33;  // keeps the top 31 bits
constexpr std::size_t kMinIdDigits = 4;

std::string padded(int number, std::size_t width) {
    std::string s = std::to_string(number);
    return s.size() < width ? std::string(width - s.size(), '0') + s : s;
}

}  // namespace

Result<Schedule> make_schedule(const std::vector<Entrant>& entrants, long long matchesPerPairing, std::int64_t leagueSeed) {
    const auto fail = [](std::string m) { return Result<Schedule>(hschool::unexpected(std::move(m))); };
    if (auto roster = check_roster(entrants); !roster) return fail(roster.error());
    if (matchesPerPairing < 1 || matchesPerPairing > kMaxMatchesPerPairing)
        return fail("--matches must be 1 to " + std::to_string(kMaxMatchesPerPairing) + " per pairing (given " +
                    std::to_string(matchesPerPairing) + ")");
    Schedule out;
    out.matchesPerPairing = static_cast<int>(matchesPerPairing);
    const int n = static_cast<int>(entrants.size());
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) out.pairings.push_back({a, b});
    const long long planned = static_cast<long long>(out.pairings.size()) * matchesPerPairing;
    if (planned > kMaxPlannedMatches)
        return fail(std::to_string(out.pairings.size()) + " pairings x " + std::to_string(matchesPerPairing) + " = " +
                    std::to_string(planned) + " matches, over the limit of " + std::to_string(kMaxPlannedMatches));
    const std::size_t width = std::max(kMinIdDigits, std::to_string(planned).size());
    std::uint64_t seeds = static_cast<std::uint64_t>(leagueSeed);
    for (int round = 0; round < out.matchesPerPairing; ++round) {
        for (int p = 0; p < static_cast<int>(out.pairings.size()); ++p) {
            ScheduledMatch m;
            m.index = static_cast<int>(out.matches.size());
            m.id = padded(m.index + 1, width);
            m.pairing = p;
            m.round = round;
            m.seed = static_cast<std::int64_t>(sim::hns::splitmix64(seeds) >> kSeedShift);
            m.aOnFirstTrio = round % 2 == 0;
            const std::string& first = entrants[m.aOnFirstTrio ? out.pairings[p].a : out.pairings[p].b].name;
            const std::string& second = entrants[m.aOnFirstTrio ? out.pairings[p].b : out.pairings[p].a].name;
            for (int s = 0; s < kSeats; ++s) m.seats[s] = s % 2 == 0 ? first : second;
            out.matches.push_back(std::move(m));
        }
    }
    return out;
}

}  // namespace hschool::league
