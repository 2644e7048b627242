/* fenced-claim: the read claims the account with the token (`fence < $token`, returning the
 * balance), the write applies only while the claim is still the row's (`fence = $token`); a
 * rejected claim or write starts again from the acquisition. */
#define WATCHDOG 0
#define FENCED 1
#define CLAIMS 1
#include "world.pml"
