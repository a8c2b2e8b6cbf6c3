#include "server/hns/streams/replay_viewer.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "protocol/sprite_v1.hpp"
#include "render/hns/chrome.hpp"
#include "render/hns/compact_stream.hpp"
#include "render/hns/stream.hpp"
#include "net/task_pool.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/pacing.hpp"
#include "server/hns/streams/spectator_feed.hpp"
#include "server/hns/streams/replay_library.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;
namespace sv = protocol::sprite_v1;
using SteadyClock = std::chrono::steady_clock;

namespace {

class ReplayViewer final : public net::WsHandler, public net::PoolTask, public std::enable_shared_from_this<ReplayViewer> {
public:
    ReplayViewer(std::shared_ptr<const WatchedReplay> replay, HnsMetrics& metrics, std::shared_ptr<std::atomic<int>> viewers,
                 net::TaskPool& pool, bool compact)
        : replay_(std::move(replay)), metrics_(metrics), viewers_(std::move(viewers)), pool_(pool), seeker_(replay_->keyframes),
          compact_(compact) {
        viewers_->fetch_add(1);
    }
    ~ReplayViewer() override { viewers_->fetch_sub(1); }

    void on_open(std::shared_ptr<net::WsConnection> peer) override {
        {
            std::lock_guard lock(mutex_);
            peer_ = std::move(peer);
        }
        // The pool holds the viewer until a pass finds its socket gone (on_closed wakes it for that).
        pool_.add(shared_from_this());
    }

    void on_message(protocol::ByteView message, bool text) override {
        if (text) return close(net::close_code::kInvalidPayload, "Sprite v1 is binary: text frames are not accepted");
        if (sv::is_standalone_sprites_off(message)) {
            std::lock_guard lock(mutex_);
            sprites_off_ = true;
            return;
        }
        auto decoded = sv::decode_client(message);
        if (!decoded) return close(net::close_code::kInvalidPayload, sv::describe(decoded.error()));
        std::lock_guard lock(mutex_);
        for (auto& m : *decoded) {
            if (auto* t = std::get_if<sv::InputText>(&m)) {
                if (t->text.size() > kMaxInputTextBytes) {
                    if (peer_) peer_->close(net::close_code::kMessageTooBig, "text input over 4096 bytes");
                    return;
                }
                // The thread takes every key each frame: this many waiting is a flood, not a person.
                if (keys_.size() >= kMaxQueuedReplayKeys) {
                    if (peer_) peer_->close(net::close_code::kPolicyViolation, "too many replay keys");
                    return;
                }
                keys_.push_back(sv::printable_text(t->text));
            }
        }
    }

    void on_closed() override {
        stop();
        pool_.wake(*this);  // its next pass ends it now, not a frame from now
    }

private:
    void close(std::uint16_t code, const char* reason) {
        std::lock_guard lock(mutex_);
        if (peer_) peer_->close(code, reason);
    }

    void stop() {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        peer_.reset();
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
        const bool there = seeker_.seek(target, kMaxReplaySeekTicksPerFrame, [this](sh::ReplayStepper::Status s) {
            ++seek_steps_;
            note(s);
        });
        if (there) metrics_.replay_seek(std::exchange(seek_steps_, 0));
        return there;
    }

    // This frame's messages, unless the viewer is behind: then its backlog is dropped and it waits,
    // unencoded, until its socket drains and its reader catches up, and gets a keyframe (header and
    // full board) then. False when the socket is going.
    bool send_frame(net::WsConnection& peer, const Transport& transport) {
        bool resync = false;
        if (behind_) {
            if (!ready_for_keyframe(peer)) return true;
            behind_ = false;
            resync = true;
            stream_.restart();
        }
        render::hns::ChromeExtras extras;
        extras.paused = !transport.playing;
        extras.speed = ticks_per_frame(transport.speed_index);
        extras.end = seeker_.final_tick();
        extras.mismatch = mismatch_;
        render::hns::Scene scene = render::hns::global_scene(seeker_.sim());
        scene.items.push_back(render::hns::chrome_item(render::hns::chrome_label(seeker_.sim(), extras)));
        const auto tick = static_cast<std::uint32_t>(seeker_.sim().tick_count());
        // The compact stream has no header to restart from: a resync is its keyframe with the flag set.
        const auto messages = !compact_ ? shared_messages(stream_.next(scene))
                              : resync  ? shared_messages(render::hns::with_resync(compact_stream_.keyframe(scene, tick)))
                                        : shared_messages(compact_stream_.next(scene, tick));
        if (!queue_or_drop(peer, messages, compact_ ? kCompactBacklogBytes : kReplayBacklogBytes)) {
            behind_ = true;
            metrics_.viewer_resyncs(compact_ ? "replay_compact" : "replay", 1);
            return true;
        }
        metrics_.frame_bytes(compact_ ? "replay_compact" : "replay", bytes_of(messages));
        return true;
    }

    // One frame, on a pool thread: the keys since the last one, a step, a seek or nothing, the frame
    // itself. The next is due a whole frame later; behind the clock (a slow machine, a long frame),
    // a whole frame from now: frames never run back to back to catch up.
    std::optional<Clock::time_point> run_pass() override {
        std::shared_ptr<net::WsConnection> peer;
        {
            std::lock_guard lock(mutex_);
            if (stopping_ || !peer_) return std::nullopt;
            keys_taken_.swap(keys_);
            peer = peer_;
            if (sprites_off_ && !stream_.sprites_off()) stream_.set_sprites_off(true);
        }
        const int final_tick = seeker_.final_tick();
        for (const auto& k : keys_taken_) apply_transport_text(transport_, k, seeker_.sim().tick_count(), final_tick);
        keys_taken_.clear();
        bool draw = true;
        if (transport_.seek_to >= 0) {
            // A long seek takes several frames (nothing is drawn meanwhile); the keys that come
            // in between move its target.
            if (seek_some(transport_.seek_to)) transport_.seek_to = -1;
            else draw = false;
        } else if (transport_.playing) {
            const int speed = ticks_per_frame(transport_.speed_index);
            for (int i = 0; i < speed && advance(); ++i) {
            }
            if (seeker_.done()) {
                if (transport_.loop) transport_.seek_to = 0;
                else transport_.playing = false;
            }
        }
        if (draw && !send_frame(*peer, transport_)) return std::nullopt;
        const auto frame = std::chrono::microseconds(kFrameMicros);
        const auto now = SteadyClock::now();
        next_ = next_ == SteadyClock::time_point{} ? now + frame : next_ + frame;
        if (next_ < now) next_ = now + frame;
        return next_;
    }

    std::shared_ptr<const WatchedReplay> replay_;  // the file and keyframes, shared with its other viewers
    HnsMetrics& metrics_;
    std::shared_ptr<std::atomic<int>> viewers_;
    net::TaskPool& pool_;
    // The pool thread drawing this viewer's frame only (one at a time):
    sh::ReplaySeeker seeker_;  // this viewer's cursor
    Transport transport_;
    std::vector<std::string> keys_taken_;
    SteadyClock::time_point next_{};  // when the next frame is due
    render::hns::Stream stream_;
    const bool compact_;                       // our browser's compact stream instead of Sprite v1
    render::hns::CompactStream compact_stream_;  // the compact viewer's encoder (its own: its own cursor)
    bool behind_ = false;  // backlog dropped: a keyframe once the socket drains
    std::size_t seek_steps_ = 0;  // ticks stepped so far by the seek under way (over several frames)
    std::optional<render::hns::ChromeMismatch> mismatch_;

    std::mutex mutex_;  // guards what the network thread touches
    std::shared_ptr<net::WsConnection> peer_;
    std::vector<std::string> keys_;
    bool sprites_off_ = false;
    bool stopping_ = false;
};

}  // namespace

std::variant<Rejection, std::shared_ptr<net::WsHandler>> open_replay_viewer(std::string replay_bytes, HnsMetrics& metrics,
                                                                      std::shared_ptr<std::atomic<int>> viewers, net::TaskPool& pool,
                                                                      bool compact) {
    auto replay = watch_replay(std::move(replay_bytes));
    if (!replay) return Rejection{422, replay.error + "\n"};
    return std::shared_ptr<net::WsHandler>(std::make_shared<ReplayViewer>(std::move(*replay), metrics, std::move(viewers), pool, compact));
}

}  // namespace hschool::server::hns
