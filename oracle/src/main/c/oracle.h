/*
 * The interface between the trace driver (main.c: traces, settings, the conformance format, the server loop) and
 * the ARC driver (arc_driver.c: the real zfs-2.1.1 arc.c, compiled into it, and everything it is driven through).
 * The driver side knows nothing of ZFS types; the ARC side knows nothing of traces or JSON.
 */
#ifndef ORACLE_H
#define ORACLE_H

#include <stdbool.h>
#include <stdint.h>

/* The five ARC states of the conformance format, in its order. */
enum oracle_state { OS_ANON, OS_MRU, OS_MRU_GHOST, OS_MFU, OS_MFU_GHOST, OS_COUNT, OS_DESTROYED = OS_COUNT };

/* The statistics of the conformance format, in its order (ArcStat). */
enum oracle_stat {
	ST_HITS, ST_MISSES, ST_DEMAND_DATA_HITS, ST_PREFETCH_DATA_HITS, ST_DEMAND_DATA_MISSES,
	ST_PREFETCH_DATA_MISSES, ST_MRU_HITS, ST_MFU_HITS, ST_MRU_GHOST_HITS, ST_MFU_GHOST_HITS, ST_DELETED,
	ST_EVICT_SKIP, ST_EVICT_NOT_ENOUGH, ST_MUTEX_MISS, ST_DEMAND_HIT_PRESCIENT_PREFETCH, ST_OVERHEAD_SIZE,
	ST_COMPRESSED_SIZE, ST_UNCOMPRESSED_SIZE, ST_EVICTIONS, ST_EVICTED_BYTES, ST_EVICT_WAITS, ST_EVICTOR_RUNS,
	ST_COUNT
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

/* Everything a run is configured by: the conformance header's config (arc_c_min, arc_c_max, spa_maxblocksize,
 * growth_window, arc_sys_free, arc_free_memory, hz, zfs_multilist_num_sublists, random_seed,
 * evictor_runs_after_each_operation; named apart from arc.c's macros) and tunables, and the switches.
 */
typedef struct oracle_settings {
	uint64_t c_min, c_max, max_block_size, window, sys_free, free_memory;
	int32_t ticks_per_second, num_sublists;
	int64_t seed;
	bool evictor_after_each;
	/* tunables: value, and whether the trace or command line set it (else arc.c's default stays) */
	int64_t tunable[12];
	bool tunable_set[12];
	bool switches[SW_COUNT];
} oracle_settings_t;

/* The tunables in the conformance header's order. */
extern const char *const oracle_tunable_names[12];

/* One header arc_evict_hdr evicted (arc__evict) or deleted (arc__delete). */
typedef struct oracle_eviction {
	int64_t key;
	uint64_t size;
	enum oracle_state from, to;
} oracle_eviction_t;

/* One buffer header, for --headers. */
typedef struct oracle_header {
	int64_t key;
	enum oracle_state state;
	uint64_t size;
	bool has_data, shared_data, prefetch, prescient_prefetch, linked;
	int64_t refcount, arc_access;
	int sublist;
} oracle_header_t;

/* The state after an operation (fields named apart from arc.c's macros: c is arc_c, p is arc_p, ...). */
typedef struct oracle_snapshot {
	int64_t tick, growtime;
	uint64_t c, p, size_total, evict_count, need_free;
	uint64_t size[OS_COUNT], esize[OS_COUNT];
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
 * the userland arc_c_min floor) and zfs_multilist_num_sublists (the multilists). Returns NULL, or
 * a message naming why the settings cannot be given to arc.c. Before arc_init it puts back what a previous trace in
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
void oracle_arc_tunables(int64_t values[12]);

/*
 * The operations of an op trace. Each returns NULL and sets *outcome, or returns a message saying why the
 * operation is rejected (the ARC is then unchanged). Evictions during the operation are appended to the list
 * oracle_take_evictions returns.
 */
const char *oracle_read(int64_t key, uint64_t size, enum oracle_read_kind kind, bool hold,
    enum oracle_outcome *outcome);
const char *oracle_write(int64_t key, uint64_t size, enum oracle_outcome *outcome);
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
