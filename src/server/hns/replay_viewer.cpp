#include "server/hns/replay_viewer.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include "protocol/sprite_v1.hpp"
#include "render/hns/chrome.hpp"
#include "render/hns/stream.hpp"
#include "server/hns/limits.hpp"
#include "server/hns/pacing.hpp"
#include "server/hns/spectator_feed.hpp"
#include "server/hns/replay_library.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;
namespace sv = protocol::sprite_v1;
using SteadyClock = std::chrono::steady_clock;

namespace {

class ReplayViewer final : public PeerSink, public std::enable_shared_from_this<ReplayViewer> {
public:
    ReplayViewer(std::shared_ptr<const WatchedReplay> replay, HnsMetrics& metrics, std::shared_ptr<std::atomic<int>> viewers)
        : replay_(std::move(replay)), metrics_(metrics), viewers_(std::move(viewers)), seeker_(replay_->keyframes) {
        viewers_->fetch_add(1);
    }
    ~ReplayViewer() override {
        stop();
        viewers_->fetch_sub(1);
    }

    void attach(std::shared_ptr<Peer> peer) override {
        std::lock_guard lock(mutex_);
        peer_ = std::move(peer);
        // The thread holds a weak reference: the socket's end (on_closed) stops it.
        thread_ = std::thread([self = weak_from_this(), this] {
            if (auto alive = self.lock()) run();
        });
    }

    void on_message(protocol::ByteView message, bool text) override {
        if (text) return close(kCloseBadPayload, "Sprite v1 is binary: text frames are not accepted");
        if (sv::is_standalone_sprites_off(message)) {
            std::lock_guard lock(mutex_);
            sprites_off_ = true;
            return;
        }
        auto decoded = sv::decode_client(message);
        if (!decoded) return close(kCloseBadPayload, sv::describe(decoded.error()));
        std::lock_guard lock(mutex_);
        for (auto& m : *decoded) {
            if (auto* t = std::get_if<sv::InputText>(&m)) {
                if (t->text.size() > kMaxInputTextBytes) {
                    if (peer_) peer_->close(kCloseTooBig, "text input over 4096 bytes");
                    return;
                }
                // The thread takes every key each frame: this many waiting is a flood, not a person.
                if (keys_.size() >= kMaxQueuedReplayKeys) {
                    if (peer_) peer_->close(kClosePolicy, "too many replay keys");
                    return;
                }
                keys_.push_back(sv::printable_text(t->text));
            }
        }
    }

    void on_closed() override { stop(); }

private:
    void close(std::uint16_t code, const char* reason) {
        std::lock_guard lock(mutex_);
        if (peer_) peer_->close(code, reason);
    }

    void stop() {
        std::thread thread;
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            thread.swap(thread_);
        }
        wake_.notify_all();
        if (thread.joinable()) {
            if (thread.get_id() == std::this_thread::get_id()) thread.detach();
            else thread.join();
        }
    }

    // One tick; false at the end or on a record the sim cannot apply.
    bool advance() { return note(seeker_.step()); }

    bool note(sh::ReplayStepper::Status status) {
        if (status == sh::ReplayStepper::Status::Mismatch && !mismatch_) {
            const auto& stepper = seeker_.stepper();
            mismatch_ = render::hns::ChromeMismatch{stepper.sim().tick_count(), stepper.expected_hash(), stepper.got_hash()};
        }
        return status == sh::ReplayStepper::Status::Stepped || status == sh::ReplayStepper::Status::Mismatch;
    }

    // At most kMaxReplaySeekTicksPerFrame steps from the nearest keyframe; true once there.
    bool seek_some(int target) {
        return seeker_.seek(target, kMaxReplaySeekTicksPerFrame, [this](sh::ReplayStepper::Status s) { note(s); });
    }

    // This frame's messages, unless the viewer is behind: then its backlog is dropped and it waits,
    // unencoded, until its socket drains, and gets a keyframe (header and full board) then.
    // False when the socket is going.
    bool send_frame(Peer& peer, const Transport& transport) {
        if (behind_) {
            if (peer.shared_backlog() > 0) return true;
            behind_ = false;
            const bool off = stream_.sprites_off();
            stream_ = render::hns::Stream{};
            stream_.set_sprites_off(off);
        }
        render::hns::ChromeExtras extras;
        extras.paused = !transport.playing;
        extras.speed = ticks_per_frame(transport.speed_index);
        extras.end = seeker_.final_tick();
        extras.mismatch = mismatch_;
        render::hns::Scene scene = render::hns::global_scene(seeker_.sim());
        scene.items.push_back(render::hns::chrome_item(render::hns::chrome_label(seeker_.sim(), extras)));
        const auto messages = shared_messages(stream_.next(scene));
        std::size_t bytes = 0;
        for (const auto& m : messages) bytes += m->payload().size();
        const std::size_t backlog = peer.shared_backlog();
        if (backlog > 0 && backlog + bytes > kReplayBacklogBytes) {
            peer.drop_shared_backlog();
            behind_ = true;
            metrics_.viewer_resyncs("replay", 1);
            return true;
        }
        for (const auto& m : messages)
            if (!peer.send_shared(m)) return false;
        metrics_.frame_bytes("replay", bytes);
        return true;
    }

    void run() {
        // A replay is a luxury beside live matches: under load its thread waits, not theirs.
        ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kReplayViewerNice);
        const auto frame = std::chrono::microseconds(kFrameMicros);
        auto next = SteadyClock::now();
        Transport transport;
        std::vector<std::string> keys;
        for (;;) {
            std::shared_ptr<Peer> peer;
            {
                std::unique_lock lock(mutex_);
                wake_.wait_until(lock, next, [&] { return stopping_; });
                if (stopping_) return;
                keys.swap(keys_);
                peer = peer_;
                if (sprites_off_ && !stream_.sprites_off()) stream_.set_sprites_off(true);
            }
            const int final_tick = seeker_.final_tick();
            for (const auto& k : keys) apply_transport_text(transport, k, seeker_.sim().tick_count(), final_tick);
            keys.clear();
            bool draw = true;
            if (transport.seek_to >= 0) {
                // A long seek takes several frames (nothing is drawn meanwhile); the keys that come
                // in between move its target.
                if (seek_some(transport.seek_to)) transport.seek_to = -1;
                else draw = false;
            } else if (transport.playing) {
                const int speed = ticks_per_frame(transport.speed_index);
                for (int i = 0; i < speed && advance(); ++i) {
                }
                if (seeker_.done()) {
                    if (transport.loop) transport.seek_to = 0;
                    else transport.playing = false;
                }
            }
            if (draw && !send_frame(*peer, transport)) return;
            // Behind the clock (a slow machine, a long frame): wait a whole frame from now, never
            // run frames back to back to catch up.
            const auto now = SteadyClock::now();
            next += frame;
            if (next < now) next = now + frame;
        }
    }

    std::shared_ptr<const WatchedReplay> replay_;  // the file and keyframes, shared with its other viewers
    HnsMetrics& metrics_;
    std::shared_ptr<std::atomic<int>> viewers_;
    sh::ReplaySeeker seeker_;  // this viewer's cursor: the viewer thread only
    render::hns::Stream stream_;
    bool behind_ = false;  // backlog dropped: a keyframe once the socket drains
    std::optional<render::hns::ChromeMismatch> mismatch_;

    std::mutex mutex_;  // guards what the network thread touches
    std::condition_variable wake_;
    std::shared_ptr<Peer> peer_;
    std::vector<std::string> keys_;
    bool sprites_off_ = false;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace

std::variant<Rejection, std::shared_ptr<PeerSink>> open_replay_viewer(std::string replay_bytes, HnsMetrics& metrics,
                                                                      std::shared_ptr<std::atomic<int>> viewers) {
    std::string error;
    auto replay = watch_replay(std::move(replay_bytes), error);
    if (!replay) return Rejection{422, error + "\n"};
    return std::shared_ptr<PeerSink>(std::make_shared<ReplayViewer>(std::move(replay), metrics, std::move(viewers)));
}

}  // namespace hschool::server::hns
