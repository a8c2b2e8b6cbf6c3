#include <gtest/gtest.h>

#include "sim/arena/ecs.hpp"

namespace hschool::sim::arena::ecs {
namespace {

struct Health {
    int points = 0;
};
struct Tag {};
using TestRegistry = Registry<Health, Tag>;

TEST(Ecs, DestroyedHandleIsStaleEvenWhenTheSlotIsReused) {
    TestRegistry registry;
    const Entity first = registry.create();
    registry.destroy(first);
    const Entity second = registry.create();
    EXPECT_EQ(second.index, first.index);
    EXPECT_NE(second.generation, first.generation);
    EXPECT_FALSE(registry.alive(first));
    EXPECT_TRUE(registry.alive(second));
}

TEST(Ecs, StaleHandleDoesNotReachTheNewOwnersComponents) {
    TestRegistry registry;
    const Entity first = registry.create();
    registry.add(first, Health{1});
    registry.destroy(first);
    const Entity second = registry.create();
    registry.add(second, Health{2});
    EXPECT_EQ(registry.find<Health>(first), nullptr);
    ASSERT_NE(registry.find<Health>(second), nullptr);
    EXPECT_EQ(registry.find<Health>(second)->points, 2);
}

TEST(Ecs, RemovingFromTheMiddleKeepsTheOthersReachable) {
    TestRegistry registry;
    Entity e[3];
    for (int i = 0; i < 3; ++i) {
        e[i] = registry.create();
        registry.add(e[i], Health{10 + i});
    }
    registry.destroy(e[0]);
    EXPECT_EQ(registry.pool<Health>().size(), 2u);
    EXPECT_EQ(registry.find<Health>(e[1])->points, 11);
    EXPECT_EQ(registry.find<Health>(e[2])->points, 12);
    EXPECT_EQ(registry.alive_count(), 2u);
}

TEST(Ecs, EachVisitsOnlyEntitiesWithEveryComponent) {
    TestRegistry registry;
    const Entity both = registry.create();
    registry.add(both, Health{5});
    registry.add(both, Tag{});
    const Entity health_only = registry.create();
    registry.add(health_only, Health{7});
    int visits = 0;
    registry.each<Health, Tag>([&](Entity e, Health& health, Tag&) {
        ++visits;
        EXPECT_EQ(e, both);
        health.points += 1;
    });
    EXPECT_EQ(visits, 1);
    EXPECT_EQ(registry.find<Health>(both)->points, 6);
    EXPECT_EQ(registry.find<Health>(health_only)->points, 7);
}

}  // namespace
}  // namespace hschool::sim::arena::ecs
