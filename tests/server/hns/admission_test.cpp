// /player, /global and /admin admission before the upgrade (spec §2.2, §2.1, conformance §6.2–6.4):
// the exact 403/409 texts, in the reference's check order.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "server/hns/contract/admission.hpp"

namespace hschool::server::hns {
namespace {

QueryParams query(std::string_view text) {
    auto q = parse_query(text);
    EXPECT_TRUE(q) << q.error;
    return *q;
}

Roster tokened_roster(bool closed = false) {
    Roster r;
    r.closed = closed;
    for (int i = 0; i < 6; ++i) {
        sim::hns::SlotConfig s;
        s.token = "tok" + std::to_string(i);
        r.slots.push_back(s);
    }
    return r;
}

std::string rejection_body(const std::variant<AdmittedPlayer, Rejection>& v, int status) {
    const auto* r = std::get_if<Rejection>(&v);
    if (r == nullptr) return "<admitted>";
    EXPECT_EQ(r->status, status);
    return r->body;
}

TEST(HnsSlot, EmptyIsAutoAndBadValuesBecome32) {
    EXPECT_EQ(parse_slot(""), -1);
    EXPECT_EQ(parse_slot("  "), -1);
    EXPECT_EQ(parse_slot("0"), 0);
    EXPECT_EQ(parse_slot(" 31 "), 31);
    EXPECT_EQ(parse_slot("+5"), 5);
    EXPECT_EQ(parse_slot("32"), 32);
    EXPECT_EQ(parse_slot("x"), 32);
    EXPECT_EQ(parse_slot("-1"), 32);
    EXPECT_EQ(parse_slot("3x"), 32);
    EXPECT_EQ(parse_slot("99999999999999999999"), 32);
}

TEST(HnsPlayerRequest, CleansNameAndToken) {
    const auto r = player_request(query("name=+Ada%09L++&token=%20abc%0A&slot=2"));
    EXPECT_EQ(r.name, "Ada_L");
    EXPECT_EQ(r.token, "abc");
    EXPECT_EQ(r.slot, 2);
}

TEST(HnsAdmission, BadSlotOnAnOpenRosterIs403WithTheSpecText) {
    const auto v = admit_player(player_request(query("slot=x")), Roster{});
    EXPECT_EQ(rejection_body(v, 403), "Player slot must be between 0 and 31.\n");
}

TEST(HnsAdmission, WrongTokenForAConfiguredSlotNamesTheSlot) {
    const auto v = admit_player(player_request(query("slot=0&token=bad")), tokened_roster());
    EXPECT_EQ(rejection_body(v, 403), "Player token does not match configured slot 0.\n");
    const auto v3 = admit_player(player_request(query("slot=3&token=tok2")), tokened_roster());
    EXPECT_EQ(rejection_body(v3, 403), "Player token does not match configured slot 3.\n");
}

TEST(HnsAdmission, RightTokenIsAdmittedWithAGeneratedIdentity) {
    const auto v = admit_player(player_request(query("slot=4&token=tok4")), tokened_roster());
    const auto* a = std::get_if<AdmittedPlayer>(&v);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->identity, "Player1");
    EXPECT_EQ(a->slot, 4);
    EXPECT_EQ(a->token, "tok4");
}

TEST(HnsAdmission, ClosedRosterRefusesSlotsPastItAndOpenRosterAllowsThem) {
    Roster closed = tokened_roster(true);
    closed.slots.resize(2);
    EXPECT_EQ(rejection_body(admit_player(player_request(query("slot=2")), closed), 403),
              "Player slot is outside configured roster.\n");
    Roster open = closed;
    open.closed = false;
    EXPECT_TRUE(std::holds_alternative<AdmittedPlayer>(admit_player(player_request(query("slot=2")), open)));
}

TEST(HnsAdmission, OpenRosterSlotPastTheRosterStillNeedsAConfiguredToken) {
    const auto v = admit_player(player_request(query("slot=9&token=stranger")), tokened_roster());
    EXPECT_EQ(rejection_body(v, 403), "Player credentials do not match configured roster.\n");
    EXPECT_TRUE(std::holds_alternative<AdmittedPlayer>(
        admit_player(player_request(query("slot=9&token=tok1")), tokened_roster())));
    EXPECT_TRUE(std::holds_alternative<AdmittedPlayer>(admit_player(player_request(query("slot=9")), tokened_roster())));
}

TEST(HnsAdmission, AnUnconfiguredTokenFailsAsCredentials) {
    const auto v = admit_player(player_request(query("token=stranger")), tokened_roster());
    EXPECT_EQ(rejection_body(v, 403), "Player credentials do not match configured roster.\n");
}

TEST(HnsAdmission, AutoSlotMatchesAConfiguredTokenOrNameAndChecksTheRest) {
    Roster r = tokened_roster();
    r.slots[1].name = "alice";
    EXPECT_TRUE(std::holds_alternative<AdmittedPlayer>(admit_player(player_request(query("token=tok3")), r)));
    // Name matches slot 1 but the token is slot 2's: rule 3 on slot 1 fails.
    EXPECT_EQ(rejection_body(admit_player(player_request(query("name=alice&token=tok2")), r), 403),
              "Player credentials do not match configured roster.\n");
    // A named slot refuses another name even with its own token.
    EXPECT_EQ(rejection_body(admit_player(player_request(query("name=bob&slot=1&token=tok1")), r), 403),
              "Player credentials do not match configured roster.\n");
}

TEST(HnsAdmission, ClosedRosterRefusesAnUnmatchedAutoJoin) {
    Roster r;
    r.closed = true;
    r.slots.resize(6);
    r.slots[0].name = "alice";
    EXPECT_EQ(rejection_body(admit_player(player_request(query("name=zed")), r), 403),
              "Player credentials do not match configured roster.\n");
    EXPECT_TRUE(std::holds_alternative<AdmittedPlayer>(admit_player(player_request(query("name=alice")), r)));
}

TEST(HnsAdmission, IdentityIsNameElseConfiguredNameElseFirstFreePlayerN) {
    Roster r = tokened_roster();
    r.slots[2].name = "carol";
    r.names_in_use = {"Player1", "Player2"};
    EXPECT_EQ(resolve_identity(player_request(query("name=x+y")), r), "x_y");
    EXPECT_EQ(resolve_identity(player_request(query("slot=2&token=tok2")), r), "carol");
    EXPECT_EQ(resolve_identity(player_request(query("slot=2&token=nope")), r), "Player3");
}

TEST(HnsAdmission, KickedIdentityGets409) {
    Roster r;
    r.kicked = {"mallory"};
    EXPECT_EQ(rejection_body(admit_player(player_request(query("name=mallory")), r), 409), "player was kicked\n");
    EXPECT_TRUE(std::holds_alternative<AdmittedPlayer>(admit_player(player_request(query("name=eve")), r)));
}

TEST(HnsAdmission, NamesAndTokensThatAreNotCleanTextAre403) {
    const Roster r;
    // Invalid UTF-8, a C1 control, a bidi override: refused before they reach /reward or the REST.
    for (const char* q : {"name=%FF%FEx", "name=a%C2%85b", "name=%E2%80%AEevil", "name=a%7Fb"})
        EXPECT_EQ(rejection_body(admit_player(player_request(query(q)), r), 403),
                  "Player name must be UTF-8 text without control or bidi characters.\n") << q;
    EXPECT_EQ(rejection_body(admit_player(player_request(query("name=ok&token=%FF")), r), 403),
              "Player token must be UTF-8 text without control or bidi characters.\n");
    // Whitespace is the reference's to clean ('_'), and other scripts are fine.
    const auto cleaned = admit_player(player_request(query("name=%D0%98%D0%B2%D0%B0%D0%BD%09x")), r);
    ASSERT_TRUE(std::holds_alternative<AdmittedPlayer>(cleaned));
    EXPECT_EQ(std::get<AdmittedPlayer>(cleaned).identity, "\xD0\x98\xD0\xB2\xD0\xB0\xD0\xBD_x");
}

AdmittedPlayer player(std::string identity, int slot, std::string token = "") {
    return AdmittedPlayer{std::move(identity), slot, std::move(token)};
}

std::string seat_refusal(const SeatAdmission& a, int status) {
    if (!a.refused) return "<admitted>";
    EXPECT_EQ(a.refused->status, status);
    return a.refused->body;
}

TEST(HnsSeatAdmission, ASecondSocketForALiveSeatIsRefused) {
    const std::vector<SeatClaim> sockets{{"alice", 0, "", 7}};
    const std::vector<SeatClaim> seats{{"alice", 0, "", 7}};
    // The spy asks for seat 0 by slot, or for alice's name: both refused, nothing replaced.
    EXPECT_EQ(seat_refusal(admit_to_seat(player("spy", 0), sockets, seats, false), 409), "Player slot 0 is already occupied.\n");
    EXPECT_EQ(seat_refusal(admit_to_seat(player("alice", -1), sockets, seats, false), 409), "Player name is already connected.\n");
    EXPECT_EQ(seat_refusal(admit_to_seat(player("alice", 0), sockets, seats, false), 409), "Player name is already connected.\n");
    // Another seat is fine.
    const auto other = admit_to_seat(player("bob", 1), sockets, seats, false);
    EXPECT_FALSE(other.refused);
    EXPECT_EQ(other.replaces, 0);
}

TEST(HnsSeatAdmission, WithTokensTheSeatsOwnTokenReplacesTheOlderSocket) {
    const std::vector<SeatClaim> sockets{{"alice", 0, "tok0", 7}};
    const std::vector<SeatClaim> seats{{"alice", 0, "tok0", 7}};
    const auto redial = admit_to_seat(player("alice", 0, "tok0"), sockets, seats, true);
    EXPECT_FALSE(redial.refused);
    EXPECT_EQ(redial.replaces, 7);
    // The same name with another token, or no tokens in the match: refused.
    EXPECT_EQ(seat_refusal(admit_to_seat(player("alice", 0, "tok1"), sockets, seats, true), 409), "Player name is already connected.\n");
    EXPECT_EQ(seat_refusal(admit_to_seat(player("alice", 0, "tok0"), sockets, seats, false), 409), "Player name is already connected.\n");
}

TEST(HnsSeatAdmission, AClosedSeatGoesBackToItsIdentityOnly) {
    const std::vector<SeatClaim> none;
    const std::vector<SeatClaim> seats{{"alice", 0, "tok0", 0}, {"bob", 1, "tok1", 9}};
    EXPECT_FALSE(admit_to_seat(player("alice", 0, "tok0"), none, seats, true).refused);
    EXPECT_FALSE(admit_to_seat(player("alice", -1), none, seats, false).refused);
    EXPECT_EQ(seat_refusal(admit_to_seat(player("mallory", 0), none, seats, false), 409), "Player slot 0 is already occupied.\n");
    EXPECT_EQ(seat_refusal(admit_to_seat(player("alice", 0, "guess"), none, seats, true), 403), "Player token does not match seat 0.\n");
}

TEST(HnsViewer, AnyCredentialIs403WithTheSpecText) {
    for (const char* q : {"slot=0", "name=a", "token=t", "match=m&name=a"}) {
        const auto v = admit_viewer(query(q));
        const auto* r = std::get_if<Rejection>(&v);
        ASSERT_NE(r, nullptr) << q;
        EXPECT_EQ(r->status, 403);
        EXPECT_EQ(r->body, "Viewer websocket cannot include player name, slot, or token.\n");
    }
}

TEST(HnsViewer, NoCredentialsOrEmptyOnesAreAdmitted) {
    for (const char* q : {"", "match=m1", "slot=&name=&token="}) {
        EXPECT_TRUE(std::holds_alternative<std::monostate>(admit_viewer(query(q)))) << q;
    }
}

}  // namespace
}  // namespace hschool::server::hns
