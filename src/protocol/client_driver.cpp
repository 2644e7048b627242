#include "protocol/client_driver.h"

#include <poll.h>

#include <algorithm>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "protocol/codec.h"
#include "util/printable.h"

namespace rlock::protocol {

ClientDriver::ClientDriver(std::string worker, const std::string& command, const std::filesystem::path& stderr_file,
                           const std::vector<std::string>& environment_overrides)
    : worker_(std::move(worker)),
      client_(std::make_unique<ProtocolClient>(command, stderr_file, environment_overrides)) {}

void ClientDriver::send_init(const protocol::Init& init) {
  try {
    client_->send(protocol::encode(init));
  } catch (const ClientError& e) {
    if (std::optional<std::string> line = receive_line()) decode(*line);  // what it wrote instead says more
    fail(e.what());
  }
}

void ClientDriver::await_init_ok(std::chrono::milliseconds limit) {
  std::string line;
  try {
    line = client_->receive_within(limit);
  } catch (const ClientError& e) {
    fail(e.what());
  }
  if (!std::holds_alternative<protocol::InitOk>(decode(line))) fail(fmt::format("answered init with {:.120}", line));
}

bool ClientDriver::init_ok_came(Clock::time_point deadline) {
  std::optional<std::string> line = receive_line();
  if (!line) {
    if (Clock::now() > deadline) fail("did not answer init in time");
    return false;
  }
  if (!std::holds_alternative<protocol::InitOk>(decode(*line))) fail(fmt::format("answered init with {:.120}", *line));
  return true;
}

void ClientDriver::send_increment(const protocol::Increment& increment) {
  increment_ = increment.id;
  messages_ = 0;
  heard_ = Clock::now();
  send(increment);
}

void ClientDriver::send(const protocol::HarnessMessage& message) {
  try {
    client_->send(protocol::encode(message));
  } catch (const ClientError& e) {
    fail(e.what());
  }
}

std::optional<protocol::ClientMessage> ClientDriver::receive() {
  std::optional<std::string> line = receive_line();
  if (!line) return std::nullopt;
  heard_ = Clock::now();
  protocol::ClientMessage message = decode(*line);
  long long id = std::visit(
      [](const auto& m) -> long long {
        if constexpr (requires { m.id; }) {
          return m.id;
        } else {
          return 0;  // init_ok: never the id of an increment
        }
      },
      message);
  if (id != increment_.value_or(0) || id == 0) fail(fmt::format("sent an unknown id: {:.120}", *line));
  if (++messages_ > kMaxMessagesPerIncrement) {
    fail(fmt::format("sent more than {} messages in one increment", kMaxMessagesPerIncrement));
  }
  if (std::holds_alternative<protocol::Done>(message)) increment_.reset();
  return message;
}

protocol::ReadOk ClientDriver::serve_read(ServedAccount& account, const protocol::Read& read, long long amount) const {
  ServedAccount::ReadResult result = account.read(read.id, amount, read.token, read.claim);
  return protocol::ReadOk{read.id, result.balance, result.claimed};
}

protocol::WriteOk ClientDriver::serve_write(ServedAccount& account, const protocol::Write& write) const {
  ServedAccount::WriteResult result = account.write(write.id, write.balance, write.token);
  if (result.protocol_error) fail(*result.protocol_error);
  return protocol::WriteOk{write.id, result.applied};
}

void ClientDriver::check_silence(std::chrono::milliseconds limit) const {
  if (Clock::now() - heard_ > limit) fail(fmt::format("said nothing for {} ms", limit.count()));
}

bool ClientDriver::answers_once_stdin_ends(std::chrono::milliseconds limit) {
  client_->end_stdin();
  try {
    client_->receive_within(limit);
    return true;
  } catch (const ClientError&) {
    return false;
  }
}

void ClientDriver::fail(std::string_view what) const {
  std::string tail = client_->stderr_tail();
  std::replace(tail.begin(), tail.end(), '\n', ' ');  // the error is one line
  throw ClientError(util::printable(
      fmt::format("worker {}: {}{}{}", worker_, what, tail.empty() ? "" : "; its stderr ends: ", tail)));
}

std::optional<std::string> ClientDriver::receive_line() {
  try {
    return client_->receive();
  } catch (const ClientError& e) {
    fail(e.what());
  }
}

protocol::ClientMessage ClientDriver::decode(const std::string& line) const {
  try {
    return protocol::decode_client_message(line);
  } catch (const protocol::BadMessage& e) {
    fail(fmt::format("the client wrote {}", e.what()));
  }
}

void wait_for_any(const std::vector<const ClientDriver*>& drivers, std::chrono::milliseconds timeout) {
  std::vector<pollfd> fds;
  for (const ClientDriver* driver : drivers) {
    fds.push_back(pollfd{driver->stdout_fd(), POLLIN, 0});
    fds.push_back(pollfd{driver->stderr_fd(), POLLIN, 0});
  }
  ::poll(fds.data(), fds.size(), static_cast<int>(timeout.count()));
}

}  // namespace rlock::protocol
