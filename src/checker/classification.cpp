#include "checker/classification.h"

#include "util/enum_names.h"

namespace rlock::checker {
namespace {

constexpr util::NameTable<Loss, 7> kLosses{{{Loss::lost_update, "lost-update"},
                                            {Loss::overlap, "overlap"},
                                            {Loss::created, "created"},
                                            {Loss::unwritten, "unwritten"},
                                            {Loss::stuck, "stuck"},
                                            {Loss::failed, "failed"},
                                            {Loss::client_error, "client-error"}}};

}  // namespace

std::string_view to_string(Loss loss) { return util::name_in(kLosses, loss); }

std::optional<Loss> loss_from(std::string_view name) { return util::value_in(kLosses, name); }

const std::vector<Loss>& all_losses() {
  static const std::vector<Loss> losses = util::values_in(kLosses);
  return losses;
}

Harm Classification::harm() const {
  if (lost_update || created || overlap || stale_fence || unwritten || undecided) return Harm::money;
  if (stuck || no_progress) return Harm::liveness;
  return Harm::none;
}

bool Classification::shows(Loss loss) const {
  if (loss == Loss::client_error) return client_error;
  if (!judged) return false;
  switch (loss) {
    case Loss::lost_update: return lost_update;
    case Loss::overlap: return overlap;
    case Loss::created: return created;
    case Loss::unwritten: return unwritten;
    case Loss::stuck: return stuck;
    case Loss::failed: return failed;
    case Loss::client_error: break;
  }
  return false;
}

Classification classify(const TrialResult& r) {
  Classification c;
  c.client_error = !r.client_error.empty();
  c.judged = r.judged;
  if (!c.judged) return c;
  c.lost_update = r.lost.validity == Validity::invalid && r.lost.amount > 0;
  c.created = r.balance.validity == Validity::invalid || (r.lost.validity == Validity::invalid && r.lost.amount < 0);
  c.overlap = r.overlaps.validity == Validity::invalid;
  c.stale_fence = r.fences.validity == Validity::invalid;
  c.unwritten = r.unwritten_ops > 0;
  // The balance check alone may be unknown: a run stored before the balance was kept.
  for (Validity v : {r.lost.validity, r.overlaps.validity, r.fences.validity}) c.undecided |= v == Validity::unknown;
  c.failed = r.failed_ops > 0;
  if (c.client_error) return c;  // the harness ended the trial at the error: its progress says nothing
  c.stuck = r.stuck_ops > 0;
  // A history made no progress when none of the increments it sent after the last heal succeeded.
  c.no_progress =
      r.history ? r.started_after_heal > 0 && r.ok_after_heal == 0 : r.ok_ops == 0 && r.failed_ops + r.unknown_ops > 0;
  return c;
}

bool anomaly(const TrialResult& result) { return classify(result).harm() == Harm::money; }

}  // namespace rlock::checker
