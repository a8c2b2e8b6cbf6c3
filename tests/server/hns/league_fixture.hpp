#pragma once
// What the league tests share: a scratch folder, counting metrics, a request builder and a fixture
// that holds a real archive. Without start() no league thread runs, so a league stays "running".
#include <gtest/gtest.h>

#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include <boost/json.hpp>

#include "../../support/wait.hpp"
#include "server/hns/leagues/league_hub.hpp"
#include "silent_metrics.hpp"
#include "store/hns_archive.hpp"

namespace hschool::server::hns::league_test {

namespace json = boost::json;

class LeagueScratch {
public:
    LeagueScratch() {
        std::string pattern = (std::filesystem::temp_directory_path() / "hschool-league-XXXXXX").string();
        path_ = ::mkdtemp(pattern.data());
    }
    ~LeagueScratch() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

class LeagueCountingMetrics final : public SilentHnsMetrics {
public:
    void refused(const char* reason) override { last_refusal = reason; }
    void leagues_running(int delta) override { running += delta; }
    void league_match_played() override { ++played; }
    std::atomic<int> running{0}, played{0};
    std::string last_refusal;
};

// A prompt entrant's kind is "prompt"; its text is "guidance for <name>" unless `prompts` names one.
inline LeagueRequest league_of(std::vector<std::pair<std::string, std::string>> entrants, int matches,
                               std::string variant = "certification", std::map<std::string, std::string> prompts = {}) {
    LeagueRequest r;
    for (auto& [name, kind] : entrants) {
        league::Entrant e{name, {}};
        if (kind == "prompt") {
            e.kind = league::EntrantKind{league::KindFamily::Prompt, kInlinePromptArg};
            r.prompts[name] = prompts.count(name) ? prompts[name] : "guidance for " + name;
        } else {
            e.kind = *league::parse_kind(kind);
        }
        r.entrants.push_back(std::move(e));
    }
    r.matches = matches;
    r.variant = std::move(variant);
    r.seed = 7;
    return r;
}

class Leagues : public ::testing::Test {
protected:
    void SetUp() override {
        auto opened = store::HnsArchive::open(scratch.path() / "archive.db", scratch.path());
        ASSERT_TRUE(opened.has_value());
        archive = std::move(opened).value();
    }
    // The suite runs beside other tests and the fuzzers: a SCHED_IDLE league thread would wait for
    // all of them (minutes under the sanitizers). The tests of the priority itself keep the default.
    std::unique_ptr<LeagueHub> hub(LeagueOptions options = {}) {
        if (!keep_idle_scheduling) options.idle_scheduling = false;
        return std::make_unique<LeagueHub>(std::move(options), archive.get(), [this] { return "m" + std::to_string(++ids); }, metrics);
    }
    LeagueSummary created(LeagueHub& h, LeagueRequest request, const std::string& address = "10.0.0.1", std::string owner = "") {
        auto made = h.create(std::move(request), std::move(owner), address);
        if (auto* e = std::get_if<HubError>(&made)) ADD_FAILURE() << e->status << " " << e->detail;
        return std::holds_alternative<LeagueSummary>(made) ? std::get<LeagueSummary>(made) : LeagueSummary{};
    }
    // A league of six certification matches: the suite's wait for each match and one for its table
    // (0.6 s in all beside two busy loops at nice 10; the loop ends as soon as the league does).
    static constexpr auto kLeagueEndWait = std::chrono::duration_cast<std::chrono::seconds>(7 * hschool::test::kWait);
    LeagueSummary until_ended(LeagueHub& h, const std::string& id, std::chrono::seconds wait = kLeagueEndWait) {
        for (const auto until = std::chrono::steady_clock::now() + wait; std::chrono::steady_clock::now() < until;) {
            auto s = h.get(id);
            if (s && s->state != "running" && s->table && json::parse(*s->table).as_object().at("played").as_int64() == s->played)
                return *s;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        ADD_FAILURE() << id << " did not end";
        return {};
    }

    bool keep_idle_scheduling = false;
    LeagueScratch scratch;
    std::unique_ptr<store::HnsArchive> archive;
    LeagueCountingMetrics metrics;
    std::atomic<int> ids{0};
};

}  // namespace hschool::server::hns::league_test
