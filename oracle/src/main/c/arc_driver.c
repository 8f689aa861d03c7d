/*
 * The ARC driver: the real module/zfs/arc.c of one OpenZFS release (ARC_SOURCE, ORACLE_ZFS: 2.1.1, 2.1.16, 2.2.0 or
 * 2.2.11, as build-oracle.sh chooses; ORACLE_ARC_22 tells 2.2's ARC from 2.1's), compiled into this translation unit
 * with every ASSERT live (-DDEBUG -DZFS_DEBUG), and the operations of an op trace expressed as the calls ZFS's own
 * callers make. One file serves both ARCs: what differs (2.2's data and metadata, its fractions, the uncached state,
 * changed signatures) is under #if ORACLE_ARC_22, each where it occurs.
 *
 * How arc.c is driven (docs/oracle.md has the reasons and the arc.c lines):
 *  - Nothing is patched in the logic of arc.c. What it calls is redirected, by a #define placed after the headers
 *    and before arc.c (calls made inside arc.c), or by defining here a function libzpool also exports (ELF
 *    interposition: calls from libzpool's other files land here too):
 *      the clock        ddi_get_lbolt(), gethrtime(), hz, SEC2NSEC: a logical clock of `hz` ticks per second that
 *                       the trace advances (arc_growtime is kept in ticks);
 *      block sizes      SPA_MAXBLOCKSIZE and SPA_MAXBLOCKSHIFT for arc.c alone (zio and abd keep 16 MiB), so that
 *                       `2ULL << SPA_MAXBLOCKSHIFT` is the configured growth window; 2.2 also SPA_OLD_MAXBLOCKSIZE
 *                       (arc_adapt's least growth step: spa_old_maxblocksize) and zfs_max_recordsize (from 2.2.9
 *                       arc_is_overflowing's one block of overflow, 16 MiB in libzpool: spa_maxblocksize, as
 *                       SPA_MAXBLOCKSIZE was before);
 *      memory           arc_all_memory, arc_free_memory, arc_available_memory: a free-memory level the trace sets;
 *      randomness       random_get_pseudo_bytes (multilist.c's random_in_range draws through it): SplitMix64 from
 *                       random_seed, one 64-bit draw per call, its low bytes little-endian;
 *      threads          zthr_create/_timer, zthr_wakeup, zthr_cancel, zthr_destroy, zthr_iscancelled: no threads
 *                       (2.2's evict zthr is a timer zthr: its timer never fires, the trace decides when it runs);
 *                       zthr_iscurthread (2.1.3 on: arc_evict_state uses its preallocated markers on the evict zthr)
 *                       is true while an evictor iteration runs, on whichever thread runs it; the
 *                       evict zthr's iteration (arc_evict_cb_check, then arc_evict_cb) runs when the trace says
 *                       `evict`, after each operation if so configured, and for an eviction waiter: cv_wait on
 *                       arc_evict_lock drops the lock, runs one iteration on a thread started for it and joined
 *                       (so that mutex_tryenter of a hash lock the waiting caller holds fails, as in the kernel) and
 *                       retakes it; the reap zthr's iteration runs on `reap`; delay() returns at once; taskq_create
 *                       gives no taskq. Between operations the process has one thread (main.c's tree form forks
 *                       there);
 *      I/O              zio_read completes at once (arc_read_done); zio_write is kept until `complete`, which fills
 *                       the block pointer and calls arc_write_ready, then arc_write_done; zfs_blkptr_verify passes;
 *      identity         key -> block pointer: DVA word 0 = 1, word 1 = the key as a u64, birth txg 1, spa load guid
 *                       1, level 0, DMU_OT_PLAIN_FILE_CONTENTS (data) or DMU_OT_OBJECT_ARRAY (2.2's `meta`:
 *                       metadata with no dnode accounting), uncompressed, host byte order;
 *      probes           DTRACE_PROBE1(arc__evict | arc__delete) and DTRACE_PROBE3(arc__wait__for__eviction) report
 *                       evictions and waits;
 *      aggsum bounds    aggsum_upper_bound / aggsum_lower_bound read the exact value while SW_EXACT_AGGSUM is on.
 *  - Two switches need a hook inside arc.c: SW_NO_HEADER_MEMORY and SW_NO_CHUNK_WASTE. The build inserts a call to
 *    oracle_space_ignored() at the top of arc_space_consume and arc_space_return (abd_os.c reports a scatter ABD's
 *    chunk waste through them as ARC_SPACE_ABD_CHUNK_WASTE), and wraps the HDR_FULL_SIZE that arc_evict_hdr adds to
 *    *real_evicted in oracle_header_bytes() (oracle/scripts/arc-hooks.sed); with the switches off both are identities,
 *    so the code is the release's.
 *  - 2.2's arc_evict keeps ghost-hit snapshots and ghost targets in function-static variables that arc_fini and
 *    arc_init leave alone: one ARC per process (oracle_arc_reusable), so the server runs each trace in a fresh worker.
 */
#include <dlfcn.h>
#include <unistd.h>
#include <sys/spa.h>
#include <sys/zio.h>
#include <sys/spa_impl.h>
#include <sys/zio_compress.h>
#include <sys/zio_checksum.h>
#include <sys/zfs_context.h>
#include <sys/arc.h>
#include <sys/zfs_refcount.h>
#include <sys/vdev.h>
#include <sys/vdev_impl.h>
#include <sys/dsl_pool.h>
#include <sys/multilist.h>
#include <sys/abd.h>
#include <sys/zil.h>
#include <sys/fm/fs/zfs.h>
#include <sys/callb.h>
#include <sys/kstat.h>
#include <sys/zthr.h>
#include <zfs_fletcher.h>
#include <sys/arc_impl.h>
#include <sys/trace_zfs.h>
#include <sys/aggsum.h>
#include <sys/wmsum.h>
#include <cityhash.h>
#include <sys/vdev_trim.h>
#include <sys/zfs_racct.h>
#include <sys/zstd/zstd.h>
#include <pthread.h>
#include <stdlib.h>

#include "oracle.h"

/* ---- the driver's state, read by the redirections below ---- */

#define	ORACLE_SPA_GUID		1ULL
#define	ORACLE_DVA_WORD0	1ULL
#define	ORACLE_BIRTH		1ULL
/* what arc_all_memory() answers: it sizes arc.c's hash table and arc_init's defaults, which the settings replace */
#define	ORACLE_ALL_MEMORY	(1ULL << 30)

/* 2.2's zfs_abd_scatter_min_size is static in abd_os.c: its default, the only value a trace may give */
#define	ORACLE_ABD_SCATTER_MIN_SIZE	1536
#if ORACLE_ARC_22
extern uint_t zfs_multilist_num_sublists;
#else
extern int zfs_multilist_num_sublists;
extern int zfs_abd_scatter_min_size;
#endif

static int64_t oracle_now;
static int32_t oracle_hz = 1000;
static uint64_t oracle_maxblocksize = 1ULL << 24;
static uint64_t oracle_old_maxblocksize = 1ULL << 17;
static int oracle_maxblockshift = 24;
static uint64_t oracle_free_memory_level;
static uint64_t oracle_rng_state;
static bool oracle_sw[SW_COUNT];
static bool oracle_evictor_after_each;
static spa_t oracle_spa;
static char oracle_zthr_token;
/* set while this thread runs an iteration of the evict zthr (arc_evict_cb_check and arc_evict_cb) */
static __thread boolean_t oracle_in_evictor;

static uint64_t oracle_stat_extra[ST_COUNT];	/* the four statistics that are not arcstats */
static oracle_eviction_t *oracle_evicted;
static int oracle_nevicted, oracle_evicted_cap;

static void oracle_cv_wait(kcondvar_t *cv, kmutex_t *mp);
static zio_t *oracle_zio_read(const blkptr_t *bp, abd_t *data, uint64_t size, zio_done_func_t *done,
    void *priv, const zbookmark_phys_t *zb);
static zio_t *oracle_zio_write(blkptr_t *bp, abd_t *data, uint64_t size, uint64_t psize, const zio_prop_t *zp,
    zio_done_func_t *ready, zio_done_func_t *done, void *priv, const zbookmark_phys_t *zb);
static int oracle_zio_run(zio_t *zio);
static void oracle_probe1(const char *name, const void *arg);
static void oracle_probe3(const char *name);
static boolean_t oracle_space_ignored(arc_space_type_t type);
static int64_t oracle_header_bytes(int64_t bytes);

static uint64_t
oracle_aggsum_upper_bound(aggsum_t *as)
{
	return (oracle_sw[SW_EXACT_AGGSUM] ? aggsum_value(as) : aggsum_upper_bound(as));
}

static int64_t
oracle_aggsum_lower_bound(aggsum_t *as)
{
	return (oracle_sw[SW_EXACT_AGGSUM] ? (int64_t)aggsum_value(as) : aggsum_lower_bound(as));
}

/* ---- redirections of what arc.c calls ---- */

#undef	ddi_get_lbolt
#define	ddi_get_lbolt()		((clock_t)oracle_now)
#undef	ddi_get_lbolt64
#define	ddi_get_lbolt64()	((int64_t)oracle_now)
#define	gethrtime()		((hrtime_t)oracle_now)
#undef	hz
#define	hz			oracle_hz
#undef	SEC2NSEC
#define	SEC2NSEC(s)		((hrtime_t)(s) * oracle_hz)
#undef	SPA_MAXBLOCKSIZE
#define	SPA_MAXBLOCKSIZE	oracle_maxblocksize
#undef	SPA_MAXBLOCKSHIFT
#define	SPA_MAXBLOCKSHIFT	oracle_maxblockshift
#undef	SPA_OLD_MAXBLOCKSIZE
#define	SPA_OLD_MAXBLOCKSIZE	oracle_old_maxblocksize
#define	zfs_max_recordsize	((uint_t)oracle_maxblocksize)
#define	zthr_create(...)	((zthr_t *)(void *)&oracle_zthr_token)
#define	zthr_create_timer(...)	((zthr_t *)(void *)&oracle_zthr_token)
#define	zthr_wakeup(t)		((void)(t))
#define	zthr_cancel(t)		((void)(t), 0)
#define	zthr_destroy(t)		((void)(t))
#define	zthr_iscancelled(t)	((void)(t), B_FALSE)
#define	zthr_iscurthread(t)	((void)(t), oracle_in_evictor)
#define	taskq_create(...)	((taskq_t *)NULL)
#define	taskq_wait(tq)		((void)(tq))
#define	taskq_destroy(tq)	((void)(tq))
#define	delay(t)		((void)(t))
#define	cv_wait(cv, mp)		oracle_cv_wait(cv, mp)
#define	spa_load_guid(spa)	((void)(spa), ORACLE_SPA_GUID)
#define	zfs_blkptr_verify(...)	(B_TRUE)
#define	zio_read(pio, spa, bp, data, size, done, priv, prio, flags, zb) \
	oracle_zio_read(bp, data, size, done, priv, zb)
#if ORACLE_ARC_22
#define	zio_write(pio, spa, txg, bp, data, size, psize, zp, ready, cready, done, priv, prio, flags, zb) \
	oracle_zio_write(bp, data, size, psize, zp, ready, done, priv, zb)
#else
#define	zio_write(pio, spa, txg, bp, data, size, psize, zp, ready, cready, pdone, done, priv, prio, flags, zb) \
	oracle_zio_write(bp, data, size, psize, zp, ready, done, priv, zb)
#endif
#define	zio_wait(zio)		oracle_zio_run(zio)
#define	zio_nowait(zio)		((void)oracle_zio_run(zio))
#define	aggsum_upper_bound(as)	oracle_aggsum_upper_bound(as)
#define	aggsum_lower_bound(as)	oracle_aggsum_lower_bound(as)
#undef	DTRACE_PROBE1
#define	DTRACE_PROBE1(name, t1, a1)	oracle_probe1(#name, (const void *)(uintptr_t)(a1))
#undef	DTRACE_PROBE3
#define	DTRACE_PROBE3(name, t1, a1, t2, a2, t3, a3)	oracle_probe3(#name)

#include ARC_SOURCE

#undef	zio_wait
#undef	zio_nowait
#undef	cv_wait

/* ---- memory, randomness and the hooks ---- */

/*
 * sysconf(3) with _SC_NPROCESSORS_ONLN cached: libspl's boot_ncpus and max_ncpus (aggsum buckets, multilist
 * defaults) call it each time, and each call reads /sys/devices/system/cpu/online; arc_init makes dozens. The value is
 * the same; only the cost of a trace's arc_init changes.
 */
long
sysconf(int name)
{
	static long (*real)(int);
	static long cpus = -1;
	if (real == NULL)
		real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
	if (name != _SC_NPROCESSORS_ONLN)
		return (real(name));
	if (cpus < 0)
		cpus = real(name);
	return (cpus);
}

uint64_t
arc_all_memory(void)
{
	return (ORACLE_ALL_MEMORY);
}

uint64_t
arc_free_memory(void)
{
	return (oracle_free_memory_level);
}

int64_t
arc_available_memory(void)
{
	return ((int64_t)(arc_free_memory() - arc_sys_free));
}

/* SplitMix64 (Steele, Lea and Flood): the generator the spec's org.arcref.random.SplitMix64 writes out. */
static uint64_t
oracle_next64(void)
{
	uint64_t z = (oracle_rng_state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return (z ^ (z >> 31));
}

int
random_get_pseudo_bytes(uint8_t *ptr, size_t len)
{
	while (len > 0) {
		uint64_t r = oracle_next64();
		for (int i = 0; i < 8 && len > 0; i++, len--) {
			*ptr++ = (uint8_t)(r >> (8 * i));
		}
	}
	return (0);
}

static boolean_t
oracle_space_ignored(arc_space_type_t type)
{
	return ((oracle_sw[SW_NO_HEADER_MEMORY] && type == ARC_SPACE_HDRS) ||
	    (oracle_sw[SW_NO_CHUNK_WASTE] && type == ARC_SPACE_ABD_CHUNK_WASTE));
}

static int64_t
oracle_header_bytes(int64_t bytes)
{
	return (oracle_sw[SW_NO_HEADER_MEMORY] ? 0 : bytes);
}

static enum oracle_state
oracle_state_of(const arc_state_t *state)
{
	if (state == arc_anon)
		return (OS_ANON);
	if (state == arc_mru)
		return (OS_MRU);
	if (state == arc_mru_ghost)
		return (OS_MRU_GHOST);
	if (state == arc_mfu)
		return (OS_MFU);
	if (state == arc_mfu_ghost)
		return (OS_MFU_GHOST);
#if ORACLE_ARC_22
	if (state == arc_uncached)
		return (OS_UNCACHED);
#endif
	fprintf(stderr, "arc-oracle: a header in a state the conformance format has no name for\n");
	abort();
}

static void
oracle_record_eviction(const arc_buf_hdr_t *hdr, enum oracle_state from, enum oracle_state to)
{
	if (oracle_nevicted == oracle_evicted_cap) {
		oracle_evicted_cap = oracle_evicted_cap == 0 ? 64 : 2 * oracle_evicted_cap;
		oracle_evicted = realloc(oracle_evicted, oracle_evicted_cap * sizeof (oracle_eviction_t));
		if (oracle_evicted == NULL) {
			fprintf(stderr, "arc-oracle: out of memory\n");
			abort();
		}
	}
	oracle_evicted[oracle_nevicted++] = (oracle_eviction_t){ (int64_t)hdr->b_dva.dva_word[1],
	    HDR_ISTYPE_METADATA(hdr) ? OT_METADATA : OT_DATA, HDR_GET_LSIZE(hdr), from, to };
}

/*
 * arc__evict: the header has just become a ghost (2.2: or anonymous, evicted from the uncached state, about to be
 * destroyed); arc__delete: a ghost is about to be destroyed.
 */
static void
oracle_probe1(const char *name, const void *arg)
{
	const arc_buf_hdr_t *hdr = arg;
	if (strcmp(name, "arc__evict") == 0) {
		enum oracle_state now = hdr->b_l1hdr.b_state == arc_anon ? OS_DESTROYED :
		    oracle_state_of(hdr->b_l1hdr.b_state);
		oracle_record_eviction(hdr, now == OS_DESTROYED ? OS_UNCACHED : now == OS_MRU_GHOST ? OS_MRU : OS_MFU,
		    now);
		oracle_stat_extra[ST_EVICTIONS]++;
		oracle_stat_extra[ST_EVICTED_BYTES] += HDR_GET_LSIZE(hdr);
	} else if (strcmp(name, "arc__delete") == 0) {
		oracle_record_eviction(hdr, oracle_state_of(hdr->b_l1hdr.b_state), OS_DESTROYED);
	}
}

static void
oracle_probe3(const char *name)
{
	if (strcmp(name, "arc__wait__for__eviction") == 0)
		oracle_stat_extra[ST_EVICT_WAITS]++;
}

/* ---- the evict zthr ---- */

/* One iteration of the evict zthr's loop (zthr_procedure): the check, then the callback if it says so. */
static boolean_t
oracle_evictor_iteration(void)
{
	oracle_in_evictor = B_TRUE;
	boolean_t run = arc_evict_cb_check(NULL, NULL);
	if (run) {
		oracle_stat_extra[ST_EVICTOR_RUNS]++;
		arc_evict_cb(NULL, NULL);
	}
	oracle_in_evictor = B_FALSE;
	return (run);
}

/*
 * The evict zthr's thread, for an iteration an eviction waiter asks for: a thread started for that iteration and
 * joined after it, so that between operations the process has one thread (the tree form forks there: main.c).
 */
static void *
oracle_evictor_thread(void *ran)
{
	*(boolean_t *)ran = oracle_evictor_iteration();
	return (NULL);
}

/* Runs one evictor iteration on a thread of its own and waits for it; returns whether it ran. */
static boolean_t
oracle_evictor_on_thread(void)
{
	pthread_t thread;
	boolean_t ran = B_FALSE;
	if (pthread_create(&thread, NULL, oracle_evictor_thread, &ran) != 0 || pthread_join(thread, NULL) != 0)
		oracle_abort_trace("cannot run the evict zthr's thread");
	return (ran);
}

/*
 * cv_wait as arc_wait_for_eviction reaches it: the waiter is queued and arc_evict_lock held. The evict zthr's
 * next iteration runs on its own thread; if it finds nothing to do while the waiter is still queued, nothing
 * will ever release it: a lost wakeup (property L1), which ends the trace.
 */
static void
oracle_cv_wait(kcondvar_t *cv, kmutex_t *mp)
{
	(void) cv;
	if (mp != &arc_evict_lock)
		oracle_abort_trace("arc.c waited on a condition variable other than an eviction waiter's");
	mutex_exit(mp);
	boolean_t ran = oracle_evictor_on_thread();
	mutex_enter(mp);
	if (!ran)
		oracle_abort_trace("lost wakeup: an eviction waiter is queued but arc_evict_needed is FALSE "
		    "(property L1)");
}

/* ---- I/O ---- */

static zio_t *
oracle_zio_new(blkptr_t *bp, abd_t *data, uint64_t size, uint64_t psize, void *priv, const zbookmark_phys_t *zb)
{
	zio_t *zio = kmem_zalloc(sizeof (zio_t), KM_SLEEP);
	zio->io_spa = &oracle_spa;
	zio->io_bp = bp;
	zio->io_abd = zio->io_orig_abd = data;
	zio->io_lsize = size;
	zio->io_size = zio->io_orig_size = psize;
	zio->io_private = priv;
	if (zb != NULL)
		zio->io_bookmark = *zb;
	return (zio);
}

static zio_t *
oracle_zio_read(const blkptr_t *bp, abd_t *data, uint64_t size, zio_done_func_t *done, void *priv,
    const zbookmark_phys_t *zb)
{
	zio_t *zio = oracle_zio_new(NULL, data, size, size, priv, zb);
	zio->io_bp_copy = *bp;
	zio->io_bp = &zio->io_bp_copy;
	zio->io_type = ZIO_TYPE_READ;
	zio->io_done = done;
	return (zio);
}

static zio_t *
oracle_zio_write(blkptr_t *bp, abd_t *data, uint64_t size, uint64_t psize, const zio_prop_t *zp,
    zio_done_func_t *ready, zio_done_func_t *done, void *priv, const zbookmark_phys_t *zb)
{
	zio_t *zio = oracle_zio_new(bp, data, size, psize, priv, zb);
	zio->io_type = ZIO_TYPE_WRITE;
	zio->io_prop = *zp;
	zio->io_ready = ready;
	zio->io_done = done;
	return (zio);
}

/* zio_wait/zio_nowait: a read completes at once; writes are completed by oracle_complete. */
static int
oracle_zio_run(zio_t *zio)
{
	if (zio->io_type != ZIO_TYPE_READ)
		oracle_abort_trace("arc.c waited on a zio that is not a read");
	zio->io_done(zio);
	kmem_free(zio, sizeof (zio_t));
	return (0);
}

static void
oracle_write_callback(zio_t *zio, arc_buf_t *buf, void *private)
{
	(void) zio, (void) buf, (void) private;
}

/* ---- blocks: the driver's view of keys, holds and pending writes ---- */

/*
 * A held buffer. Its address is the buffer's reference tag (zfs_refcount), and `buf` is where arc_getbuf_func
 * stores the buffer.
 */
typedef struct oracle_hold {
	arc_buf_t *buf;
	struct oracle_hold *next;
} oracle_hold_t;

typedef struct oracle_block {
	int64_t key;
	oracle_hold_t *holds;		/* buffers held on the cached block, newest first */
	oracle_hold_t *pending;		/* the writer's buffer of a pending write, or NULL */
	zio_t *zio;			/* the pending write's zio once arc_write ran (after an overwrite) */
	bool uncached;			/* arc_write's uncached for the pending write (2.2's `write ... uncached`) */
	blkptr_t bp;			/* the block pointer the pending write fills */
	struct oracle_block *next;
} oracle_block_t;

#define	ORACLE_BLOCK_BUCKETS	4096
static oracle_block_t *oracle_blocks[ORACLE_BLOCK_BUCKETS];

static oracle_block_t *
oracle_block(int64_t key, boolean_t create)
{
	uint64_t b = cityhash4(0, 0, (uint64_t)key, 0) % ORACLE_BLOCK_BUCKETS;
	for (oracle_block_t *k = oracle_blocks[b]; k != NULL; k = k->next) {
		if (k->key == key)
			return (k);
	}
	if (!create)
		return (NULL);
	oracle_block_t *k = calloc(1, sizeof (*k));
	if (k == NULL)
		oracle_abort_trace("out of memory");
	k->key = key;
	k->next = oracle_blocks[b];
	oracle_blocks[b] = k;
	return (k);
}

static oracle_hold_t *
oracle_hold_new(void)
{
	oracle_hold_t *h = calloc(1, sizeof (*h));
	if (h == NULL)
		oracle_abort_trace("out of memory");
	return (h);
}

/* The object type of a level-0 block of the type: data, or metadata that no dnode accounting follows. */
static dmu_object_type_t
oracle_object_type(enum oracle_type type)
{
	return (type == OT_METADATA ? DMU_OT_OBJECT_ARRAY : DMU_OT_PLAIN_FILE_CONTENTS);
}

static enum oracle_type
oracle_type_of(const arc_buf_hdr_t *hdr)
{
	return (HDR_ISTYPE_METADATA(hdr) ? OT_METADATA : OT_DATA);
}

static void
oracle_bp(blkptr_t *bp, int64_t key, uint64_t size, enum oracle_type type)
{
	BP_ZERO(bp);
	bp->blk_dva[0].dva_word[0] = ORACLE_DVA_WORD0;
	bp->blk_dva[0].dva_word[1] = (uint64_t)key;
	BP_SET_LSIZE(bp, size);
	BP_SET_PSIZE(bp, size);
	BP_SET_COMPRESS(bp, ZIO_COMPRESS_OFF);
	BP_SET_CHECKSUM(bp, ZIO_CHECKSUM_FLETCHER_4);
	BP_SET_TYPE(bp, oracle_object_type(type));
	BP_SET_LEVEL(bp, 0);
	BP_SET_BYTEORDER(bp, ZFS_HOST_BYTEORDER);
	BP_SET_BIRTH(bp, ORACLE_BIRTH, ORACLE_BIRTH);
}

/* A buffer the caller now holds: kept as the newest hold on block k, or destroyed (the hold dropped) if k is NULL. */
static void
oracle_keep_or_destroy(oracle_block_t *k, oracle_hold_t *h)
{
	if (k != NULL) {
		h->next = k->holds;
		k->holds = h;
	} else {
		arc_buf_destroy(h->buf, &h->buf);
		free(h);
	}
}

/* The cached (hashed) header of a key, or NULL; holds no lock on return. */
static arc_buf_hdr_t *
oracle_cached(int64_t key)
{
	blkptr_t bp;
	kmutex_t *hash_lock;
	oracle_bp(&bp, key, SPA_MINBLOCKSIZE, OT_DATA);
	arc_buf_hdr_t *hdr = buf_hash_find(ORACLE_SPA_GUID, &bp, &hash_lock);
	if (hdr != NULL)
		mutex_exit(hash_lock);
	return (hdr);
}

static char oracle_message[256];

static const char *
oracle_reject(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	(void) vsnprintf(oracle_message, sizeof (oracle_message), format, args);
	va_end(args);
	return (oracle_message);
}

static const char *
oracle_check_size(uint64_t size)
{
	if (size < SPA_MINBLOCKSIZE || size > oracle_maxblocksize || size % SPA_MINBLOCKSIZE != 0)
		return (oracle_reject("size must be a multiple of 512 in [512, spa_maxblocksize=%llu], was %llu",
		    (u_longlong_t)oracle_maxblocksize, (u_longlong_t)size));
	return (NULL);
}

static const char *
oracle_check_new_key(const char *name, int64_t key)
{
	oracle_block_t *k = oracle_block(key, B_FALSE);
	if (k != NULL && k->pending != NULL)
		return (oracle_reject("%s must not have a pending write, was %lld", name, (longlong_t)key));
	if (oracle_cached(key) != NULL)
		return (oracle_reject("%s must not be cached (ZFS writes are copy-on-write), was %lld", name,
		    (longlong_t)key));
	return (NULL);
}

static const char *
oracle_check_held(int64_t key, oracle_block_t **block)
{
	arc_buf_hdr_t *hdr = oracle_cached(key);
	*block = oracle_block(key, B_FALSE);
	if (hdr == NULL || GHOST_STATE(hdr->b_l1hdr.b_state) || *block == NULL || (*block)->holds == NULL)
		return (oracle_reject("key must be cached and held, was %lld", (longlong_t)key));
	return (NULL);
}

/* ---- the operations ---- */

static const char *const oracle_type_names[OT_COUNT] = { "data", "metadata" };

/*
 * A block's type never changes: a read or write of a key must have the type of the key's header (cached, ghost, or
 * its pending write's).
 */
static const char *
oracle_check_type(int64_t key, enum oracle_type type)
{
	oracle_block_t *k = oracle_block(key, B_FALSE);
	const arc_buf_hdr_t *hdr = k != NULL && k->pending != NULL ? k->pending->buf->b_hdr : oracle_cached(key);
	if (hdr != NULL && oracle_type_of(hdr) != type)
		return (oracle_reject("type must equal the type (%s) of key %lld's header, was %s",
		    oracle_type_names[oracle_type_of(hdr)], (longlong_t)key, oracle_type_names[type]));
	return (NULL);
}

const char *
oracle_read(int64_t key, uint64_t size, enum oracle_read_kind kind, bool hold, enum oracle_type type,
    bool uncached, enum oracle_outcome *outcome)
{
	const char *bad = oracle_check_size(size);
	if (bad != NULL)
		return (bad);
	if (hold && kind != RK_DEMAND)
		return (oracle_reject("hold must be false for a prefetch, was true"));
	bad = oracle_check_type(key, type);
	if (bad != NULL)
		return (bad);
	oracle_block_t *k = oracle_block(key, B_FALSE);
	if (k != NULL && k->pending != NULL)
		return (oracle_reject("key must not have a pending write, was %lld", (longlong_t)key));
	arc_buf_hdr_t *hdr = oracle_cached(key);
	if (hdr != NULL && HDR_GET_LSIZE(hdr) != size)
		return (oracle_reject("size must equal the cached size %llu of key %lld, was %llu",
		    (u_longlong_t)HDR_GET_LSIZE(hdr), (longlong_t)key, (u_longlong_t)size));
	if (hdr == NULL) {
		*outcome = OC_MISS;
	} else {
		switch (oracle_state_of(hdr->b_l1hdr.b_state)) {
		case OS_MRU: *outcome = OC_HIT_MRU; break;
		case OS_MFU: *outcome = OC_HIT_MFU; break;
		case OS_UNCACHED: *outcome = OC_HIT_UNCACHED; break;
		case OS_MRU_GHOST: *outcome = OC_GHOST_HIT_MRU; break;
		case OS_MFU_GHOST: *outcome = OC_GHOST_HIT_MFU; break;
		default: oracle_abort_trace("a hashed header is anonymous between operations");
		}
	}

	blkptr_t bp;
	oracle_bp(&bp, key, size, type);
	zbookmark_phys_t zb = { 0 };
	arc_flags_t flags = ARC_FLAG_WAIT;
	zio_priority_t priority = ZIO_PRIORITY_SYNC_READ;
	if (kind != RK_DEMAND) {
		flags = ARC_FLAG_NOWAIT | ARC_FLAG_PREFETCH;
		if (kind == RK_PRESCIENT)
			flags |= ARC_FLAG_PRESCIENT_PREFETCH;
		priority = ZIO_PRIORITY_ASYNC_READ;
	}
#if ORACLE_ARC_22
	if (uncached)
		flags |= ARC_FLAG_UNCACHED;
#else
	(void) uncached;	/* the trace parser accepts the word for 2.2 only */
#endif
	oracle_hold_t *h = kind == RK_DEMAND ? oracle_hold_new() : NULL;
	int rc = arc_read(NULL, &oracle_spa, &bp, h != NULL ? arc_getbuf_func : NULL, h != NULL ? &h->buf : NULL,
	    priority, ZIO_FLAG_CANFAIL, &flags, &zb);
	if (rc != 0)
		oracle_abort_trace("arc_read failed");
	if (h != NULL) {
		if (h->buf == NULL)
			oracle_abort_trace("a demand read returned no buffer");
		oracle_keep_or_destroy(hold ? oracle_block(key, B_TRUE) : NULL, h);
	}
	return (NULL);
}

const char *
oracle_write(int64_t key, uint64_t size, enum oracle_type type, bool uncached, enum oracle_outcome *outcome)
{
	const char *bad = oracle_check_size(size);
	if (bad == NULL)
		bad = oracle_check_type(key, type);
	if (bad == NULL)
		bad = oracle_check_new_key("key", key);
	if (bad != NULL)
		return (bad);
	oracle_block_t *k = oracle_block(key, B_TRUE);
	oracle_hold_t *h = oracle_hold_new();
	h->buf = arc_alloc_buf(&oracle_spa, &h->buf, type == OT_METADATA ? ARC_BUFC_METADATA : ARC_BUFC_DATA,
	    (int32_t)size);
	k->pending = h;
	k->zio = NULL;
	k->uncached = uncached;
	*outcome = OC_WRITTEN;
	return (NULL);
}

/* arc_write, as dbuf_write calls it for a level-0 block of a plain file (2.2: or of an object array). */
static zio_t *
oracle_arc_write(oracle_block_t *k)
{
	zio_prop_t zp = { 0 };
	zp.zp_checksum = ZIO_CHECKSUM_FLETCHER_4;
	zp.zp_compress = ZIO_COMPRESS_OFF;
	zp.zp_type = oracle_object_type(oracle_type_of(k->pending->buf->b_hdr));
	zp.zp_level = 0;
	zp.zp_copies = 1;
	zp.zp_byteorder = ZFS_HOST_BYTEORDER;
	zbookmark_phys_t zb = { 0 };
	BP_ZERO(&k->bp);
#if ORACLE_ARC_22
	/* uncached as the write asked (an overwrite's never), not for the L2ARC */
	return (arc_write(NULL, &oracle_spa, ORACLE_BIRTH, &k->bp, k->pending->buf, k->uncached, B_FALSE, &zp,
	    oracle_write_callback, NULL, oracle_write_callback, NULL, ZIO_PRIORITY_ASYNC_WRITE, 0, &zb));
#else
	return (arc_write(NULL, &oracle_spa, ORACLE_BIRTH, &k->bp, k->pending->buf, B_FALSE, &zp,
	    oracle_write_callback, NULL, NULL, oracle_write_callback, NULL, ZIO_PRIORITY_ASYNC_WRITE, 0, &zb));
#endif
}

const char *
oracle_complete(int64_t key, bool hold, enum oracle_outcome *outcome)
{
	oracle_block_t *k = oracle_block(key, B_FALSE);
	if (k == NULL || k->pending == NULL)
		return (oracle_reject("key must have a pending write, was %lld", (longlong_t)key));
	zio_t *zio = k->zio != NULL ? k->zio : oracle_arc_write(k);
	oracle_hold_t *h = k->pending;
	k->pending = NULL;
	k->zio = NULL;
	oracle_bp(&k->bp, key, arc_buf_size(h->buf), oracle_type_of(h->buf->b_hdr));
	zio->io_ready(zio);
	zio->io_done(zio);
	kmem_free(zio, sizeof (zio_t));
	oracle_keep_or_destroy(hold ? k : NULL, h);
	*outcome = OC_WRITE_COMPLETED;
	return (NULL);
}

const char *
oracle_release(int64_t key, enum oracle_outcome *outcome)
{
	oracle_block_t *k;
	const char *bad = oracle_check_held(key, &k);
	if (bad != NULL)
		return (bad);
	oracle_hold_t *h = k->holds;
	k->holds = h->next;
	arc_buf_destroy(h->buf, &h->buf);
	free(h);
	*outcome = OC_RELEASED;
	return (NULL);
}

const char *
oracle_overwrite(int64_t key, int64_t new_key, enum oracle_outcome *outcome)
{
	oracle_block_t *k;
	const char *bad = oracle_check_held(key, &k);
	if (bad == NULL)
		bad = oracle_check_new_key("newKey", new_key);
	if (bad != NULL)
		return (bad);
	oracle_hold_t *h = k->holds;
	k->holds = h->next;
	arc_release(h->buf, &h->buf);
	oracle_block_t *n = oracle_block(new_key, B_TRUE);
	n->pending = h;
	n->uncached = false;
	n->zio = oracle_arc_write(n);
	*outcome = OC_OVERWRITTEN;
	return (NULL);
}

/* A dirty buffer freed before it was written: its write never runs. */
static void
oracle_drop_pending(oracle_block_t *k)
{
	if (k->zio != NULL) {
		abd_free(k->zio->io_abd);
		kmem_free(k->zio->io_private, sizeof (arc_write_callback_t));
		kmem_free(k->zio, sizeof (zio_t));
		k->zio = NULL;
	}
	arc_buf_destroy(k->pending->buf, &k->pending->buf);
	free(k->pending);
	k->pending = NULL;
}

const char *
oracle_free(int64_t key, enum oracle_outcome *outcome)
{
	oracle_block_t *k = oracle_block(key, B_FALSE);
	if (k != NULL && k->pending != NULL) {
		oracle_drop_pending(k);
		*outcome = OC_FREED;
		return (NULL);
	}
	arc_buf_hdr_t *hdr = oracle_cached(key);
	if (hdr == NULL) {
		*outcome = OC_NOT_CACHED;
		return (NULL);
	}
	*outcome = zfs_refcount_is_zero(&hdr->b_l1hdr.b_refcnt) ? OC_FREED : OC_FREE_SKIPPED_HELD;
	blkptr_t bp;
	oracle_bp(&bp, key, HDR_GET_LSIZE(hdr), oracle_type_of(hdr));
	arc_freed(&oracle_spa, &bp);
	return (NULL);
}

const char *
oracle_shrink(uint64_t bytes, enum oracle_outcome *outcome)
{
	if (bytes > INT64_MAX)
		return (oracle_reject("bytes must be in [0, 2^63 - 1], was %llu", (u_longlong_t)bytes));
	arc_reduce_target_size((int64_t)bytes);
	*outcome = OC_TARGET_REDUCED;
	return (NULL);
}

const char *
oracle_evict(enum oracle_outcome *outcome)
{
	*outcome = oracle_evictor_iteration() ? OC_EVICTOR_RAN : OC_IDLE;
	return (NULL);
}

const char *
oracle_reap(enum oracle_outcome *outcome)
{
	if (arc_reap_cb_check(NULL, NULL)) {
		arc_reap_cb(NULL, NULL);
		*outcome = OC_REAPED;
	} else {
		*outcome = OC_IDLE;
	}
	return (NULL);
}

const char *
oracle_tick(uint64_t ticks, enum oracle_outcome *outcome)
{
	if (ticks > (uint64_t)(INT64_MAX - oracle_now))
		return (oracle_reject("ticks must be in [0, %lld], was %llu", (longlong_t)(INT64_MAX - oracle_now),
		    (u_longlong_t)ticks));
	oracle_now += (int64_t)ticks;
	*outcome = OC_TICKED;
	return (NULL);
}

const char *
oracle_memory(uint64_t bytes, enum oracle_outcome *outcome)
{
	oracle_free_memory_level = bytes;
	*outcome = OC_MEMORY_SET;
	return (NULL);
}

const char *
oracle_after_operation(void)
{
	if (oracle_evictor_after_each) {
		while (oracle_evictor_iteration())
			continue;
	}
	return (NULL);
}

const oracle_eviction_t *
oracle_take_evictions(int *count)
{
	*count = oracle_nevicted;
	oracle_nevicted = 0;
	return (oracle_evicted);
}

/* ---- set-up ---- */

/*
 * The tunables of the conformance header, in its order, and arc.c's variables (an int, or from 2.2 mostly a uint_t:
 * the same size, read and written through the kind). NULL: a tunable 2.2 made static outside arc.c, which a trace
 * can only give its default (ORACLE_ABD_SCATTER_MIN_SIZE).
 */
#if ORACLE_ARC_22
const int oracle_ntunables = 11;
const char *const oracle_tunable_names[] = {
	"arc_shrink_shift", "arc_no_grow_shift", "arc_grow_retry", "zfs_arc_overflow_shift", "zfs_arc_eviction_pct",
	"zfs_arc_evict_batch_limit", "arc_min_prefetch_ms", "arc_min_prescient_prefetch_ms", "zfs_arc_meta_balance",
	"zfs_abd_scatter_enabled", "zfs_abd_scatter_min_size"
};
const enum oracle_tunable_kind oracle_tunable_kinds[] = {
	TK_UINT, TK_UINT, TK_UINT, TK_INT, TK_UINT, TK_UINT, TK_UINT, TK_UINT, TK_UINT, TK_BOOLEAN, TK_INT
};
static void *const oracle_tunable_vars[] = {
	&arc_shrink_shift, &arc_no_grow_shift, &arc_grow_retry, &zfs_arc_overflow_shift, &zfs_arc_eviction_pct,
	&zfs_arc_evict_batch_limit, &arc_min_prefetch_ms, &arc_min_prescient_prefetch_ms, &zfs_arc_meta_balance,
	&zfs_abd_scatter_enabled, NULL
};
const bool oracle_arc_reusable = false;
#else
const int oracle_ntunables = 12;
const char *const oracle_tunable_names[] = {
	"arc_p_min_shift", "arc_shrink_shift", "arc_no_grow_shift", "arc_grow_retry", "zfs_arc_overflow_shift",
	"zfs_arc_eviction_pct", "zfs_arc_evict_batch_limit", "zfs_arc_p_dampener_disable", "arc_min_prefetch_ms",
	"arc_min_prescient_prefetch_ms", "zfs_abd_scatter_enabled", "zfs_abd_scatter_min_size"
};
const enum oracle_tunable_kind oracle_tunable_kinds[] = {
	TK_INT, TK_INT, TK_INT, TK_INT, TK_INT, TK_INT, TK_INT, TK_BOOLEAN, TK_INT, TK_INT, TK_BOOLEAN, TK_INT
};
static void *const oracle_tunable_vars[] = {
	&arc_p_min_shift, &arc_shrink_shift, &arc_no_grow_shift, &arc_grow_retry, &zfs_arc_overflow_shift,
	&zfs_arc_eviction_pct, &zfs_arc_evict_batch_limit, &zfs_arc_p_dampener_disable, &arc_min_prefetch_ms,
	&arc_min_prescient_prefetch_ms, &zfs_abd_scatter_enabled, &zfs_abd_scatter_min_size
};
const bool oracle_arc_reusable = true;
#endif

static int64_t
oracle_tunable_get(int i)
{
	if (oracle_tunable_vars[i] == NULL)
		return (ORACLE_ABD_SCATTER_MIN_SIZE);
	if (oracle_tunable_kinds[i] == TK_UINT)
		return (*(uint_t *)oracle_tunable_vars[i]);
	return (*(int *)oracle_tunable_vars[i]);
}

static void
oracle_tunable_set(int i, int64_t value)
{
	if (oracle_tunable_vars[i] == NULL)
		return;
	if (oracle_tunable_kinds[i] == TK_UINT)
		*(uint_t *)oracle_tunable_vars[i] = (uint_t)value;
	else
		*(int *)oracle_tunable_vars[i] = (int)value;
}

/*
 * What arc_init does not set and a trace changes, as it was before the first arc_init: arc.c's arc_stats (arc_c,
 * arc_p, arc_no_grow, arc_need_free and the other ARCSTAT values), the tunables, and the spa the harness passes.
 */
static arc_stats_t oracle_pristine_stats;
static int64_t oracle_pristine_tunables[ORACLE_MAX_TUNABLES];
static spa_t oracle_pristine_spa;

void
oracle_zfs_init(void)
{
	/*
	 * libzpool is built with ZFS_DEBUG, so zfs_flags starts with ZFS_DEBUG_MODIFY, a debug kernel's check that no
	 * one writes a frozen buffer: arc_buf_fill then runs fletcher_2 over every block it fills and keeps the sum in a
	 * kmem_alloc'd b_freeze_cksum. Off, as in a kernel built without debugging (zfs_flags 0). Unobservable: the sum
	 * is in no ARC count, no branch of arc.c but those checks reads the flag, and the harness writes no buffer. With
	 * it on, reading every block touched all its pages, so a trace's cached data was resident memory: 21 GB for
	 * evict-adj-highbit64's 16 GiB of blocks, and a CI run's worker, with the tests' memory beside it, was ended
	 * in the middle of that trace.
	 */
	zfs_flags &= ~ZFS_DEBUG_MODIFY;
	zfs_refcount_init();
	abd_init();
	zio_init();
	/* the L2ARC's lists (no thread: that is l2arc_start), which arc_fini's l2arc_do_free_on_write walks */
	l2arc_init();
	oracle_pristine_stats = arc_stats;
	for (int i = 0; i < oracle_ntunables; i++)
		oracle_pristine_tunables[i] = oracle_tunable_get(i);
	oracle_pristine_spa = oracle_spa;
}

void
oracle_arc_fini(void)
{
	for (int b = 0; b < ORACLE_BLOCK_BUCKETS; b++) {
		while (oracle_blocks[b] != NULL) {
			oracle_block_t *k = oracle_blocks[b];
			oracle_blocks[b] = k->next;
			while (k->holds != NULL) {
				oracle_hold_t *h = k->holds;
				k->holds = h->next;
				oracle_keep_or_destroy(NULL, h);
			}
			if (k->pending != NULL)
				oracle_drop_pending(k);
			free(k);
		}
	}
	/* arc_fini's arc_flush retries until all is evicted: no prefetch lifetime may still hold a header back */
	oracle_now = INT64_MAX / 4;
	arc_fini();
	oracle_nevicted = 0;
}

const char *
oracle_arc_init(const oracle_settings_t *s)
{
	uint64_t window = s->window;
	if (window < 2 || (window & (window - 1)) != 0)
		return (oracle_reject("growth_window must be a power of two for arc.c (2ULL << SPA_MAXBLOCKSHIFT), "
		    "was %llu", (u_longlong_t)window));
#if ORACLE_ARC_22
	/* arc_adapt's window is 2 * SPA_MAXBLOCKSIZE, arc_set_limits' floor 2ULL << SPA_MAXBLOCKSHIFT: one block size */
	if (window / 2 != s->max_block_size)
		return (oracle_reject("growth_window must be 2 * spa_maxblocksize=%llu for 2.2's arc.c "
		    "(2 * SPA_MAXBLOCKSIZE), was %llu", (u_longlong_t)s->max_block_size, (u_longlong_t)window));
	for (int i = 0; i < oracle_ntunables; i++) {
		if (oracle_tunable_vars[i] == NULL && s->tunable_set[i] &&
		    s->tunable[i] != ORACLE_ABD_SCATTER_MIN_SIZE)
			return (oracle_reject("%s must be %d: it is static in 2.2's abd_os.c, which no harness can set, "
			    "was %lld", oracle_tunable_names[i], ORACLE_ABD_SCATTER_MIN_SIZE, (longlong_t)s->tunable[i]));
	}
	oracle_maxblocksize = s->max_block_size;
	oracle_old_maxblocksize = s->old_max_block_size;
#endif
	/* a fresh ARC, as in a fresh process: what arc_init leaves alone back to its state before any trace */
	arc_stats = oracle_pristine_stats;
	for (int i = 0; i < oracle_ntunables; i++)
		oracle_tunable_set(i, oracle_pristine_tunables[i]);
	oracle_spa = oracle_pristine_spa;
	memset(&ARC_anon, 0, sizeof (arc_state_t));
	memset(&ARC_mru, 0, sizeof (arc_state_t));
	memset(&ARC_mru_ghost, 0, sizeof (arc_state_t));
	memset(&ARC_mfu, 0, sizeof (arc_state_t));
	memset(&ARC_mfu_ghost, 0, sizeof (arc_state_t));
	memset(&ARC_l2c_only, 0, sizeof (arc_state_t));
#if ORACLE_ARC_22
	memset(&ARC_uncached, 0, sizeof (arc_state_t));
#endif
	memset(&buf_hash_table, 0, sizeof (buf_hash_table));
	arc_evict_needed = B_FALSE;
	arc_evict_count = 0;
	arc_growtime = 0;
	oracle_now = 0;
	memset(oracle_stat_extra, 0, sizeof (oracle_stat_extra));
	oracle_nevicted = 0;
	oracle_maxblockshift = highbit64(window) - 2;
	zfs_multilist_num_sublists = s->num_sublists;
	/*
	 * buf_init sizes the hash table to arc_all_memory() / zfs_arc_average_blocksize buckets, at least 4096; the
	 * least is plenty for a trace's few headers, and zeroing 1 MiB per trace was most of a trace's cost. Unobservable:
	 * the size orders hash chains only, and the hash-lock stripe (BUF_HASH_LOCK: index & (BUF_LOCKS - 1)) of a
	 * header is the same for any table of at least BUF_LOCKS buckets.
	 */
	zfs_arc_average_blocksize = 1 << 30;
	/* before arc_init: from 2.1.3 on it allocates arc_evict_state's markers, headers whose memory the switches see */
	memcpy(oracle_sw, s->switches, sizeof (oracle_sw));
	arc_init();
	return (NULL);
}

void
oracle_arc_configure(const oracle_settings_t *s)
{
	oracle_maxblocksize = s->max_block_size;
	oracle_hz = s->ticks_per_second;
	oracle_free_memory_level = s->free_memory;
	oracle_rng_state = (uint64_t)s->seed;
	oracle_evictor_after_each = s->evictor_after_each;
	arc_c_min = s->c_min;
	arc_c_max = s->c_max;
	arc_c = arc_c_min;
#if !ORACLE_ARC_22
	arc_p = arc_c >> 1;
#endif
	arc_sys_free = s->sys_free;
	for (int i = 0; i < oracle_ntunables; i++) {
		if (s->tunable_set[i])
			oracle_tunable_set(i, s->tunable[i]);
	}
}

void
oracle_arc_tunables(int64_t values[ORACLE_MAX_TUNABLES])
{
	for (int i = 0; i < oracle_ntunables; i++)
		values[i] = oracle_tunable_get(i);
}

/* ---- snapshots ---- */

static arc_state_t *
oracle_state(enum oracle_state s)
{
	switch (s) {
	case OS_ANON: return (arc_anon);
	case OS_MRU: return (arc_mru);
	case OS_MRU_GHOST: return (arc_mru_ghost);
	case OS_MFU: return (arc_mfu);
	case OS_MFU_GHOST: return (arc_mfu_ghost);
#if ORACLE_ARC_22
	default: return (arc_uncached);
#else
	default: abort();
#endif
	}
}

static uint64_t
oracle_wmsum(wmsum_t *w)
{
	return ((uint64_t)wmsum_value(w));
}

static int
oracle_compare_keys(const void *a, const void *b)
{
	int64_t x = ((const oracle_header_t *)a)->key, y = ((const oracle_header_t *)b)->key;
	return (x < y ? -1 : x > y);
}

static oracle_header_t *oracle_headers;
static int oracle_nheaders, oracle_headers_cap;

static oracle_header_t *
oracle_header_slot(void)
{
	if (oracle_nheaders == oracle_headers_cap) {
		oracle_headers_cap = oracle_headers_cap == 0 ? 64 : 2 * oracle_headers_cap;
		oracle_headers = realloc(oracle_headers, oracle_headers_cap * sizeof (oracle_header_t));
		if (oracle_headers == NULL)
			oracle_abort_trace("out of memory");
	}
	return (&oracle_headers[oracle_nheaders++]);
}

static void
oracle_describe(oracle_header_t *out, arc_buf_hdr_t *hdr, int64_t key)
{
	out->key = key;
	out->type = oracle_type_of(hdr);
	out->state = oracle_state_of(hdr->b_l1hdr.b_state);
	out->size = HDR_GET_LSIZE(hdr);
	out->has_data = hdr->b_l1hdr.b_pabd != NULL;
	out->shared_data = HDR_SHARED_DATA(hdr) != 0;
	out->refcount = (int64_t)zfs_refcount_count(&hdr->b_l1hdr.b_refcnt);
	out->prefetch = HDR_PREFETCH(hdr) != 0;
	out->prescient_prefetch = HDR_PRESCIENT_PREFETCH(hdr) != 0;
	out->arc_access = (int64_t)hdr->b_l1hdr.b_arc_access;
	/* arc_state_multilist_index_func's index (arc.c:7476), for the key the header has or will have */
	out->sublist = (int)((unsigned int)buf_hash(ORACLE_SPA_GUID, &(dva_t){ { ORACLE_DVA_WORD0, (uint64_t)key } },
	    ORACLE_BIRTH) % (unsigned int)zfs_multilist_num_sublists);
	out->linked = multilist_link_active(&hdr->b_l1hdr.b_arc_node);
}

static void
oracle_list_headers(void)
{
	oracle_nheaders = 0;
	int first = 0;
	for (int b = 0; b < ORACLE_BLOCK_BUCKETS; b++) {
		for (oracle_block_t *k = oracle_blocks[b]; k != NULL; k = k->next) {
			if (k->pending != NULL)
				oracle_describe(oracle_header_slot(), k->pending->buf->b_hdr, k->key);
		}
	}
	qsort(oracle_headers, oracle_nheaders, sizeof (oracle_header_t), oracle_compare_keys);
	for (enum oracle_state s = OS_MRU; s < ORACLE_STATES; s++) {
		/* 2.1's traces are data only; 2.2's state lists data, then metadata (ARC_BUFC_DATA is 0 there) */
		for (int type = ARC_BUFC_DATA; type <= (ORACLE_ARC_22 ? ARC_BUFC_METADATA : ARC_BUFC_DATA); type++) {
			multilist_t *ml = &oracle_state(s)->arcs_list[type];
			for (int i = 0; i < (int)multilist_get_num_sublists(ml); i++) {
				/* multilist_sublist_lock(ml, i), renamed _idx in 2.2.x: the same in every release */
				multilist_sublist_t *mls = &ml->ml_sublists[i];
				mutex_enter(&mls->mls_lock);
				for (arc_buf_hdr_t *hdr = multilist_sublist_head(mls); hdr != NULL;
				    hdr = multilist_sublist_next(mls, hdr)) {
					if (hdr->b_spa != 0)
						oracle_describe(oracle_header_slot(), hdr,
						    (int64_t)hdr->b_dva.dva_word[1]);
				}
				multilist_sublist_unlock(mls);
			}
		}
		first = oracle_nheaders;
		for (uint64_t i = 0; i <= buf_hash_table.ht_mask; i++) {
			for (arc_buf_hdr_t *hdr = buf_hash_table.ht_table[i]; hdr != NULL; hdr = hdr->b_hash_next) {
				if (hdr->b_l1hdr.b_state == oracle_state(s) &&
				    !multilist_link_active(&hdr->b_l1hdr.b_arc_node))
					oracle_describe(oracle_header_slot(), hdr, (int64_t)hdr->b_dva.dva_word[1]);
			}
		}
		qsort(oracle_headers + first, oracle_nheaders - first, sizeof (oracle_header_t),
		    oracle_compare_keys);
	}
}

void
oracle_snapshot(oracle_snapshot_t *o, bool headers)
{
	static uint64_t *waiters;
	static int waiters_cap;

	o->tick = oracle_now;
	o->c = arc_c;
	o->size_total = aggsum_value(&arc_sums.arcstat_size);
	memset(o->size, 0, sizeof (o->size));
	memset(o->esize, 0, sizeof (o->esize));
	memset(o->ghost_hits, 0, sizeof (o->ghost_hits));
#if ORACLE_ARC_22
	o->p = 0;
	o->meta = arc_meta;
	o->pd = arc_pd;
	o->pm = arc_pm;
	for (enum oracle_state s = OS_ANON; s < OS_COUNT; s++) {
		o->size[s][OT_DATA] = zfs_refcount_count(&oracle_state(s)->arcs_size[ARC_BUFC_DATA]);
		o->size[s][OT_METADATA] = zfs_refcount_count(&oracle_state(s)->arcs_size[ARC_BUFC_METADATA]);
		o->esize[s][OT_DATA] = zfs_refcount_count(&oracle_state(s)->arcs_esize[ARC_BUFC_DATA]);
		o->esize[s][OT_METADATA] = zfs_refcount_count(&oracle_state(s)->arcs_esize[ARC_BUFC_METADATA]);
	}
	arc_state_t *ghosts[2] = { arc_mru_ghost, arc_mfu_ghost };
	for (int g = 0; g < 2; g++) {
		o->ghost_hits[g][OT_DATA] = oracle_wmsum(&ghosts[g]->arcs_hits[ARC_BUFC_DATA]);
		o->ghost_hits[g][OT_METADATA] = oracle_wmsum(&ghosts[g]->arcs_hits[ARC_BUFC_METADATA]);
	}
#else
	o->p = arc_p;
	o->meta = o->pd = o->pm = 0;
	for (enum oracle_state s = OS_ANON; s < ORACLE_STATES; s++) {
		o->size[s][OT_DATA] = zfs_refcount_count(&oracle_state(s)->arcs_size);
		o->esize[s][OT_DATA] = zfs_refcount_count(&oracle_state(s)->arcs_esize[ARC_BUFC_DATA]);
	}
#endif
	o->evict_count = arc_evict_count;
	o->evict_needed = arc_evict_needed;
	o->need_free = arc_need_free;
	o->no_grow = arc_no_grow;
	o->warm = arc_warm;
	o->growtime = arc_growtime;
	o->nwaiters = 0;
	for (arc_evict_waiter_t *aw = list_head(&arc_evict_waiters); aw != NULL;
	    aw = list_next(&arc_evict_waiters, aw)) {
		if (o->nwaiters == waiters_cap) {
			waiters_cap = waiters_cap == 0 ? 8 : 2 * waiters_cap;
			waiters = realloc(waiters, waiters_cap * sizeof (uint64_t));
			if (waiters == NULL)
				oracle_abort_trace("out of memory");
		}
		waiters[o->nwaiters++] = aw->aew_count;
	}
	o->waiters = waiters;

	uint64_t *st = o->stats;
	st[ST_HITS] = oracle_wmsum(&arc_sums.arcstat_hits);
	st[ST_MISSES] = oracle_wmsum(&arc_sums.arcstat_misses);
	st[ST_DEMAND_DATA_HITS] = oracle_wmsum(&arc_sums.arcstat_demand_data_hits);
	st[ST_DEMAND_METADATA_HITS] = oracle_wmsum(&arc_sums.arcstat_demand_metadata_hits);
	st[ST_PREFETCH_DATA_HITS] = oracle_wmsum(&arc_sums.arcstat_prefetch_data_hits);
	st[ST_PREFETCH_METADATA_HITS] = oracle_wmsum(&arc_sums.arcstat_prefetch_metadata_hits);
	st[ST_DEMAND_DATA_MISSES] = oracle_wmsum(&arc_sums.arcstat_demand_data_misses);
	st[ST_DEMAND_METADATA_MISSES] = oracle_wmsum(&arc_sums.arcstat_demand_metadata_misses);
	st[ST_PREFETCH_DATA_MISSES] = oracle_wmsum(&arc_sums.arcstat_prefetch_data_misses);
	st[ST_PREFETCH_METADATA_MISSES] = oracle_wmsum(&arc_sums.arcstat_prefetch_metadata_misses);
	st[ST_MRU_HITS] = oracle_wmsum(&arc_sums.arcstat_mru_hits);
	st[ST_MFU_HITS] = oracle_wmsum(&arc_sums.arcstat_mfu_hits);
	st[ST_MRU_GHOST_HITS] = oracle_wmsum(&arc_sums.arcstat_mru_ghost_hits);
	st[ST_MFU_GHOST_HITS] = oracle_wmsum(&arc_sums.arcstat_mfu_ghost_hits);
#if ORACLE_ARC_22
	st[ST_UNCACHED_HITS] = oracle_wmsum(&arc_sums.arcstat_uncached_hits);
#else
	st[ST_UNCACHED_HITS] = 0;
#endif
	st[ST_DELETED] = oracle_wmsum(&arc_sums.arcstat_deleted);
	st[ST_EVICT_SKIP] = oracle_wmsum(&arc_sums.arcstat_evict_skip);
	st[ST_EVICT_NOT_ENOUGH] = oracle_wmsum(&arc_sums.arcstat_evict_not_enough);
	st[ST_MUTEX_MISS] = oracle_wmsum(&arc_sums.arcstat_mutex_miss);
	st[ST_DEMAND_HIT_PREDICTIVE_PREFETCH] = oracle_wmsum(&arc_sums.arcstat_demand_hit_predictive_prefetch);
	st[ST_DEMAND_HIT_PRESCIENT_PREFETCH] = oracle_wmsum(&arc_sums.arcstat_demand_hit_prescient_prefetch);
	st[ST_OVERHEAD_SIZE] = oracle_wmsum(&arc_sums.arcstat_overhead_size);
	st[ST_COMPRESSED_SIZE] = oracle_wmsum(&arc_sums.arcstat_compressed_size);
	st[ST_UNCOMPRESSED_SIZE] = oracle_wmsum(&arc_sums.arcstat_uncompressed_size);
	for (int i = ST_EVICTIONS; i < ST_COUNT; i++)
		st[i] = oracle_stat_extra[i];

	o->nheaders = 0;
	o->headers = NULL;
	if (headers) {
		oracle_list_headers();
		o->headers = oracle_headers;
		o->nheaders = oracle_nheaders;
	}
}
