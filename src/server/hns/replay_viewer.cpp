#include "server/hns/replay_viewer.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "protocol/sprite_v1.hpp"
#include "render/hns/chrome.hpp"
#include "render/hns/stream.hpp"
#include "server/hns/limits.hpp"
#include "server/hns/pacing.hpp"
#include "sim/hns/verify.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;
namespace sv = protocol::sprite_v1;
using SteadyClock = std::chrono::steady_clock;

namespace {

class ReplayViewer final : public PeerSink, public std::enable_shared_from_this<ReplayViewer> {
public:
    ReplayViewer(sh::ReplayData data, HnsMetrics& metrics, std::shared_ptr<std::atomic<int>> viewers)
        : data_(std::move(data)), metrics_(metrics), viewers_(std::move(viewers)) {
        viewers_->fetch_add(1);
    }
    ~ReplayViewer() override {
        stop();
        viewers_->fetch_sub(1);
    }

    bool ready(std::string& error) {
        auto stepper = sh::ReplayStepper::create(data_);
        if (!stepper) {
            error = stepper.error;
            return false;
        }
        stepper_.emplace(std::move(*stepper));
        return true;
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
            halt_ = true;
            thread.swap(thread_);
        }
        wake_.notify_all();
        if (thread.joinable()) {
            if (thread.get_id() == std::this_thread::get_id()) thread.detach();
            else thread.join();
        }
    }

    // Steps to `target` without drawing; a target behind the sim starts over from the file.
    void seek(int target) {
        if (target < stepper_->sim().tick_count()) {
            auto fresh = sh::ReplayStepper::create(data_);
            if (!fresh) return;
            stepper_.emplace(std::move(*fresh));
            stream_ = render::hns::Stream{};  // the header (0x04) clears the viewer's board
            stream_.set_sprites_off(sprites_off_);
        }
        while (stepper_->sim().tick_count() < target && !halt_.load() && advance()) {
        }
    }

    // One tick; false at the end or on a record the sim cannot apply.
    bool advance() {
        const auto status = stepper_->step();
        if (status == sh::ReplayStepper::Status::Mismatch && !mismatch_) {
            mismatch_ = render::hns::ChromeMismatch{stepper_->sim().tick_count(), stepper_->expected_hash(), stepper_->got_hash()};
        }
        return status == sh::ReplayStepper::Status::Stepped || status == sh::ReplayStepper::Status::Mismatch;
    }

    void run() {
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
            next += std::chrono::microseconds(kFrameMicros);
            const int final_tick = stepper_->final_tick();
            for (const auto& k : keys) apply_transport_text(transport, k, stepper_->sim().tick_count(), final_tick);
            keys.clear();
            if (transport.seek_to >= 0) {
                seek(transport.seek_to);
                transport.seek_to = -1;
            } else if (transport.playing) {
                const int speed = ticks_per_frame(transport.speed_index);
                for (int i = 0; i < speed && advance(); ++i) {
                }
                if (stepper_->done()) {
                    if (transport.loop) seek(0);
                    else transport.playing = false;
                }
            }
            render::hns::ChromeExtras extras;
            extras.paused = !transport.playing;
            extras.speed = ticks_per_frame(transport.speed_index);
            extras.end = final_tick;
            extras.mismatch = mismatch_;
            render::hns::Scene scene = render::hns::global_scene(stepper_->sim());
            scene.items.push_back(render::hns::chrome_item(render::hns::chrome_label(stepper_->sim(), extras)));
            const auto frame = stream_.next(scene);
            std::size_t bytes = 0;
            for (const auto& message : frame.ws_messages()) {
                bytes += message.size();
                if (!peer->send(message, false)) return;
            }
            metrics_.frame_bytes("replay", bytes);
        }
    }

    sh::ReplayData data_;
    HnsMetrics& metrics_;
    std::shared_ptr<std::atomic<int>> viewers_;
    std::optional<sh::ReplayStepper> stepper_;  // the viewer thread only
    render::hns::Stream stream_;
    std::optional<render::hns::ChromeMismatch> mismatch_;

    std::mutex mutex_;  // guards what the network thread touches
    std::condition_variable wake_;
    std::shared_ptr<Peer> peer_;
    std::vector<std::string> keys_;
    bool sprites_off_ = false;
    bool stopping_ = false;
    std::atomic<bool> halt_{false};  // a long seek stops early when the socket goes
    std::thread thread_;
};

}  // namespace

std::variant<Rejection, std::shared_ptr<PeerSink>> open_replay_viewer(std::string replay_bytes, HnsMetrics& metrics,
                                                                      std::shared_ptr<std::atomic<int>> viewers) {
    auto parsed = sh::parse_replay(replay_bytes);
    if (!parsed) return Rejection{422, "replay is unreadable: " + parsed.error + "\n"};
    auto viewer = std::make_shared<ReplayViewer>(std::move(*parsed), metrics, std::move(viewers));
    std::string error;
    if (!viewer->ready(error)) return Rejection{422, "replay cannot be re-stepped: " + error + "\n"};
    return std::shared_ptr<PeerSink>(std::move(viewer));
}

}  // namespace hschool::server::hns
