// One line of events.jsonl (lab/event.h): an event, or rlock::Error; then every typed field, each
// present, absent or rlock::Error. Anything else escaping is a bug. An event read writes back to a
// line that reads again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lab/event.h"
#include "rlock/error.h"

namespace {

template <typename Field>
void read_field(Field field) {
  try {
    field();
  } catch (const rlock::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view line(reinterpret_cast<const char*>(data), size);
  rlock::lab::Event event;
  try {
    event = rlock::lab::Event::from_json_line(line);
  } catch (const rlock::Error&) {
    return 0;
  }
  rlock::lab::Event::from_json_line(event.to_json_line());
  read_field([&] { return event.ttl_ms(); });
  read_field([&] { return event.fence(); });
  read_field([&] { return event.balance(); });
  read_field([&] { return event.amount(); });
  read_field([&] { return event.after(); });
  read_field([&] { return event.sent_at(); });
  read_field([&] { return event.rowcount(); });
  read_field([&] { return event.release_result(); });
  read_field([&] { return event.pttl(); });
  read_field([&] { return event.held(); });
  read_field([&] { return event.added(); });
  read_field([&] { return event.in_doubt(); });
  read_field([&] { return event.signal(); });
  read_field([&] { return event.target(); });
  read_field([&] { return event.error_text(); });
  return 0;
}
