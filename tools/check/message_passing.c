/* message_passing.c - the release/acquire message-passing litmus test
 * between blocks under memory stress: zero stale reads required. */
#include <stdio.h>

#include "check/check.h"
#include "demo/message_passing.h"

static int run(const gs_check_env *env, char *figure, size_t len)
{
    gs_mp_result r;
    gs_status st =
        gs_demo_message_passing(GS_MP_RELEASE_ACQUIRE, 20000, 8, 2 * env->dev->sm_count, &r);
    if (st != GS_SUCCESS) {
        snprintf(figure, len, "%s", gs_last_error_detail());
        return 0;
    }
    snprintf(figure, len, "release/acquire, %ld rounds under stress: %ld stale reads%s", r.rounds,
             r.stale, r.timed_out ? " (a wait gave up)" : "");
    return r.stale == 0 && !r.timed_out && r.rounds == 20000;
}

const gs_check gs_check_message_passing = {
    "message passing",
    "the release/acquire message-passing litmus test (zero stale reads)",
    run};
