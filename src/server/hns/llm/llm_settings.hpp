#pragma once
// Which language model a prompt seat asks, and how (issue 21; the reference's llm.nim): the
// league's sidecar (COWORLD_LLM_ENDPOINT), Bedrock (AWS_ENDPOINT_URL_BEDROCK_RUNTIME and/or
// AWS_BEARER_TOKEN_BEDROCK), or Anthropic's Messages API (ANTHROPIC_API_KEY or a file://
// ANTHROPIC_API_KEY_URI), in that order; and one Messages request shaped for the live one.
// Pure: getenv and the key file reader are passed in; credentials leave only in the request.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hschool::server::hns {

enum class LlmTransport { None, Sidecar, Bedrock, Anthropic };
const char* llm_transport_text(LlmTransport transport);  // none, sidecar, bedrock, anthropic

// The reference's fixed strings.
inline constexpr const char* kAnthropicMessagesUrl = "https://api.anthropic.com/v1/messages";
inline constexpr const char* kAnthropicVersion = "2023-06-01";
inline constexpr const char* kBedrockAnthropicVersion = "bedrock-2023-05-31";
inline constexpr const char* kDefaultSidecarModel = "anthropic/claude-haiku-4.5";
inline constexpr const char* kDefaultAnthropicModel = "claude-haiku-4-5-20251001";
inline constexpr const char* kDefaultAwsRegion = "us-west-2";
// Bedrock inference profiles tried in order (BEDROCK_MODEL pins one).
inline const std::vector<std::string> kBedrockModels = {"us.anthropic.claude-haiku-4-5-20251001-v1:0",
                                                        "us.anthropic.claude-sonnet-4-5-20250929-v1:0"};
// An environment value longer than this is refused as a typo (a URL or a key is far shorter).
inline constexpr std::size_t kMaxLlmEnvBytes = 8192;

struct LlmSettings {
    LlmTransport transport = LlmTransport::None;
    std::string endpoint;  // sidecar or Bedrock base URL, without trailing '/'
    std::string model;     // sidecar: COWORLD_LLM_MODEL; anthropic: "" (the config's model is used)
    std::vector<std::string> bedrock_models;
    std::string secret;    // the Bedrock bearer token or the Anthropic key; only ever in a header
    std::string warning;   // why a configured credential was not usable (never the value)
};

// `read_key_file(path)`: the contents of ANTHROPIC_API_KEY_URI's file, or nothing.
LlmSettings read_llm_settings(const std::function<const char*(const char*)>& getenv,
                              const std::function<std::optional<std::string>(const std::string&)>& read_key_file);
// The process's own environment and files.
LlmSettings llm_settings_from_environment();
// The environment's settings, read once (the first call) and kept for the process's life.
const LlmSettings& process_llm_settings();

// For /health and the startup log: the transport and model, never a credential.
std::string describe_llm(const LlmSettings& settings, std::string_view config_model);

struct HttpCall {
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
};

struct LlmAsk {
    std::string_view system;
    std::string_view user;
    int slot = -1;                 // sent to the sidecar as X-Coworld-Player-Slot
    std::string_view config_model;  // the config's `model` ("" = the reference's default)
    int max_tokens = 700;           // the config's maxOutputTokens
    std::size_t bedrock_model = 0;  // which of bedrock_models (after rotations)
};

// One Messages API request for the live transport (None: an empty call).
HttpCall llm_request(const LlmSettings& settings, const LlmAsk& ask);

}  // namespace hschool::server::hns
