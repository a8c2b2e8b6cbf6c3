#pragma once
// The game-owned order catalog and numeric view (the reference's policy_actions.nim at 319d431):
// from one seat view, the 107 orders a trained policy chooses among (null where an order is not
// available to that seat now) and 356 numbers describing what the seat sees. The training bridge,
// numeric players and numeric league entrants all read these, so a policy trained on one plays
// the others. Pure: a view in, values out; a malformed view is an error, never a crash.
#include <array>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "sim/hns/constants.hpp"
#include "sim/hns/expected.hpp"
#include "sim/hns/orders.hpp"

namespace hschool::sim::hns {

// The catalog's fixed slots: watch, chase; hide at 8 pockets; move_to 6 regions, 5 doors, 6 patrol
// anchors; then lock, unlock, vault, push to the nearest door, push to the farthest pocket, each
// over kMaxObjects object slots.
inline constexpr int kCatalogPockets = 8;
inline constexpr int kCatalogRegions = 6;
inline constexpr int kCatalogDoors = 5;
inline constexpr int kCatalogPatrol = 6;
inline constexpr int kCatalogObjectKinds = 5;
inline constexpr int kCatalogSize =
    2 + kCatalogPockets + kCatalogRegions + kCatalogDoors + kCatalogPatrol + kCatalogObjectKinds * kMaxObjects;
static_assert(kCatalogSize == 107);

// The numeric view: 29 scalars, then 16 walls, 5 doors, 6 regions, 8 pockets, 6 patrol anchors,
// 16 objects of 12 numbers, 2 teammates of 3 and the one remembered enemy; -1 pads a missing item.
inline constexpr int kNumericWalls = 16;
inline constexpr int kNumericTeammates = 2;
inline constexpr int kNumericObjectWidth = 12;
inline constexpr int kNumericValueCount = 29 + kNumericWalls * 4 + kCatalogDoors * 2 + kCatalogRegions * 4 +
                                          kCatalogPockets * 2 + kCatalogPatrol * 2 + kMaxObjects * kNumericObjectWidth +
                                          kNumericTeammates * 3 + 3;
static_assert(kNumericValueCount == 356);
// The one value that is not a whole number: the exposure margin, printed as a float.
inline constexpr int kMarginValueIndex = 17;

struct CatalogOrder {
    Intent intent = Intent::Watch;
    std::string object;  // lock, unlock, vault, push
    std::string at;      // hide, move_to
    bool hasTo = false;  // push: the door or pocket it is pushed to
    int toX = 0, toY = 0;
};

using OrderCatalog = std::array<std::optional<CatalogOrder>, kCatalogSize>;
using NumericValues = std::array<double, kNumericValueCount>;
using LegalMask = std::array<std::uint8_t, kCatalogSize>;

Expected<OrderCatalog> order_catalog(const boost::json::object& view);
Expected<NumericValues> numeric_values(const boost::json::object& view);
LegalMask legal_mask(const OrderCatalog& catalog);

// One entry as the reference writes it: {"intent":…[,"at":…|,"object":…[,"to":[x,y]]]}.
void append_catalog_order_json(const CatalogOrder& order, std::string& out);
std::string catalog_order_json(const CatalogOrder& order);
// The whole catalog as a JSON array, null where unavailable.
void append_catalog_json(const OrderCatalog& catalog, std::string& out);
// The values as a JSON array: whole numbers as integers, the margin as Nim prints a float.
void append_values_json(const NumericValues& values, std::string& out);

// Where a client's action sits in the catalog, compared as the reference compares JSON (keys in any
// order, an integer never equal to a float); a JSON null matches an unavailable slot, as there.
std::optional<int> catalog_index_of(const OrderCatalog& catalog, const boost::json::value& action);

// The order a seat plays for a catalog entry: the entry's JSON read as a seat's reply is read.
Order order_from_catalog(const CatalogOrder& entry, const OrderContext& context);

// The teacher's choice: the entry closest to a baseline's order (same intent, same object, the
// same anchor scores higher, a farther push target lower); the first entry (watch) when none fits.
int teacher_index(const OrderCatalog& catalog, const Order& order);

}  // namespace hschool::sim::hns
