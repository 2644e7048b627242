#include "protocol/codec.h"

#include <limits>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "results/file_format.h"
#include "util/printable.h"

namespace rlock::protocol {
namespace {

using nlohmann::json;

// "a token", "an id": the field with its article.
std::string a(std::string_view field) {
  return fmt::format("{} {}", std::string_view("aeiou").find(field.front()) == std::string_view::npos ? "a" : "an",
                     field);
}

// One received object's fields, read with their types checked; every error quotes the line.
class Fields {
 public:
  Fields(const json& object, std::string_view line) : object_(object), line_(line) {}

  [[noreturn]] void bad(std::string_view what) const {
    throw BadMessage(fmt::format("{}: {}", what, util::printable(line_.substr(0, 120))));
  }

  std::optional<long long> optional_integer(const char* field) const {
    const json* value = find(field);
    if (!value) return std::nullopt;
    if (value->is_number_unsigned() && value->get<unsigned long long>() > std::numeric_limits<long long>::max()) {
      bad(fmt::format("{} out of range", a(field)));
    }
    if (!value->is_number_integer()) bad(fmt::format("{} that is not an integer", a(field)));
    return value->get<long long>();
  }
  long long integer(const char* field) const {
    std::optional<long long> value = optional_integer(field);
    if (!value) bad(fmt::format("no integer {}", field));
    return *value;
  }
  std::optional<bool> optional_boolean(const char* field) const {
    const json* value = find(field);
    if (!value) return std::nullopt;
    if (!value->is_boolean()) bad(fmt::format("{} that is not true or false", a(field)));
    return value->get<bool>();
  }
  bool boolean(const char* field) const {
    std::optional<bool> value = optional_boolean(field);
    if (!value) bad(fmt::format("no {}", field));
    return *value;
  }
  std::optional<std::string> optional_string(const char* field) const {
    const json* value = find(field);
    if (!value) return std::nullopt;
    if (!value->is_string()) bad(fmt::format("{} that is not a string", a(field)));
    return value->get<std::string>();
  }
  std::string string(const char* field) const {
    std::optional<std::string> value = optional_string(field);
    if (!value) bad(fmt::format("no {}", field));
    return *value;
  }
  std::vector<std::string> strings(const char* field) const {
    const json* value = find(field);
    if (!value) bad(fmt::format("no {}", field));
    if (!value->is_array()) bad(fmt::format("{} that is not a list of strings", a(field)));
    std::vector<std::string> out;
    for (const json& item : *value) {
      if (!item.is_string()) bad(fmt::format("{} that is not a list of strings", a(field)));
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  bool has(const char* field) const { return find(field) != nullptr; }
  // A field of any JSON type, as text: a string as it is, anything else as JSON.
  std::optional<std::string> optional_text(const char* field) const {
    const json* value = find(field);
    if (!value) return std::nullopt;
    return value->is_string() ? value->get<std::string>() : value->dump();
  }

 private:
  const json* find(const char* field) const {
    auto it = object_.find(field);
    return it == object_.end() ? nullptr : &*it;
  }

  const json& object_;
  std::string_view line_;
};

// Each message's fields, written and read.
void put(json& j, const Init& m) {
  j["protocol"] = m.protocol;
  j["name"] = m.name;
  j["redis"] = m.redis;
  j["ttl_ms"] = m.ttl_ms;
  if (m.replica) j["replica"] = *m.replica;
  if (m.steps) j["steps"] = *m.steps;
}
void get(const Fields& f, Init& m) {
  long long version = f.integer("protocol");
  if (version < std::numeric_limits<int>::min() || version > std::numeric_limits<int>::max()) {
    f.bad("a protocol out of range");
  }
  m.protocol = static_cast<int>(version);
  m.name = f.optional_string("name").value_or("");
  m.redis = f.strings("redis");
  m.ttl_ms = f.integer("ttl_ms");
  m.replica = f.optional_string("replica");
  if (f.has("steps")) m.steps = f.strings("steps");
}

void put(json&, const InitOk&) {}
void get(const Fields&, InitOk&) {}

void put(json& j, const Increment& m) {
  j["id"] = m.id;
  j["key"] = m.key;
  j["amount"] = m.amount;
}
void get(const Fields& f, Increment& m) {
  m.id = f.integer("id");
  m.key = f.string("key");
  m.amount = f.integer("amount");
}

void put(json& j, const Read& m) {
  j["id"] = m.id;
  if (m.token) j["token"] = *m.token;
  if (m.claim) j["claim"] = true;
}
void get(const Fields& f, Read& m) {
  m.id = f.integer("id");
  m.token = f.optional_integer("token");
  m.claim = f.optional_boolean("claim").value_or(false);
}

void put(json& j, const ReadOk& m) {
  j["id"] = m.id;
  j["balance"] = m.balance;
  if (m.claimed) j["claimed"] = *m.claimed;
}
void get(const Fields& f, ReadOk& m) {
  m.id = f.integer("id");
  m.balance = f.integer("balance");
  m.claimed = f.optional_boolean("claimed");
}

void put(json& j, const Write& m) {
  j["id"] = m.id;
  j["balance"] = m.balance;
  if (m.token) j["token"] = *m.token;
}
void get(const Fields& f, Write& m) {
  m.id = f.integer("id");
  m.balance = f.integer("balance");
  m.token = f.optional_integer("token");
}

void put(json& j, const WriteOk& m) {
  j["id"] = m.id;
  j["applied"] = m.applied;
}
void get(const Fields& f, WriteOk& m) {
  m.id = f.integer("id");
  m.applied = f.boolean("applied");
}

void put(json& j, const Step& m) {
  j["id"] = m.id;
  j["step"] = m.step;
}
void get(const Fields& f, Step& m) {
  m.id = f.integer("id");
  m.step = f.string("step");
}

void put(json& j, const StepOk& m) { j["id"] = m.id; }
void get(const Fields& f, StepOk& m) { m.id = f.integer("id"); }

void put(json& j, const Done& m) {
  j["id"] = m.id;
  if (m.error) j["error"] = *m.error;
}
void get(const Fields& f, Done& m) {
  m.id = f.integer("id");
  m.error = f.optional_text("error");
}

template <typename Variant>
std::string encode_one(const Variant& message) {
  return std::visit(
      [](const auto& m) {
        json j{{"type", std::string(std::decay_t<decltype(m)>::kType)}};
        put(j, m);
        return j.dump();
      },
      message);
}

// The alternative of `Variant` whose type name is `type`, read from `fields`.
template <typename Variant, std::size_t I = 0>
Variant decode_as(const Fields& fields, std::string_view type) {
  if constexpr (I == std::variant_size_v<Variant>) {
    fields.bad("a message of unknown type");
  } else {
    using Message = std::variant_alternative_t<I, Variant>;
    if (type != Message::kType) return decode_as<Variant, I + 1>(fields, type);
    Message message;
    get(fields, message);
    return message;
  }
}

template <typename Variant>
Variant decode_one(std::string_view line) {
  json object = results::parse_json_or_discarded(line);
  Fields fields(object, line);
  if (!object.is_object() || !object.contains("type") || !object["type"].is_string()) {
    fields.bad("a line that is not a protocol message");
  }
  return decode_as<Variant>(fields, object["type"].get<std::string>());
}

}  // namespace

std::string encode(const HarnessMessage& message) { return encode_one(message); }
std::string encode(const ClientMessage& message) { return encode_one(message); }

HarnessMessage decode_harness_message(std::string_view line) { return decode_one<HarnessMessage>(line); }
ClientMessage decode_client_message(std::string_view line) { return decode_one<ClientMessage>(line); }

}  // namespace rlock::protocol
