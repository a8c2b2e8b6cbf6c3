#include "server/hns/hub/hub.hpp"

namespace hschool::server::hns {

HnsHub::HnsHub(HubOptions options, store::HnsArchive* archive, HnsMetrics& metrics)
    : options_(std::move(options)),
      registry_(archive),
      archive_(archive),
      worker_(metrics),
      supervisor_(options_, registry_, archive_, [this] { maker_.renew_default(); }),
      maker_(options_, registry_, worker_, supervisor_, metrics, launcher_),
      catalog_(registry_, archive_, worker_),
      controls_(options_, registry_, archive_, supervisor_),
      admission_(options_, registry_, archive, worker_, metrics, launcher_) {}

HnsHub::~HnsHub() { stop(); }

Expected<Done> HnsHub::start() {
    if (auto ids = registry_.continue_ids(); !ids) return ids;
    if (auto started = maker_.start_default(); !started) return started;
    supervisor_.start();
    worker_.start();
    return Expected<Done>::ok({});
}

void HnsHub::stop() {
    if (stopped_) return;
    stopped_ = true;
    auto matches = registry_.close();  // no match is added from now on
    supervisor_.stop();                // and the ones deleted meanwhile are stopped
    worker_.stop();                    // what is still queued answers 503 first
    for (auto& match : matches) match->stop();
    // Replay viewers end with their sockets, which the network finishes when it stops.
}

}  // namespace hschool::server::hns
