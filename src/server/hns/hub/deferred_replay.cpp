#include "server/hns/hub/deferred_replay.hpp"

#include <string>

#include "server/hns/contract/limits.hpp"

namespace hschool::server::hns {

void DeferredReplay::on_open(std::shared_ptr<net::WsConnection> connection) {
    {
        std::lock_guard lock(mutex_);
        connection_ = connection;
    }
    if (!submit_([self = weak_from_this()] {
            if (auto alive = self.lock()) alive->load();
        }))
        connection->close(net::close_code::kTryAgainLater, "the server is busy; try again shortly");
}

void DeferredReplay::on_message(protocol::ByteView message, bool text) {
    std::shared_ptr<net::WsHandler> viewer;
    {
        std::lock_guard lock(mutex_);
        viewer = viewer_;
        if (!viewer) {
            if (early_.size() >= kMaxQueuedReplayKeys) {
                if (connection_) connection_->close(net::close_code::kPolicyViolation, "too many replay keys");
                return;
            }
            early_.push_back({protocol::Bytes(message.begin(), message.end()), text});
            return;
        }
    }
    viewer->on_message(message, text);
}

void DeferredReplay::on_closed() {
    std::shared_ptr<net::WsHandler> viewer;
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        viewer = std::move(viewer_);
    }
    if (viewer) viewer->on_closed();
    slot_.release();
}

void DeferredReplay::load() {
    auto opened = open_();  // the file and the stepper, on the worker
    std::lock_guard lock(mutex_);
    if (closed_ || !connection_) return;
    if (auto* refused = std::get_if<Rejection>(&opened)) {
        std::string reason = refused->body;
        if (!reason.empty() && reason.back() == '\n') reason.pop_back();
        connection_->close(net::close_code::kInternalError, reason.c_str());
        return;
    }
    viewer_ = std::get<std::shared_ptr<net::WsHandler>>(std::move(opened));
    viewer_->on_open(connection_);  // under the lock: a close that comes now reaches the viewer after it opened
    for (const auto& [bytes, text] : early_) viewer_->on_message(protocol::ByteView(bytes.data(), bytes.size()), text);
    early_.clear();
}

}  // namespace hschool::server::hns
