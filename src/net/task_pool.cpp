#include "net/task_pool.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace hschool::net {

using Clock = PoolTask::Clock;

namespace {

// Due times are rounded up to this grain, so tasks due within it run in one wake of a worker
// instead of one wake each; a frame goes at most this late, and the 24 Hz grid keeps its phase.
constexpr auto kDueGrain = std::chrono::milliseconds(2);

Clock::time_point on_grain(Clock::time_point due) {
    const auto since = due.time_since_epoch();
    const auto grains = (since + kDueGrain - Clock::duration(1)) / kDueGrain;
    return Clock::time_point(std::chrono::duration_cast<Clock::duration>(grains * kDueGrain));
}

}  // namespace

TaskPool::TaskPool(std::size_t threads, int nice, std::string name, ThreadLauncher& launcher) : nice_(nice), name_(std::move(name)) {
    for (std::size_t i = 0; i < std::max<std::size_t>(1, threads); ++i)
        workers_.push_back(launcher.launch([this, i] {
            take_thread_role((name_ + "-" + std::to_string(i)).c_str(), nice_);
            work();
        }));
}

std::size_t TaskPool::one_per_core() { return std::max(1u, std::thread::hardware_concurrency()); }

TaskPool::~TaskPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& worker : workers_) worker.join();
}

void TaskPool::add(std::shared_ptr<PoolTask> task) {
    std::lock_guard lock(mutex_);
    if (stopping_ || task->state_ != PoolTask::State::Outside) return;
    task->self_ = task;
    task->state_ = PoolTask::State::Waiting;
    queue_locked(std::move(task), Clock::now(), true);
}

void TaskPool::wake(PoolTask& task) {
    std::lock_guard lock(mutex_);
    if (task.state_ == PoolTask::State::Running) {
        task.woken_while_running_ = true;
        return;
    }
    const auto now = Clock::now();
    if (task.state_ != PoolTask::State::Waiting || task.due_ <= now) return;  // outside, done, or already due
    if (auto self = task.self_.lock()) queue_locked(std::move(self), now, true);
}

// The task's one current entry, due then; from outside the workers, an idle one is woken when
// no one watches for that time (a worker queueing its own task looks at the queue next anyway).
void TaskPool::queue_locked(std::shared_ptr<PoolTask> task, Clock::time_point due, bool notify) {
    task->due_ = due;
    const std::uint64_t generation = ++task->generation_;
    queue_.push(Entry{due, generation, std::move(task)});
    if (notify && due < watched_) wake_.notify_one();
}

bool TaskPool::drop_stale_locked(std::vector<std::shared_ptr<PoolTask>>& released) {
    while (!queue_.empty()) {
        const Entry& top = queue_.top();
        if (top.generation == top.task->generation_ && top.task->state_ == PoolTask::State::Waiting) return true;
        released.push_back(top.task);  // superseded by a wake, or its task is done
        queue_.pop();
    }
    return false;
}

void TaskPool::work() {
    // A task's last reference may go here: it is let go with the lock released, so a task's
    // destructor never runs under the pool's lock.
    std::vector<std::shared_ptr<PoolTask>> released;
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        const bool any = drop_stale_locked(released);
        if (!released.empty()) {
            lock.unlock();
            released.clear();
            lock.lock();
            continue;
        }
        const auto now = Clock::now();
        if (!any || (queue_.top().due > now && watched_ <= queue_.top().due)) {
            wake_.wait(lock);  // nothing to run, and another worker watches the clock
            continue;
        }
        if (queue_.top().due > now) {
            const auto until = queue_.top().due;
            watched_ = until;
            wake_.wait_until(lock, until);
            if (watched_ == until) watched_ = Clock::time_point::max();
            continue;
        }
        std::shared_ptr<PoolTask> task = queue_.top().task;
        queue_.pop();
        task->state_ = PoolTask::State::Running;
        task->woken_while_running_ = false;
        // Another task due now goes to an idle worker while this one runs, and one watches the clock.
        if (drop_stale_locked(released) && (queue_.top().due <= now || watched_ == Clock::time_point::max())) wake_.notify_one();
        lock.unlock();
        released.clear();
        const std::optional<Clock::time_point> next = task->run_pass();
        if (!next) {
            lock.lock();
            task->state_ = PoolTask::State::Done;
            task->self_.reset();
            lock.unlock();
            task.reset();
            lock.lock();
            continue;
        }
        lock.lock();
        task->state_ = PoolTask::State::Waiting;
        const Clock::time_point due = task->woken_while_running_ ? Clock::now() : on_grain(*next);
        queue_locked(std::move(task), due, false);
    }
}

}  // namespace hschool::net
