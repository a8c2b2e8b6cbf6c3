#pragma once
// A minimal ECS: generational entity handles and one dense pool per component type.
// Iteration follows each pool's dense order, which depends only on the sequence of adds and
// removes, so it is deterministic.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

namespace hschool::sim::arena::ecs {

struct Entity {
    std::uint32_t index = 0;
    std::uint32_t generation = 0;
    bool operator==(const Entity&) const = default;
};

// Hands out entity slots; a freed slot comes back with a bumped generation so stale handles fail.
class EntityAllocator {
public:
    Entity create() {
        if (!free_.empty()) {
            const std::uint32_t index = free_.back();
            free_.pop_back();
            alive_[index] = true;
            ++alive_count_;
            return {index, generations_[index]};
        }
        const auto index = static_cast<std::uint32_t>(generations_.size());
        generations_.push_back(0);
        alive_.push_back(true);
        ++alive_count_;
        return {index, 0};
    }

    void destroy(Entity e) {
        if (!alive(e)) return;
        alive_[e.index] = false;
        ++generations_[e.index];
        free_.push_back(e.index);
        --alive_count_;
    }

    bool alive(Entity e) const {
        return e.index < generations_.size() && alive_[e.index] && generations_[e.index] == e.generation;
    }
    std::size_t alive_count() const { return alive_count_; }

private:
    std::vector<std::uint32_t> generations_;
    std::vector<bool> alive_;
    std::vector<std::uint32_t> free_;  // LIFO, so slot reuse is deterministic
    std::size_t alive_count_ = 0;
};

// Sparse set: entity index -> dense slot; components stay contiguous, removal swaps with the last.
template <class T>
class ComponentPool {
public:
    static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();

    T& add(Entity e, T value) {
        if (T* existing = find(e)) return *existing = std::move(value);
        if (e.index >= sparse_.size()) sparse_.resize(static_cast<std::size_t>(e.index) + 1, kAbsent);
        sparse_[e.index] = static_cast<std::uint32_t>(items_.size());
        owners_.push_back(e);
        items_.push_back(std::move(value));
        return items_.back();
    }

    void remove(Entity e) {
        if (!contains(e)) return;
        const std::uint32_t slot = sparse_[e.index];
        const std::uint32_t last = static_cast<std::uint32_t>(items_.size() - 1);
        if (slot != last) {
            items_[slot] = std::move(items_[last]);
            owners_[slot] = owners_[last];
            sparse_[owners_[slot].index] = slot;
        }
        items_.pop_back();
        owners_.pop_back();
        sparse_[e.index] = kAbsent;
    }

    bool contains(Entity e) const {
        return e.index < sparse_.size() && sparse_[e.index] != kAbsent && owners_[sparse_[e.index]] == e;
    }
    T* find(Entity e) { return contains(e) ? &items_[sparse_[e.index]] : nullptr; }
    const T* find(Entity e) const { return contains(e) ? &items_[sparse_[e.index]] : nullptr; }

    std::size_t size() const { return items_.size(); }
    Entity owner_at(std::size_t slot) const { return owners_[slot]; }
    T& at(std::size_t slot) { return items_[slot]; }
    const T& at(std::size_t slot) const { return items_[slot]; }

private:
    std::vector<std::uint32_t> sparse_;
    std::vector<Entity> owners_;
    std::vector<T> items_;
};

template <class... Components>
class Registry {
public:
    Entity create() { return entities_.create(); }

    void destroy(Entity e) {
        if (!entities_.alive(e)) return;
        (pool<Components>().remove(e), ...);
        entities_.destroy(e);
    }

    bool alive(Entity e) const { return entities_.alive(e); }
    std::size_t alive_count() const { return entities_.alive_count(); }

    template <class T>
    ComponentPool<T>& pool() { return std::get<ComponentPool<T>>(pools_); }
    template <class T>
    const ComponentPool<T>& pool() const { return std::get<ComponentPool<T>>(pools_); }

    template <class T>
    T& add(Entity e, T value) { return pool<T>().add(e, std::move(value)); }
    template <class T>
    T* find(Entity e) { return pool<T>().find(e); }
    template <class T>
    const T* find(Entity e) const { return pool<T>().find(e); }

    // Calls fn(entity, First&, Rest&...) for each entity owning all of them, in First's dense order.
    template <class First, class... Rest, class Fn>
    void each(Fn&& fn) {
        auto& first = pool<First>();
        for (std::size_t slot = 0; slot < first.size(); ++slot) {
            const Entity e = first.owner_at(slot);
            if ((pool<Rest>().contains(e) && ...)) fn(e, first.at(slot), *pool<Rest>().find(e)...);
        }
    }

private:
    EntityAllocator entities_;
    std::tuple<ComponentPool<Components>...> pools_;
};

}  // namespace hschool::sim::arena::ecs
