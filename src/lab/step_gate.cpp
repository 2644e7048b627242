#include "lab/step_gate.h"

#include "util/enum_names.h"

namespace rlock::lab {
namespace {

constexpr util::NameTable<Step, 7> kSteps{{{Step::acquire, "acquire"},
                                           {Step::fence, "fence"},
                                           {Step::claim, "claim"},
                                           {Step::read, "read"},
                                           {Step::write, "write"},
                                           {Step::extend, "extend"},
                                           {Step::release, "release"}}};

}  // namespace

std::string_view to_string(Step step) { return util::name_in(kSteps, step); }
std::optional<Step> step_from(std::string_view name) { return util::value_in(kSteps, name); }

}  // namespace rlock::lab
