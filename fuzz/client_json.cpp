// A catalogue manifest's text (clients/NAME/client.json), read as read_catalogue reads it
// (client_catalogue.h): refused by nlohmann::json::exception or rlock::Error, or entries whose
// names are client names, each version's NAME@V; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/client_catalogue.h"
#include "protocol/client_list.h"
#include "rlock/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (const rlock::protocol::CatalogueEntry& e : rlock::protocol::read_manifest(text, "/clients/fuzz")) {
      if (!rlock::protocol::is_client_name(e.spec.name)) std::abort();
      for (const rlock::protocol::CatalogueEntry& v : e.versions) {
        if (!rlock::protocol::is_client_row_name(v.spec.name) || v.spec.name != e.spec.name + "@" + v.version_number)
          std::abort();
      }
    }
  } catch (const nlohmann::json::exception&) {
  } catch (const rlock::Error&) {
  }
  return 0;
}
