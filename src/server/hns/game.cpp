#include "server/hns/game.hpp"

#include "server/hns/dropin_mode.hpp"
#include "server/hns/hub/hub.hpp"
#include "server/hns/leagues/league_hub.hpp"
#include "server/hns/llm/llm_settings.hpp"
#include "server/hns/web/client_pages.hpp"
#include "server/hns/web/league_routes.hpp"
#include "server/hns/web/match_routes.hpp"
#include "server/hns/web/sockets.hpp"
#include "store/hns_archive.hpp"
#include "store/pg/pg_connection.hpp"
#include "util/log.hpp"

namespace hschool::server::hns {

namespace {

inline constexpr const char* kReplayFolderName = "hns-replays";  // beside the schools' file
inline constexpr const char* kArchiveFileName = "archive.db";    // in hns-replays/, beside the replay files

// Where finished matches go: every server's in one PostgreSQL, numbered by one sequence (issue
// 34), or a file of this server's own, so saving a replay never makes a school's write wait.
Expected<std::unique_ptr<store::HnsArchive>> open_archive(const GameOptions& options) {
    using R = Expected<std::unique_ptr<store::HnsArchive>>;
    if (!options.database_url.empty()) {
        auto opened = store::HnsArchive::open_postgres(options.database_url);
        if (!opened)
            return R::fail("cannot open the match archive in " + store::pg::redacted_url(options.database_url) + ": " + opened.error().message);
        return R::ok(std::move(*opened));
    }
    const auto folder = options.data_path.parent_path() / kReplayFolderName;
    // Archives kept in the schools' file before move over once.
    auto opened = store::HnsArchive::open(folder / kArchiveFileName, folder, options.data_path);
    if (!opened) return R::fail("cannot open the match archive: " + opened.error().message);
    if ((*opened)->imported()) logging::info("event=hns_archive_imported rows={} from=\"{}\"", (*opened)->imported(), options.data_path.string());
    return R::ok(std::move(*opened));
}

}  // namespace

Expected<std::unique_ptr<HnsGame>> HnsGame::open(GameOptions options, HnsMetrics& metrics) {
    using R = Expected<std::unique_ptr<HnsGame>>;
    HubOptions& hub = options.hub;
    LeagueOptions& leagues = options.leagues;
    std::unique_ptr<store::HnsArchive> archive;
    if (options.dropin.replay) {
        // Replay-server mode: verified before anything listens; a bad replay is a failed start.
        auto replay = load_verified_replay(options.dropin.load_replay);
        if (!replay) return R::fail(replay.error);
        hub.replay_bytes = std::move(*replay);
        hub.replay_uri = options.dropin.load_replay_uri;
        hub.default_match = false;
        hub.renew_default = false;
        hub.league_only = true;
        leagues.disabled = HubError{409, "replay-mode", "this server plays back one replay (replay mode); no league can be started"};
    } else if (options.dropin.active) {
        // Drop-in mode: the league's one match, with the runner's config; nothing is archived here.
        auto config = dropin_config(options.dropin);
        if (!config) return R::fail(config.error);
        hub.default_config = std::move(*config);
        hub.renew_default = false;
        hub.max_matches = 1;
        hub.league_only = true;
        leagues.disabled = HubError{409, "league-match-only", "this server runs the league's match only (drop-in mode); no league can be started"};
    } else {
        auto opened = open_archive(options);
        if (!opened) return R::fail(opened.error);
        archive = std::move(*opened);
    }
    if (options.ownership.owners) hub.access = options.ownership.check;  // unset: everyone may (open mode)
    leagues.access = hub.access;
    // Prompt seats' model (issue 21): read once; the log and /health name the transport, never a key.
    const LlmSettings& llm = process_llm_settings();
    if (!llm.warning.empty()) logging::warn("event=hns_llm_credentials problem=\"{}\"", llm.warning);
    logging::info("event=hns_llm transport={} detail=\"{}\"", llm_transport_text(llm.transport), describe_llm(llm, ""));
    leagues.llm = llm;
    // A prompt seat's turn waits seconds for the model on its match's thread: no pool then.
    if (llm.transport != LlmTransport::None) hub.match_threads = 0;
    return R::ok(std::unique_ptr<HnsGame>(new HnsGame(std::move(options), std::move(archive), metrics)));
}

HnsGame::HnsGame(GameOptions options, std::unique_ptr<store::HnsArchive> archive, HnsMetrics& metrics)
    : options_(std::move(options)),
      archive_(std::move(archive)),
      hub_(std::make_unique<HnsHub>(options_.hub, archive_.get(), metrics)),
      // Leagues' matches are archived beside the others, under the hub's ids (issue 33).
      leagues_(std::make_unique<LeagueHub>(options_.leagues, archive_.get(), [hub = hub_.get()] { return hub->new_match_id(); }, metrics)) {
    if (options_.dropin.active) arm_dropin(*hub_, options_.dropin);
}

HnsGame::~HnsGame() { stop(); }

void HnsGame::add_routes(net::HttpRouter& router, const net::HttpHandler& files) {
    add_match_routes(router, *hub_, MatchRouteOptions{options_.ownership.owners, options_.allowed_origins, options_.dropin.active || options_.dropin.replay});
    add_league_routes(router, *leagues_, options_.ownership.owners);
    add_client_pages(router, hub_->admission(), files);  // before the catch-all: the runner probes them
}

void HnsGame::add_sockets(net::WsEndpoints& endpoints) { hns::add_sockets(endpoints, hub_->admission()); }

Expected<Done> HnsGame::start() {
    if (auto started = hub_->start(); !started) return started;
    leagues_->start();  // after the hub: its ids continue from the archive's
    return Expected<Done>::ok({});
}

void HnsGame::stop() {
    leagues_->stop();  // a league match being played finishes (well under a second) and is not archived
    hub_->stop();      // matches end (their sockets are already closing); nothing is archived mid-match
}

const char* HnsGame::model_transport() const { return llm_transport_text(process_llm_settings().transport); }

}  // namespace hschool::server::hns
