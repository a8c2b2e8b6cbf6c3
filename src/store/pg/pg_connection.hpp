#pragma once
// One libpq connection (issue 34): every statement parameterised (PQexecParams, never a value
// spliced into SQL), a statement timeout set at connect, errors as StoreError values, and a
// database URL that is never written anywhere with its password (redacted_url).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/expected.hpp"
#include "store/store_error.hpp"

struct pg_conn;
struct pg_result;

namespace hschool::store::pg {

using namespace std::chrono_literals;

inline constexpr int kConnectTimeoutSeconds = 5;           // libpq's connect_timeout: an unreachable host fails fast
inline constexpr auto kStatementTimeout = 5000ms;          // no statement holds a connection longer than this
inline constexpr auto kLockTimeout = 3000ms;               // a row lock waited for past this fails the statement
inline constexpr std::size_t kMaxUrlBytes = 4096;

// True for postgresql:// and postgres:// URLs.
bool is_postgres_url(std::string_view url);
// The URL with its password (and any password= parameter) replaced by ***, for logs and /health.
std::string redacted_url(std::string_view url);

// A value for a parameter: text, binary (bytea) or NULL.
struct Param {
    std::optional<std::string> value;  // nullopt: NULL
    bool binary = false;
    static Param text(std::string v) { return {std::move(v), false}; }
    static Param bytes(std::string v) { return {std::move(v), true}; }
    static Param integer(std::int64_t v) { return {std::to_string(v), false}; }
    static Param boolean(bool v) { return {v ? "t" : "f", false}; }
};

// The rows of one result, every value as text (or raw bytes when asked for binary results).
class Rows {
public:
    Rows() = default;
    explicit Rows(pg_result* result);
    Rows(Rows&&) noexcept;
    Rows& operator=(Rows&&) noexcept;
    ~Rows();

    int size() const;
    bool null(int row, int column) const;
    std::string text(int row, int column) const;
    std::int64_t integer(int row, int column) const;  // 0 for NULL or garbage
    bool boolean(int row, int column) const;
    long affected() const;  // rows an INSERT/UPDATE/DELETE touched

private:
    pg_result* result_ = nullptr;
};

class Connection {
public:
    // Connects (kConnectTimeoutSeconds) and sets the session's statement and lock timeouts. The
    // error names the redacted URL, never the password.
    static Expected<std::unique_ptr<Connection>, StoreError> connect(const std::string& url);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // One statement with $1..$n parameters. binary_result: raw bytes for bytea columns.
    Expected<Rows, StoreError> exec(std::string_view sql, const std::vector<Param>& params = {}, bool binary_result = false);
    // Statements without parameters, several separated by ';' (schema set-up, BEGIN/COMMIT).
    Expected<void, StoreError> run(std::string_view sql);

    // The connection is usable (PQstatus OK); a broken one is replaced by its pool.
    bool healthy() const;
    // LISTEN support: the socket to poll, and the notifications that arrived (channel, payload).
    int socket() const;
    struct Notification {
        std::string channel;
        std::string payload;
    };
    // Reads what arrived on the socket without blocking; false when the connection broke.
    bool consume_input();
    std::vector<Notification> notifications();

private:
    explicit Connection(pg_conn* conn) : conn_(conn) {}
    StoreError failure(std::string_view what) const;
    pg_conn* conn_ = nullptr;
};

// Runs `body` between BEGIN and COMMIT (ROLLBACK when it or the COMMIT fails).
template <class Body>
auto in_transaction(Connection& connection, Body&& body) -> decltype(body()) {
    if (auto begun = connection.run("BEGIN"); !begun) return unexpected(std::move(begun).error());
    auto outcome = body();
    if (!outcome) {
        (void)connection.run("ROLLBACK");
        return outcome;
    }
    if (auto committed = connection.run("COMMIT"); !committed) {
        (void)connection.run("ROLLBACK");
        return unexpected(std::move(committed).error());
    }
    return outcome;
}

}  // namespace hschool::store::pg
