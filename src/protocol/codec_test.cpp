#include "protocol/codec.h"

#include <gtest/gtest.h>

namespace rlock::protocol {
namespace {

// The text of the BadMessage that decoding `line` as a client's message throws.
std::string client_error(std::string_view line) {
  try {
    decode_client_message(line);
  } catch (const BadMessage& e) {
    return e.what();
  }
  return "(decoded)";
}

template <typename Message>
void expect_harness_round_trip(const Message& message) {
  std::string line = encode(HarnessMessage{message});
  EXPECT_EQ(decode_harness_message(line), HarnessMessage{message}) << line;
}

template <typename Message>
void expect_client_round_trip(const Message& message) {
  std::string line = encode(ClientMessage{message});
  EXPECT_EQ(decode_client_message(line), ClientMessage{message}) << line;
}

TEST(Codec, EveryHarnessMessageComesBackAsItWent) {
  expect_harness_round_trip(Init{1, "A", {"redis://127.0.0.1:6391/0"}, 200, std::nullopt});
  expect_harness_round_trip(Init{1, "B", {"redis://a:1/0", "redis://b:2/0", "redis://c:3/0"}, 1000, std::nullopt});
  expect_harness_round_trip(Init{1, "C", {"redis://127.0.0.1:7400/0"}, 200, "redis://127.0.0.1:7401/0"});
  expect_harness_round_trip(Increment{7, "lock:account:100007", 42});
  expect_harness_round_trip(ReadOk{7, 100, std::nullopt});
  expect_harness_round_trip(ReadOk{7, 100, true});
  expect_harness_round_trip(ReadOk{7, 100, false});
  expect_harness_round_trip(WriteOk{7, true});
  expect_harness_round_trip(WriteOk{7, false});
  expect_harness_round_trip(StepOk{7});
}

TEST(Codec, EveryClientMessageComesBackAsItWent) {
  expect_client_round_trip(InitOk{});
  expect_client_round_trip(Read{7, std::nullopt, false});
  expect_client_round_trip(Read{7, 12, true});
  expect_client_round_trip(Read{7, 12, false});
  expect_client_round_trip(Write{7, 142, std::nullopt});
  expect_client_round_trip(Write{7, 142, 12});
  expect_client_round_trip(Step{7, "release"});
  expect_client_round_trip(Done{7, std::nullopt});
  expect_client_round_trip(Done{7, "could not acquire lock:account:100007 in 10 TTLs"});
}

TEST(Codec, TheWireFormIsTheDocumentedOne) {  // docs/clients.md; nlohmann's objects sort their keys
  EXPECT_EQ(encode(Init{1, "A", {"redis://127.0.0.1:6391/0"}, 200, std::nullopt}),
            R"({"name":"A","protocol":1,"redis":["redis://127.0.0.1:6391/0"],"ttl_ms":200,"type":"init"})");
  EXPECT_EQ(
      encode(Init{1, "A", {"redis://a:1/0"}, 200, "redis://a:2/0"}),
      R"({"name":"A","protocol":1,"redis":["redis://a:1/0"],"replica":"redis://a:2/0","ttl_ms":200,"type":"init"})");
  EXPECT_EQ(encode(Increment{7, "lock:account:100007", 42}),
            R"({"amount":42,"id":7,"key":"lock:account:100007","type":"increment"})");
  EXPECT_EQ(encode(ReadOk{7, 100, true}), R"({"balance":100,"claimed":true,"id":7,"type":"read_ok"})");
  EXPECT_EQ(encode(WriteOk{7, false}), R"({"applied":false,"id":7,"type":"write_ok"})");
  EXPECT_EQ(encode(InitOk{}), R"({"type":"init_ok"})");
  EXPECT_EQ(encode(Read{7, 12, true}), R"({"claim":true,"id":7,"token":12,"type":"read"})");
  EXPECT_EQ(encode(Done{7, "gave up"}), R"({"error":"gave up","id":7,"type":"done"})");
  EXPECT_EQ(encode(Step{7, "release"}), R"({"id":7,"step":"release","type":"step"})");
  EXPECT_EQ(encode(StepOk{7}), R"({"id":7,"type":"step_ok"})");
}

TEST(Codec, AStepOfANameTheHarnessDoesNotKnowStillDecodes) {  // more steps may come
  EXPECT_EQ(decode_client_message(R"({"type":"step","id":7,"step":"renew"})"), (ClientMessage{Step{7, "renew"}}));
}

TEST(Codec, AStepWithoutAStringStepIsRefused) {
  EXPECT_EQ(client_error(R"({"type":"step","id":7})"), R"(no step: {"type":"step","id":7})");
  EXPECT_EQ(client_error(R"({"type":"step","id":7,"step":1})"),
            R"(a step that is not a string: {"type":"step","id":7,"step":1})");
  EXPECT_THROW(decode_harness_message(R"({"type":"step_ok"})"), BadMessage);
}

TEST(Codec, FieldsNeitherSideKnowsAreIgnored) {
  EXPECT_EQ(decode_client_message(R"({"type":"read","id":7,"trace":"x"})"),
            (ClientMessage{Read{7, std::nullopt, false}}));
}

TEST(Codec, ANonStringErrorIsKeptAsItsJson) {
  EXPECT_EQ(decode_client_message(R"({"type":"done","id":7,"error":{"code":3}})"),
            (ClientMessage{Done{7, R"({"code":3})"}}));
}

TEST(Codec, ALineThatIsNotAnObjectIsNoMessage) {
  EXPECT_EQ(client_error("hello"), "a line that is not a protocol message: hello");
  EXPECT_EQ(client_error("[1,2]"), "a line that is not a protocol message: [1,2]");
  EXPECT_EQ(client_error(""), "a line that is not a protocol message: ");
}

TEST(Codec, AnObjectWithoutAStringTypeIsNoMessage) {
  EXPECT_EQ(client_error(R"({"id":7})"), R"(a line that is not a protocol message: {"id":7})");
  EXPECT_EQ(client_error(R"({"type":3,"id":7})"), R"(a line that is not a protocol message: {"type":3,"id":7})");
}

TEST(Codec, ATypeTheReceiverDoesNotKnowIsRefused) {
  EXPECT_EQ(client_error(R"({"type":"hello","id":7})"), R"(a message of unknown type: {"type":"hello","id":7})");
  // The harness's messages are not a client's.
  EXPECT_EQ(client_error(R"({"type":"increment","id":7,"key":"k","amount":1})"),
            R"(a message of unknown type: {"type":"increment","id":7,"key":"k","amount":1})");
  EXPECT_THROW(decode_harness_message(R"({"type":"read","id":7})"), BadMessage);
}

TEST(Codec, ANonIntegerWhereAnIntegerIsNeededIsRefused) {
  EXPECT_EQ(client_error(R"({"type":"write","id":7,"balance":"142"})"),
            R"(a balance that is not an integer: {"type":"write","id":7,"balance":"142"})");
  EXPECT_EQ(client_error(R"({"type":"write","id":7,"balance":142.5})"),
            R"(a balance that is not an integer: {"type":"write","id":7,"balance":142.5})");
  EXPECT_EQ(client_error(R"({"type":"read","id":7,"token":1.0})"),
            R"(a token that is not an integer: {"type":"read","id":7,"token":1.0})");
  EXPECT_EQ(client_error(R"({"type":"read","id":"7"})"), R"(an id that is not an integer: {"type":"read","id":"7"})");
  EXPECT_EQ(client_error(R"({"type":"write","id":7})"), R"(no integer balance: {"type":"write","id":7})");
  EXPECT_EQ(client_error(R"({"type":"done"})"), R"(no integer id: {"type":"done"})");
}

TEST(Codec, AnIdBeyondALongLongIsRefused) {
  EXPECT_EQ(client_error(R"({"type":"read","id":9223372036854775808})"),
            R"(an id out of range: {"type":"read","id":9223372036854775808})");
  EXPECT_EQ(client_error(R"({"type":"read","id":1e30})"), R"(an id that is not an integer: {"type":"read","id":1e30})");
  EXPECT_EQ(decode_client_message(R"({"type":"read","id":9223372036854775807})"),
            (ClientMessage{Read{9223372036854775807, std::nullopt, false}}));
}

TEST(Codec, OtherFieldsOfTheWrongTypeAreRefused) {
  EXPECT_EQ(client_error(R"({"type":"read","id":7,"token":12,"claim":1})"),
            R"(a claim that is not true or false: {"type":"read","id":7,"token":12,"claim":1})");
  EXPECT_THROW(decode_harness_message(R"({"type":"init","protocol":1,"redis":"redis://a:1/0","ttl_ms":200})"),
               BadMessage);
  EXPECT_THROW(decode_harness_message(R"({"type":"increment","id":7,"key":3,"amount":1})"), BadMessage);
}

TEST(Codec, ALongLineIsQuotedByItsFirst120Characters) {
  std::string line = "x" + std::string(300, 'y');
  EXPECT_EQ(client_error(line), "a line that is not a protocol message: " + line.substr(0, 120));
}

}  // namespace
}  // namespace rlock::protocol
