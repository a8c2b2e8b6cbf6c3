// Every parser of peer input in this folder returns a value for arbitrary bytes: none throws.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/decisions.hpp"
#include "server/hns/contract/registration.hpp"

namespace hschool::server::hns {
namespace {

constexpr int kCases = 3000;
constexpr std::size_t kMaxLength = 300;

// Random texts biased towards the characters these parsers care about.
std::string random_text(std::mt19937& rng) {
    static const std::string kAlphabet = "{}[]\":,%&=+ \t\\orders:01register0x85abc";
    std::uniform_int_distribution<std::size_t> len(0, kMaxLength);
    std::uniform_int_distribution<int> pick(0, 3);
    std::uniform_int_distribution<std::size_t> alpha(0, kAlphabet.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    std::string out;
    const std::size_t n = len(rng);
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(pick(rng) == 0 ? static_cast<char>(byte(rng)) : kAlphabet[alpha(rng)]);
    return out;
}

TEST(HnsGarbage, NoParserThrowsOnRandomInput) {
    std::mt19937 rng(12);
    sim::hns::OrderContext ctx;
    ctx.objectIds = {"box1"};
    for (int i = 0; i < kCases; ++i) {
        const std::string text = random_text(rng);
        EXPECT_NO_THROW({
            const auto q = parse_query(text);
            if (q) {
                (void)admit_player(player_request(*q), Roster{});
                (void)admit_viewer(*q);
            }
            (void)parse_registration(text);
            (void)parse_registration("{" + text);
            (void)parse_reply(text, 1, 0, ctx);
            (void)parse_reply("orders:1:0:" + text, 1, 0, ctx);
        }) << i;
    }
}

}  // namespace
}  // namespace hschool::server::hns
