// The messages of rlock's line protocol, version 1 (docs/clients.md), as types: what the harness
// sends a client (init, increment, read_ok, write_ok, step_ok) and what a client sends the harness
// (init_ok, read, write, step, done); step and step_ok are optional, a client that never sends a
// step is a version-1 client all the same. Each message's type name, as it appears on the wire, is its
// `kType`, defined here and nowhere else. codec.h turns them into lines and back.
// Plain values, compared field by field; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rlock::protocol {

inline constexpr int kVersion = 1;

// The harness's first message to a client, before the trial's clock starts.
struct Init {
  static constexpr std::string_view kType = "init";
  int protocol = kVersion;
  std::string name;                // the worker's
  std::vector<std::string> redis;  // one URL, or three independent servers
  long long ttl_ms = 0;
  std::optional<std::string> replica;  // under failover: the replica of the one server, its URL
  // The steps the harness asks the client to announce (kSteps); none named: the release alone, as
  // the protocol first had it.
  std::optional<std::vector<std::string>> steps;
  bool operator==(const Init&) const = default;
};

struct InitOk {
  static constexpr std::string_view kType = "init_ok";
  bool operator==(const InitOk&) const = default;
};

// Add `amount` to the account guarded by the lock `key`.
struct Increment {
  static constexpr std::string_view kType = "increment";
  long long id = 0;
  std::string key;
  long long amount = 0;
  bool operator==(const Increment&) const = default;
};

// The account's balance, asked for by the increment `id`; with a token, claiming it when `claim`.
struct Read {
  static constexpr std::string_view kType = "read";
  long long id = 0;
  std::optional<long long> token;
  bool claim = false;
  bool operator==(const Read&) const = default;
};

struct ReadOk {
  static constexpr std::string_view kType = "read_ok";
  long long id = 0;
  long long balance = 0;
  std::optional<bool> claimed;  // set for a claiming read
  bool operator==(const ReadOk&) const = default;
};

struct Write {
  static constexpr std::string_view kType = "write";
  long long id = 0;
  long long balance = 0;
  std::optional<long long> token;
  bool operator==(const Write&) const = default;
};

struct WriteOk {
  static constexpr std::string_view kType = "write_ok";
  long long id = 0;
  bool applied = false;
  bool operator==(const WriteOk&) const = default;
};

// The client is about to take the named step of its library (kSteps); it waits for step_ok.
struct Step {
  static constexpr std::string_view kType = "step";
  long long id = 0;
  std::string step;
  bool operator==(const Step&) const = default;
};

// The steps a client may name; a fault may wait for one of them (chaos/faults/fault.h, a history's
// nemesis schedule): just before its library's acquire, just after it took the lock, just before its
// release, and just before an extend of its lease where its library has one.
inline constexpr std::string_view kAcquireStep = "acquire";
inline constexpr std::string_view kAcquiredStep = "acquired";
inline constexpr std::string_view kReleaseStep = "release";
inline constexpr std::string_view kExtendStep = "extend";
inline constexpr std::string_view kSteps[] = {kAcquireStep, kAcquiredStep, kReleaseStep, kExtendStep};

// The harness is ready for the step `id` named: any fault waiting for it is armed.
struct StepOk {
  static constexpr std::string_view kType = "step_ok";
  long long id = 0;
  bool operator==(const StepOk&) const = default;
};

// The increment `id` is over; with an error where the client gave up.
struct Done {
  static constexpr std::string_view kType = "done";
  long long id = 0;
  std::optional<std::string> error;
  bool operator==(const Done&) const = default;
};

using HarnessMessage = std::variant<Init, Increment, ReadOk, WriteOk, StepOk>;  // the harness sends these
using ClientMessage = std::variant<InitOk, Read, Write, Step, Done>;            // a client sends these

}  // namespace rlock::protocol
