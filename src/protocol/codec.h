// The one codec of rlock's line protocol (messages.h): a message to one line of JSON, and a line
// back to a message, validated. Both ends use it: the harness's driver (client_driver.h) and
// `rlock client` (protocol/strategy_client.h).
//
// A line decodes when it is a JSON object with a string "type" that the receiving side knows, and
// every field the message needs is there with its JSON type: integers within a long long (ids,
// balances, tokens, amounts, the TTL), booleans, strings, a list of strings. Fields that neither
// side knows are ignored, as the protocol says. Anything else throws BadMessage, whose text names
// what was wrong and quotes the line's first 120 characters. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "protocol/messages.h"
#include "rlock/error.h"

namespace rlock::protocol {

// A line that is not a valid message. Its text reads as what the sender wrote ("a line that is
// not a protocol message: hello"), for the caller to put after who wrote it.
class BadMessage : public Error {
 public:
  using Error::Error;
};

// One JSON object, without the newline that ends it on the wire.
std::string encode(const HarnessMessage& message);
std::string encode(const ClientMessage& message);

// What the harness sent, as the client reads it, and what a client sent, as the harness reads it.
HarnessMessage decode_harness_message(std::string_view line);
ClientMessage decode_client_message(std::string_view line);

}  // namespace rlock::protocol
