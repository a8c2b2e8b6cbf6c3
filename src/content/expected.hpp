#pragma once
#include "util/expected.hpp"

namespace hschool::content {
using hschool::Expected;
using hschool::unexpected;
using hschool::Unexpected;
}  // namespace hschool::content
