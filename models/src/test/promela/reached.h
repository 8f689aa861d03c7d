/*
 * reached.h: REACHED, the statement that an option with nothing else to do carries (":: else -> REACHED",
 * ":: REACHED"), so that pan's list of unreached statements, which SpinCheck requires to be empty in a safety
 * check, names an option that no interleaving takes. An empty ":: else" or ":: else -> skip" (and a bare
 * ":: skip") compiles to no statement of its own, so pan could not report it. assert(true)
 * changes no state and is never false.
 */
#define REACHED assert(true)
