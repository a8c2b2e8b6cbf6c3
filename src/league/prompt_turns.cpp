#include "league/prompt_turns.hpp"

namespace hschool::league {

std::string prompt_turns_note(int model_turns, int fallback_turns, const std::vector<std::string>& causes) {
    const std::string total = std::to_string(model_turns + fallback_turns);
    if (fallback_turns <= 0) return "prompt model " + std::to_string(model_turns) + "/" + total + " turns";
    std::string listed;
    for (const auto& c : causes) listed += (listed.empty() ? "" : ", ") + c;
    return "prompt fallback " + std::to_string(fallback_turns) + "/" + total + " turns (" + listed + ")";
}

}  // namespace hschool::league
