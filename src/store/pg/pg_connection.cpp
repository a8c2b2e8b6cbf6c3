#include "store/pg/pg_connection.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace hschool::store::pg {
namespace {

std::string trimmed(const char* message) {
    std::string text = message ? message : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
}

// A statement that failed because the server went away is Unavailable (503, retried); one the
// server refused (a constraint, a timeout) is Io.
StoreErrorKind kind_of(pg_conn* conn, pg_result* result) {
    if (PQstatus(conn) != CONNECTION_OK) return StoreErrorKind::Unavailable;
    const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    if (state == nullptr) return StoreErrorKind::Unavailable;
    const std::string_view code(state);
    if (code == "40001" || code == "40P01" || code == "55P03" || code == "57014") return StoreErrorKind::Busy;  // serialization, deadlock, lock/statement timeout
    if (code.substr(0, 2) == "08" || code.substr(0, 2) == "57") return StoreErrorKind::Unavailable;  // connection, shutdown
    return StoreErrorKind::Io;
}

}  // namespace

bool is_postgres_url(std::string_view url) {
    return url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
}

// Scanned by hand: std::regex cost this file ~3 s of compile for two patterns (issue 38).
std::string redacted_url(std::string_view url) {
    std::string text(url.substr(0, kMaxUrlBytes));
    constexpr auto npos = std::string::npos;
    // scheme://user:PASSWORD@host → scheme://user:***@host (a lower-case scheme; the user may be empty)
    const auto scheme_end = text.find("://");
    if (scheme_end != npos && scheme_end > 0 &&
        std::all_of(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(scheme_end), [](char c) { return c >= 'a' && c <= 'z'; })) {
        const auto user_end = text.find_first_of(":/@?#", scheme_end + 3);
        if (user_end != npos && text[user_end] == ':') {
            const auto password_end = text.find_first_of("@/?#", user_end + 1);
            if (password_end != npos && text[password_end] == '@') text.replace(user_end + 1, password_end - user_end - 1, "***");
        }
    }
    // ?password=SECRET or &password=SECRET, in any case, every time it appears, up to the next & or #
    constexpr std::string_view kPasswordKey = "password=";
    const auto is_password_key = [&](std::size_t at) {
        if (at + kPasswordKey.size() > text.size()) return false;
        for (std::size_t i = 0; i < kPasswordKey.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(text[at + i])) != kPasswordKey[i]) return false;
        return true;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((text[i] != '?' && text[i] != '&') || !is_password_key(i + 1)) continue;
        const auto value_begin = i + 1 + kPasswordKey.size();
        const auto value_end = std::min(text.find_first_of("&#", value_begin), text.size());
        text.replace(value_begin, value_end - value_begin, "***");
        i = value_begin + 2;  // the loop steps past the *** to what ended the value
    }
    return text;
}

Rows::Rows(pg_result* result) : result_(result) {}
Rows::Rows(Rows&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }
Rows& Rows::operator=(Rows&& other) noexcept {
    if (this != &other) {
        if (result_) PQclear(result_);
        result_ = other.result_;
        other.result_ = nullptr;
    }
    return *this;
}
Rows::~Rows() {
    if (result_) PQclear(result_);
}

int Rows::size() const { return result_ ? PQntuples(result_) : 0; }
bool Rows::null(int row, int column) const { return !result_ || PQgetisnull(result_, row, column) != 0; }
std::string Rows::text(int row, int column) const {
    if (null(row, column)) return {};
    return std::string(PQgetvalue(result_, row, column), static_cast<std::size_t>(PQgetlength(result_, row, column)));
}
std::int64_t Rows::integer(int row, int column) const {
    if (null(row, column)) return 0;
    return std::strtoll(PQgetvalue(result_, row, column), nullptr, 10);
}
bool Rows::boolean(int row, int column) const {
    return !null(row, column) && PQgetvalue(result_, row, column)[0] == 't';
}
long Rows::affected() const {
    if (!result_) return 0;
    return std::strtol(PQcmdTuples(result_), nullptr, 10);
}

Expected<std::unique_ptr<Connection>, StoreError> Connection::connect(const std::string& url) {
    if (url.size() > kMaxUrlBytes || !is_postgres_url(url))
        return unexpected(StoreError{StoreErrorKind::OpenFailed, "not a postgresql:// URL of at most 4096 bytes"});
    const std::string timeout = std::to_string(kConnectTimeoutSeconds);
    const char* keys[] = {"dbname", "connect_timeout", "application_name", nullptr};
    const char* values[] = {url.c_str(), timeout.c_str(), "hschool-server", nullptr};
    pg_conn* conn = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
    if (conn == nullptr) return unexpected(StoreError{StoreErrorKind::Unavailable, "out of memory for a connection"});
    if (PQstatus(conn) != CONNECTION_OK) {
        // libpq's message names the host and port, never the password.
        StoreError error{StoreErrorKind::Unavailable, redacted_url(url) + ": " + trimmed(PQerrorMessage(conn))};
        PQfinish(conn);
        return unexpected(std::move(error));
    }
    std::unique_ptr<Connection> connection(new Connection(conn));
    const std::string settings = "SET statement_timeout = " + std::to_string(kStatementTimeout.count()) +
                                 "; SET lock_timeout = " + std::to_string(kLockTimeout.count()) +
                                 "; SET client_min_messages = warning";
    if (auto set = connection->run(settings); !set) return unexpected(set.error());
    return connection;
}

Connection::~Connection() {
    if (conn_) PQfinish(conn_);
}

StoreError Connection::failure(std::string_view what) const {
    return StoreError{StoreErrorKind::Io, std::string(what) + ": " + trimmed(PQerrorMessage(conn_))};
}

Expected<Rows, StoreError> Connection::exec(std::string_view sql, const std::vector<Param>& params, bool binary_result) {
    std::vector<const char*> values;
    std::vector<int> lengths;
    std::vector<int> formats;
    values.reserve(params.size());
    for (const auto& param : params) {
        values.push_back(param.value ? param.value->data() : nullptr);
        lengths.push_back(param.value ? static_cast<int>(param.value->size()) : 0);
        formats.push_back(param.binary ? 1 : 0);
    }
    const std::string statement(sql);
    pg_result* result = PQexecParams(conn_, statement.c_str(), static_cast<int>(params.size()), nullptr, values.data(),
                                     lengths.data(), formats.data(), binary_result ? 1 : 0);
    const auto status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return Rows(result);
    StoreError error{kind_of(conn_, result), trimmed(result ? PQresultErrorMessage(result) : PQerrorMessage(conn_))};
    if (error.message.empty()) error.message = "the database connection was lost";
    if (result) PQclear(result);
    return unexpected(std::move(error));
}

Expected<void, StoreError> Connection::run(std::string_view sql) {
    const std::string statement(sql);
    pg_result* result = PQexec(conn_, statement.c_str());
    const auto status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
        PQclear(result);
        return {};
    }
    StoreError error{kind_of(conn_, result), trimmed(result ? PQresultErrorMessage(result) : PQerrorMessage(conn_))};
    if (error.message.empty()) error.message = "the database connection was lost";
    if (result) PQclear(result);
    return unexpected(std::move(error));
}

bool Connection::healthy() const { return PQstatus(conn_) == CONNECTION_OK; }

int Connection::socket() const { return PQsocket(conn_); }

bool Connection::consume_input() { return PQconsumeInput(conn_) == 1 && healthy(); }

std::vector<Connection::Notification> Connection::notifications() {
    std::vector<Notification> out;
    while (PGnotify* notify = PQnotifies(conn_)) {
        out.push_back({notify->relname ? notify->relname : "", notify->extra ? notify->extra : ""});
        PQfreemem(notify);
    }
    return out;
}

}  // namespace hschool::store::pg
