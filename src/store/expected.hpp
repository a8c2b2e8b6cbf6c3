#pragma once
#include "util/expected.hpp"

namespace hschool::store {
using hschool::Expected;
using hschool::unexpected;
using hschool::Unexpected;
}  // namespace hschool::store
