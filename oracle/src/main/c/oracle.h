/*
 * The interface between the trace driver (main.c: traces, settings, the conformance format, the server loop) and
 * the ARC driver (arc_driver.c: the real arc.c of one OpenZFS release, compiled into it, and everything it is driven
 * through). The driver side knows nothing of ZFS types; the ARC side knows nothing of traces or JSON.
 *
 * ORACLE_ARC_22 (build-oracle.sh defines it for both files): 1 for the ARC of zfs-2.2 (upstream's rewrite: data and
 * metadata, arc_meta/arc_pd/arc_pm, the uncached state), 0 for zfs-2.1's (arc_p). The conformance output of each is
 * its own (docs/conformance.md for 2.1; the 2.2 line adds types, fractions and ghost-hit bytes).
 */
#ifndef ORACLE_H
#define ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#ifndef ORACLE_ARC_22
#error "ORACLE_ARC_22: 1 for a zfs-2.2 arc.c, 0 for zfs-2.1 (build-oracle.sh defines it)"
#endif

/*
 * The ARC states, the first five (ORACLE_STATES) in the conformance format's order, for 2.1 and 2.2 alike: no op of
 * the vocabulary reads with ARC_FLAG_UNCACHED, so 2.2's uncached state stays empty and the format leaves it out
 * (docs/scope.md); a header found there would still be named "uncached".
 */
enum oracle_state {
	OS_ANON, OS_MRU, OS_MRU_GHOST, OS_MFU, OS_MFU_GHOST, OS_UNCACHED, OS_COUNT, OS_DESTROYED = OS_COUNT
};
#define	ORACLE_STATES	OS_UNCACHED

/* A buffer's type: data or metadata (ARC_BUFC_*; 2.1's traces are data only). */
enum oracle_type { OT_DATA, OT_METADATA, OT_COUNT };

/*
 * The statistics of the conformance formats, in 2.2's order; 2.1's prints a subset in its own order (main.c).
 * The last four are the harness's probe counts, not arcstats.
 */
enum oracle_stat {
	ST_HITS, ST_MISSES, ST_DEMAND_DATA_HITS, ST_DEMAND_METADATA_HITS, ST_PREFETCH_DATA_HITS,
	ST_PREFETCH_METADATA_HITS, ST_DEMAND_DATA_MISSES, ST_DEMAND_METADATA_MISSES, ST_PREFETCH_DATA_MISSES,
	ST_PREFETCH_METADATA_MISSES, ST_MRU_HITS, ST_MFU_HITS, ST_MRU_GHOST_HITS, ST_MFU_GHOST_HITS, ST_DELETED,
	ST_EVICT_SKIP, ST_EVICT_NOT_ENOUGH, ST_MUTEX_MISS, ST_DEMAND_HIT_PREDICTIVE_PREFETCH,
	ST_DEMAND_HIT_PRESCIENT_PREFETCH, ST_OVERHEAD_SIZE, ST_COMPRESSED_SIZE, ST_UNCOMPRESSED_SIZE, ST_EVICTIONS,
	ST_EVICTED_BYTES, ST_EVICT_WAITS, ST_EVICTOR_RUNS, ST_COUNT
};

/* What an operation returned (org.arcref.zfs.Outcome). */
enum oracle_outcome {
	OC_HIT_MRU, OC_HIT_MFU, OC_GHOST_HIT_MRU, OC_GHOST_HIT_MFU, OC_MISS, OC_WRITTEN, OC_WRITE_COMPLETED,
	OC_RELEASED, OC_OVERWRITTEN, OC_FREED, OC_FREE_SKIPPED_HELD, OC_NOT_CACHED, OC_TARGET_REDUCED,
	OC_EVICTOR_RAN, OC_REAPED, OC_IDLE, OC_TICKED, OC_MEMORY_SET
};

/* The read kinds of an op trace. */
enum oracle_read_kind { RK_DEMAND, RK_PREFETCH, RK_PRESCIENT };

/*
 * The harness switches: each bends arc.c where the spec deliberately differs from it (docs/oracle.md). All on is
 * the configuration under which the oracle must equal the spec; each one off shows the divergence it hides.
 */
enum oracle_switch {
	SW_EXACT_AGGSUM,	/* aggsum bounds read as the exact value (README, "Exact arc_size") */
	SW_NO_HEADER_MEMORY,	/* headers, buffers and markers cost no arc_size (README, "Header memory") */
	SW_NO_CHUNK_WASTE,	/* a scatter ABD's page rounding costs no arc_size (README, "Scatter chunk waste") */
	SW_COUNT
};

/* The most tunables a release's header lists (2.1: 12, 2.2: 11). */
#define	ORACLE_MAX_TUNABLES	12

/* Everything a run is configured by: the conformance header's config (arc_c_min, arc_c_max, spa_maxblocksize,
 * growth_window, arc_sys_free, arc_free_memory, hz, zfs_multilist_num_sublists, random_seed,
 * evictor_runs_after_each_operation, and for 2.2 spa_old_maxblocksize; named apart from arc.c's macros) and
 * tunables, and the switches.
 */
typedef struct oracle_settings {
	uint64_t c_min, c_max, max_block_size, old_max_block_size, window, sys_free, free_memory;
	int32_t ticks_per_second, num_sublists;
	int64_t seed;
	bool evictor_after_each;
	/* tunables: value, and whether the trace or command line set it (else arc.c's default stays) */
	int64_t tunable[ORACLE_MAX_TUNABLES];
	bool tunable_set[ORACLE_MAX_TUNABLES];
	bool switches[SW_COUNT];
} oracle_settings_t;

/* What a tunable holds in arc.c: an int, a uint_t, or a boolean (an int holding 0 or 1). */
enum oracle_tunable_kind { TK_INT, TK_UINT, TK_BOOLEAN };

/* The release's tunables in the conformance header's order: oracle_ntunables of them, their names and kinds. */
extern const int oracle_ntunables;
extern const char *const oracle_tunable_names[];
extern const enum oracle_tunable_kind oracle_tunable_kinds[];

/* One header arc_evict_hdr evicted (arc__evict) or deleted (arc__delete). */
typedef struct oracle_eviction {
	int64_t key;
	enum oracle_type type;
	uint64_t size;
	enum oracle_state from, to;
} oracle_eviction_t;

/* One buffer header, for --headers. */
typedef struct oracle_header {
	int64_t key;
	enum oracle_type type;
	enum oracle_state state;
	uint64_t size;
	bool has_data, shared_data, prefetch, prescient_prefetch, linked;
	int64_t refcount, arc_access;
	int sublist;
} oracle_header_t;

/*
 * The state after an operation (fields named apart from arc.c's macros: c is arc_c, p is arc_p, ...). 2.1: p, and
 * each state's arcs_size and data esize in size[s][OT_DATA], esize[s][OT_DATA]. 2.2: meta, pd, pm, each state's
 * arcs_size and arcs_esize per type, and the ghost states' arcs_hits per type (ghost_hits[0]: mru_ghost, [1]:
 * mfu_ghost).
 */
typedef struct oracle_snapshot {
	int64_t tick, growtime;
	uint64_t c, p, meta, pd, pm, size_total, evict_count, need_free;
	uint64_t size[OS_COUNT][OT_COUNT], esize[OS_COUNT][OT_COUNT];
	uint64_t ghost_hits[2][OT_COUNT];
	bool evict_needed, no_grow, warm;
	uint64_t stats[ST_COUNT];
	uint64_t *waiters;
	int nwaiters;
	oracle_header_t *headers;
	int nheaders;
} oracle_snapshot_t;

/* Ends the current trace with a message; implemented by the trace driver. Does not return. */
void oracle_abort_trace(const char *message) __attribute__((noreturn));

/*
 * One-time setup of libzpool's parts the ARC needs (refcounts, ABDs, zio caches), before any fork.
 */
void oracle_zfs_init(void);

/*
 * Creates the ARC (arc_init) under the settings arc_init reads: growth_window (as SPA_MAXBLOCKSHIFT: arc_meta_min,
 * the userland arc_c_min floor; 2.2: spa_maxblocksize, whose double growth_window must be) and
 * zfs_multilist_num_sublists (the multilists). Returns NULL, or a message naming why the settings cannot be given
 * to arc.c (also a tunable arc.c cannot take). Before arc_init it puts back what a previous trace in
 * this process changed and arc_init does not set (oracle_arc_fini ends the previous ARC).
 */
const char *oracle_arc_init(const oracle_settings_t *settings);

/*
 * Ends the ARC oracle_arc_init created: destroys the buffers the trace holds and its pending writes, then arc_fini,
 * so that the next oracle_arc_init starts an ARC as fresh as a new process's (the server runs many traces in one
 * process; OracleServerEquivalenceTest compares it with a process per trace).
 */
void oracle_arc_fini(void);

/*
 * Applies the rest of the settings to the ARC oracle_arc_init created, before its first operation: the clock, the
 * memory level, the seed, the evictor schedule, the switches, arc_c_min, arc_c_max (arc_c = arc_c_min, arc_p =
 * arc_c / 2), arc_sys_free and the tunables set (arc_init resets some, so they come after it).
 */
void oracle_arc_configure(const oracle_settings_t *settings);

/* The tunables' values as arc.c holds them after oracle_arc_configure (its defaults where none was set). */
void oracle_arc_tunables(int64_t values[ORACLE_MAX_TUNABLES]);

/*
 * Whether one process may run more than one ARC (oracle_arc_fini, then oracle_arc_init): false for 2.2, whose
 * arc_evict keeps function-static ghost-hit snapshots and ghost targets that arc_fini and arc_init leave alone
 * (while arc_state_init re-creates the ghost-hit sums at 0); the server then runs each trace in a fresh worker.
 */
extern const bool oracle_arc_reusable;

/*
 * The operations of an op trace. Each returns NULL and sets *outcome, or returns a message saying why the
 * operation is rejected (the ARC is then unchanged). Evictions during the operation are appended to the list
 * oracle_take_evictions returns.
 */
const char *oracle_read(int64_t key, uint64_t size, enum oracle_read_kind kind, bool hold, enum oracle_type type,
    enum oracle_outcome *outcome);
const char *oracle_write(int64_t key, uint64_t size, enum oracle_type type, enum oracle_outcome *outcome);
const char *oracle_complete(int64_t key, bool hold, enum oracle_outcome *outcome);
const char *oracle_release(int64_t key, enum oracle_outcome *outcome);
const char *oracle_overwrite(int64_t key, int64_t new_key, enum oracle_outcome *outcome);
const char *oracle_free(int64_t key, enum oracle_outcome *outcome);
const char *oracle_shrink(uint64_t bytes, enum oracle_outcome *outcome);
const char *oracle_evict(enum oracle_outcome *outcome);
const char *oracle_reap(enum oracle_outcome *outcome);
const char *oracle_tick(uint64_t ticks, enum oracle_outcome *outcome);
const char *oracle_memory(uint64_t bytes, enum oracle_outcome *outcome);

/*
 * Runs the evict zthr to quiescence if the settings say it runs after each operation; returns NULL, or the
 * message of a lost wakeup.
 */
const char *oracle_after_operation(void);

/* The evictions since the last call, in order; *count is set. The array stays valid until the next call. */
const oracle_eviction_t *oracle_take_evictions(int *count);

/* The state now; with headers, every buffer header in the conformance format's order. */
void oracle_snapshot(oracle_snapshot_t *snapshot, bool headers);

#endif
