// Which model a prompt seat asks (issue 21): the three transports in the reference's order, their
// variables and defaults, the request each sends, and that no credential leaves except in it.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <map>
#include <string>

#include "server/hns/llm/llm_prompt.hpp"
#include "server/hns/llm/llm_settings.hpp"

namespace hschool::server::hns {
namespace {

namespace json = boost::json;
using Env = std::map<std::string, std::string>;

LlmSettings settings_of(const Env& env, std::map<std::string, std::string> files = {}) {
    return read_llm_settings(
        [&](const char* name) -> const char* {
            auto it = env.find(name);
            return it == env.end() ? nullptr : it->second.c_str();
        },
        [files](const std::string& path) -> std::optional<std::string> {
            auto it = files.find(path);
            if (it == files.end()) return std::nullopt;
            return it->second;
        });
}

std::string header(const HttpCall& call, const std::string& name) {
    for (const auto& [n, v] : call.headers)
        if (n == name) return v;
    return "<none>";
}

TEST(HnsLlmSettings, NothingConfiguredMeansNoTransport) {
    EXPECT_EQ(settings_of({}).transport, LlmTransport::None);
    EXPECT_EQ(settings_of({{"ANTHROPIC_API_KEY", "  "}, {"COWORLD_LLM_ENDPOINT", ""}}).transport, LlmTransport::None);
    EXPECT_TRUE(llm_request(settings_of({}), LlmAsk{}).url.empty());
}

TEST(HnsLlmSettings, TheSidecarComesFirstWithItsHeadersAndModel) {
    const auto s = settings_of({{"COWORLD_LLM_ENDPOINT", "http://sidecar:9000//"}, {"ANTHROPIC_API_KEY", "sk-secret"},
                                {"AWS_BEARER_TOKEN_BEDROCK", "tok"}});
    ASSERT_EQ(s.transport, LlmTransport::Sidecar);
    EXPECT_EQ(s.model, "anthropic/claude-haiku-4.5");
    const auto call = llm_request(s, LlmAsk{"SYS", "USER", 3, "ignored-model", 321, 0});
    EXPECT_EQ(call.url, "http://sidecar:9000/v1/messages");
    EXPECT_EQ(header(call, "anthropic-version"), "2023-06-01");
    EXPECT_EQ(header(call, "X-Coworld-Player-Slot"), "3");
    EXPECT_EQ(header(call, "x-api-key"), "<none>");
    const auto body = json::parse(call.body).as_object();
    EXPECT_EQ(body.at("model"), "anthropic/claude-haiku-4.5");
    EXPECT_EQ(body.at("max_tokens").as_int64(), 321);
    EXPECT_EQ(body.at("system"), "SYS");
    EXPECT_EQ(body.at("messages").as_array()[0].as_object().at("role"), "user");
    EXPECT_EQ(body.at("messages").as_array()[0].as_object().at("content"), "USER");
    EXPECT_EQ(call.body.find("sk-secret"), std::string::npos);
    EXPECT_EQ(settings_of({{"COWORLD_LLM_ENDPOINT", "http://x"}, {"COWORLD_LLM_MODEL", "m2"}}).model, "m2");
}

TEST(HnsLlmSettings, BedrockRotatesOverItsModelsWithTheBearerToken) {
    const auto s = settings_of({{"AWS_BEARER_TOKEN_BEDROCK", "tok"}, {"AWS_REGION", "eu-west-1"}, {"ANTHROPIC_API_KEY", "k"}});
    ASSERT_EQ(s.transport, LlmTransport::Bedrock);
    EXPECT_EQ(s.endpoint, "https://bedrock-runtime.eu-west-1.amazonaws.com");
    ASSERT_EQ(s.bedrock_models.size(), 2U);
    const auto second = llm_request(s, LlmAsk{"S", "U", 1, "", 10, 1});
    EXPECT_EQ(second.url, "https://bedrock-runtime.eu-west-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke");
    EXPECT_EQ(header(second, "authorization"), "Bearer tok");
    EXPECT_EQ(header(second, "X-Coworld-Player-Slot"), "<none>");
    const auto body = json::parse(second.body).as_object();
    EXPECT_EQ(body.at("anthropic_version"), "bedrock-2023-05-31");
    EXPECT_FALSE(body.contains("model"));
    const auto pinned = settings_of({{"AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "http://127.0.0.1:1/"}, {"BEDROCK_MODEL", "m"}});
    EXPECT_EQ(pinned.endpoint, "http://127.0.0.1:1");
    EXPECT_EQ(llm_request(pinned, LlmAsk{"S", "U", 1, "", 10, 5}).url, "http://127.0.0.1:1/model/m/invoke");
    EXPECT_EQ(header(llm_request(pinned, LlmAsk{}), "authorization"), "<none>");
    EXPECT_EQ(settings_of({{"AWS_BEARER_TOKEN_BEDROCK", "t"}}).endpoint, "https://bedrock-runtime.us-west-2.amazonaws.com");
}

TEST(HnsLlmSettings, AnthropicUsesTheKeyOrItsFileAndTheConfigModel) {
    const auto s = settings_of({{"ANTHROPIC_API_KEY", " sk-1 "}});
    ASSERT_EQ(s.transport, LlmTransport::Anthropic);
    const auto call = llm_request(s, LlmAsk{"S", "U", 0, "", 700, 0});
    EXPECT_EQ(call.url, "https://api.anthropic.com/v1/messages");
    EXPECT_EQ(header(call, "x-api-key"), "sk-1");
    const auto body = json::parse(call.body).as_object();
    EXPECT_EQ(body.at("model"), "claude-haiku-4-5-20251001");
    EXPECT_FALSE(body.contains("output_config"));
    const auto other = json::parse(llm_request(s, LlmAsk{"S", "U", 0, "claude-opus-5", 700, 0}).body).as_object();
    EXPECT_EQ(other.at("model"), "claude-opus-5");
    EXPECT_TRUE(other.contains("output_config"));

    const auto from_file = settings_of({{"ANTHROPIC_API_KEY_URI", "file:///run/key"}}, {{"/run/key", "sk-file\n"}});
    ASSERT_EQ(from_file.transport, LlmTransport::Anthropic);
    EXPECT_EQ(header(llm_request(from_file, LlmAsk{}), "x-api-key"), "sk-file");
    const auto missing = settings_of({{"ANTHROPIC_API_KEY_URI", "file:///nope"}});
    EXPECT_EQ(missing.transport, LlmTransport::None);
    EXPECT_EQ(missing.warning, "ANTHROPIC_API_KEY_URI: the file cannot be read");
    EXPECT_EQ(settings_of({{"ANTHROPIC_API_KEY_URI", "https://x/key"}}).warning, "ANTHROPIC_API_KEY_URI: only file:// URIs are supported");
    EXPECT_EQ(settings_of({{"ANTHROPIC_API_KEY_URI", "file:///k"}}, {{"/k", " \n"}}).transport, LlmTransport::None);
}

TEST(HnsLlmSettings, TheDescriptionNamesTheTransportNeverTheKey) {
    const auto text = describe_llm(settings_of({{"ANTHROPIC_API_KEY", "sk-very-secret"}}), "");
    EXPECT_EQ(text, "anthropic, model claude-haiku-4-5-20251001");
    EXPECT_EQ(describe_llm(settings_of({{"AWS_BEARER_TOKEN_BEDROCK", "tok-secret"}}), "").find("secret"), std::string::npos);
    EXPECT_EQ(describe_llm(settings_of({}), "").rfind("none", 0), 0U);
}

TEST(HnsLlmSettings, AnOversizedVariableIsIgnored) {
    EXPECT_EQ(settings_of({{"ANTHROPIC_API_KEY", std::string(kMaxLlmEnvBytes + 1, 'k')}}).transport, LlmTransport::None);
}

TEST(HnsLlmPrompt, TheUserMessageHoldsTheGuidanceThenTheView) {
    const std::string user = llm_user_message("be sneaky", R"({"you":"HIDER-alpha"})", false);
    EXPECT_NE(user.find("be sneaky"), std::string::npos);
    EXPECT_LT(user.find("be sneaky"), user.find(R"({"you":"HIDER-alpha"})"));
    EXPECT_EQ(llm_user_message("", "{}", false).find("guidance"), std::string::npos);
    EXPECT_NE(llm_user_message("", "{}", true).find("could not be used"), std::string::npos);
    // A long prompt is cut to 4000 runes.
    const std::string huge = llm_user_message(std::string(10000, 'p'), "{}", false);
    EXPECT_EQ(huge.find(std::string(4001, 'p')), std::string::npos);
    EXPECT_NE(huge.find(std::string(4000, 'p')), std::string::npos);
}

TEST(HnsLlmPrompt, TheSystemTextStatesThisConfigsRules) {
    sim::hns::GameConfig c;
    c.sightRange = 380;
    c.prepTurns = 6;
    const std::string text = llm_system_text(c);
    EXPECT_NE(text.find("380 px"), std::string::npos);
    EXPECT_NE(text.find("prep phase of 6 turns"), std::string::npos);
    EXPECT_NE(text.find("\"intent\":\"vault\""), std::string::npos);
}

}  // namespace
}  // namespace hschool::server::hns
