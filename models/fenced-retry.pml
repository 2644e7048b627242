/* fenced-retry: the article's fence. The acquisition mints a token, the write applies only where
 * the row's fence is older (`fence < $token`), a rejected write starts again from the acquisition. */
#define WATCHDOG 0
#define FENCED 1
#define CLAIMS 0
#include "world.pml"
