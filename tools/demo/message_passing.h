/* message_passing.h - the message-passing litmus test between blocks
 * (missing_fence.cu): the missing-fence demo's three versions, and the
 * check that release/acquire shows no stale read. */
#ifndef GS_DEMO_MESSAGE_PASSING_H
#define GS_DEMO_MESSAGE_PASSING_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_mp_mode {
    GS_MP_RELAXED = 0,     /* plain stores and loads, volatile flag: no fence */
    GS_MP_THREADFENCE = 1, /* __threadfence() after the data and after the flag */
    GS_MP_RELEASE_ACQUIRE = 2, /* st.release flag, ld.acquire flag */
    GS_MP_MODE_COUNT = 3
} gs_mp_mode;

typedef struct gs_mp_result {
    long rounds;       /* rounds completed */
    long stale;        /* rounds where the consumer saw the flag but old data */
    long stale_words;  /* old data words seen, over all rounds */
    int timed_out;     /* a bounded wait gave up (the test stopped early) */
} gs_mp_result;

/* One producer block writes `words` data words then a flag, round after
 * round; a consumer block on another SM waits for the flag and reads the
 * data; `stress` more blocks store to memory meanwhile. Co-resident launch. */
gs_status gs_demo_message_passing(gs_mp_mode mode, long rounds, int words, int stress,
                                  gs_mp_result *result);
const char *gs_mp_mode_name(gs_mp_mode mode);

#ifdef __cplusplus
}
#endif

#endif
