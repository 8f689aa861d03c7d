/*
 * harness.pml: the smallest model that exercises SpinCheck itself (SpinCheckTest), not a model of the ARC.
 *
 * Two processes each add one to a shared count by a read and a separate write. With LOCKED the pair is guarded by a
 * test-and-set lock and the count always ends at 2; without it the updates can interleave and one is lost, which
 * spin must find. UNBOUNDED adds a process that counts for ever, so a small depth limit cuts the search short and
 * SpinCheck must call it incomplete. DEAD adds a branch no interleaving takes, which SpinCheck must report as
 * unreached. DEAD_ELSE adds an option that does nothing and that no interleaving takes (":: else -> REACHED"),
 * which SpinCheck must report too: without REACHED (reached.h) pan would not list it.
 */

#include "reached.h"
byte count = 0;
byte finished = 0;
#ifdef LOCKED
bit lock = 0;
#endif

proctype increment() {
    byte seen;
#ifdef LOCKED
    atomic { lock == 0 -> lock = 1 };
#endif
    seen = count;
    count = seen + 1;
#ifdef LOCKED
    lock = 0;
#endif
    finished++
}

#ifdef UNBOUNDED
active proctype forever() {
    int n = 0;
    do
    :: n < 1000000 -> n++
    :: else -> break
    od
}
#endif

init {
    run increment();
    run increment();
    finished == 2;
#ifdef DEAD
    if
    :: count > 2 -> count = 0
    :: else -> REACHED
    fi;
#endif
#ifdef DEAD_ELSE
    if
    :: count == 2 -> count = 2
    :: else -> REACHED
    fi;
#endif
    assert(count == 2)
}

ltl bothCounted { <> (count == 2) }
