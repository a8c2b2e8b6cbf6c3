#include "server/hns/llm/llm_settings.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "server/hns/contract/dropin_env.hpp"
#include "server/hns/contract/text.hpp"

namespace hschool::server::hns {
namespace {

namespace json = boost::json;

// A variable's stripped value; unset, empty and oversized all read as "".
std::string env(const std::function<const char*(const char*)>& getenv, const char* name) {
    const char* value = getenv(name);
    if (value == nullptr) return {};
    const std::string_view text(value);
    if (text.size() > kMaxLlmEnvBytes) return {};
    return strip(text);
}

std::string without_trailing_slashes(std::string text) {
    while (!text.empty() && text.back() == '/') text.pop_back();
    return text;
}

// A key file bigger than this is not a key.
constexpr std::size_t kMaxKeyFileBytes = 64 * 1024;

}  // namespace

const char* llm_transport_text(LlmTransport transport) {
    switch (transport) {
    case LlmTransport::None: return "none";
    case LlmTransport::Sidecar: return "sidecar";
    case LlmTransport::Bedrock: return "bedrock";
    case LlmTransport::Anthropic: return "anthropic";
    }
    return "none";
}

LlmSettings read_llm_settings(const std::function<const char*(const char*)>& getenv,
                              const std::function<std::optional<std::string>(const std::string&)>& read_key_file) {
    LlmSettings s;
    if (std::string sidecar = env(getenv, "COWORLD_LLM_ENDPOINT"); !sidecar.empty()) {
        s.transport = LlmTransport::Sidecar;
        s.endpoint = without_trailing_slashes(std::move(sidecar));
        s.model = env(getenv, "COWORLD_LLM_MODEL");
        if (s.model.empty()) s.model = kDefaultSidecarModel;
        return s;
    }
    const std::string bedrock = env(getenv, "AWS_ENDPOINT_URL_BEDROCK_RUNTIME");
    const std::string token = env(getenv, "AWS_BEARER_TOKEN_BEDROCK");
    if (!bedrock.empty() || !token.empty()) {
        std::string region = env(getenv, "AWS_REGION");
        if (region.empty()) region = env(getenv, "AWS_DEFAULT_REGION");
        if (region.empty()) region = kDefaultAwsRegion;
        s.transport = LlmTransport::Bedrock;
        s.endpoint = without_trailing_slashes(bedrock.empty() ? "https://bedrock-runtime." + region + ".amazonaws.com" : bedrock);
        s.secret = token;
        const std::string pinned = env(getenv, "BEDROCK_MODEL");
        s.bedrock_models = pinned.empty() ? kBedrockModels : std::vector<std::string>{pinned};
        return s;
    }
    std::string key = env(getenv, "ANTHROPIC_API_KEY");
    if (key.empty()) {
        if (const std::string uri = env(getenv, "ANTHROPIC_API_KEY_URI"); !uri.empty()) {
            auto path = file_uri_path(uri);
            if (!path) {
                s.warning = "ANTHROPIC_API_KEY_URI: " + path.error;
            } else if (auto contents = read_key_file(path->string())) {
                key = strip(*contents);
                if (key.empty()) s.warning = "ANTHROPIC_API_KEY_URI: the file is empty";
            } else {
                s.warning = "ANTHROPIC_API_KEY_URI: the file cannot be read";
            }
        }
    }
    if (!key.empty()) {
        s.transport = LlmTransport::Anthropic;
        s.secret = std::move(key);
    }
    return s;
}

LlmSettings llm_settings_from_environment() {
    return read_llm_settings([](const char* name) { return std::getenv(name); },
                             [](const std::string& path) -> std::optional<std::string> {
                                 std::ifstream in(path, std::ios::binary);
                                 if (!in) return std::nullopt;
                                 std::string contents(kMaxKeyFileBytes + 1, '\0');
                                 in.read(contents.data(), static_cast<std::streamsize>(contents.size()));
                                 const auto got = static_cast<std::size_t>(in.gcount());
                                 if (got > kMaxKeyFileBytes) return std::nullopt;
                                 contents.resize(got);
                                 return contents;
                             });
}

const LlmSettings& process_llm_settings() {
    static const LlmSettings settings = llm_settings_from_environment();
    return settings;
}

std::string describe_llm(const LlmSettings& s, std::string_view config_model) {
    switch (s.transport) {
    case LlmTransport::None: return "none (prompt seats play burrow)";
    case LlmTransport::Sidecar: return "sidecar " + s.endpoint + ", model " + s.model;
    case LlmTransport::Bedrock: return "bedrock " + s.endpoint + ", model " + (s.bedrock_models.empty() ? "" : s.bedrock_models.front());
    case LlmTransport::Anthropic:
        return "anthropic, model " + std::string(config_model.empty() ? kDefaultAnthropicModel : config_model);
    }
    return "none";
}

HttpCall llm_request(const LlmSettings& s, const LlmAsk& ask) {
    HttpCall call;
    if (s.transport == LlmTransport::None) return call;
    json::object body;
    body["max_tokens"] = std::max(1, ask.max_tokens);
    body["system"] = ask.system;
    body["messages"] = json::array{json::object{{"role", "user"}, {"content", ask.user}}};
    if (s.transport == LlmTransport::Sidecar && ask.slot >= 0) call.headers.emplace_back("X-Coworld-Player-Slot", std::to_string(ask.slot));
    call.headers.emplace_back("content-type", "application/json");
    switch (s.transport) {
    case LlmTransport::Bedrock: {
        body["anthropic_version"] = kBedrockAnthropicVersion;
        if (!s.secret.empty()) call.headers.emplace_back("authorization", "Bearer " + s.secret);
        const std::size_t i = s.bedrock_models.empty() ? 0 : std::min(ask.bedrock_model, s.bedrock_models.size() - 1);
        call.url = s.endpoint + "/model/" + (s.bedrock_models.empty() ? std::string() : s.bedrock_models[i]) + "/invoke";
        break;
    }
    case LlmTransport::Sidecar:
        body["model"] = s.model;
        call.headers.emplace_back("anthropic-version", kAnthropicVersion);
        call.url = s.endpoint + "/v1/messages";
        break;
    case LlmTransport::Anthropic: {
        const std::string model(ask.config_model.empty() ? kDefaultAnthropicModel : ask.config_model);
        body["model"] = model;
        // The reference: only tiers past Haiku 4.5 take an effort setting (Haiku answers 400 to it).
        if (model.find("haiku") == std::string::npos && model.find("4-5") == std::string::npos)
            body["output_config"] = json::object{{"effort", "low"}};
        call.headers.emplace_back("x-api-key", s.secret);
        call.headers.emplace_back("anthropic-version", kAnthropicVersion);
        call.url = kAnthropicMessagesUrl;
        break;
    }
    case LlmTransport::None: break;
    }
    call.body = json::serialize(body);
    return call;
}

}  // namespace hschool::server::hns
