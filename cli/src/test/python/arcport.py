#!/usr/bin/env python3
"""A port of the spec's zfs-2.1.1 ARC engine (org.arcref.zfs.ZfsArc) to Python 3, standard library only.

It replays an op trace (docs/arc-tool.md) with the trace's `# conform:` settings applied over the defaults of
docs/conformance.md and writes the conformance output (JSON Lines, format version 5), with `--headers` the header
listing too. It was written as a porter would write it, from the Java spec and docs/porting.md, and is checked
against the spec with `arc verify` (PortBugsTest in cli/ does so for every built-in trace).

It also carries planted port bugs (BUGS): realistic one-line mistakes a porter might make, each named for
the rule of docs/porting.md it breaks and switched on alone with `--bug NAME`. They measure what the conformance
suite catches: a bug the built-in traces let through shows a rule no built-in trace exercises.

Overview. C's integer types are emulated explicitly: a u64 value is a Python int in [0, 2^64) (u64() masks after
every arithmetic step that can wrap), an s64 value one in [-2^63, 2^63) (s64() reinterprets the bits), arc_adapt's
int values go through i32(). Comparisons of u64 values compare the unsigned ints; where C compares or subtracts as
s64 the code converts with s64() first. The ARC state is kept as the spec keeps it: a hash table of headers, the
pending writes apart, per listed state a multilist of unreferenced headers (doubly linked, head = newest) with a
size and an evictable size, and the u64 globals. Each public operation runs the evict zthr to quiescence at its
end when evictor_runs_after_each_operation is set; an allocation at severe overflow runs it inline while holding the
allocating header's hash lock (lockedStripe).

Usage:
  arcport.py TRACE [--headers] [--bug NAME] [--fix QUIRK]... [-o OUT]
  arcport.py --batch SPEC [--headers]   (SPEC: lines "BUG<TAB>TRACE<TAB>OUT[<TAB>FIX,FIX...]"; BUG "-": clean)
  arcport.py --list-bugs
"""

import hashlib
import json
import sys

M64 = (1 << 64) - 1


def u64(x):
    """The bits of x as C's uint64_t."""
    return x & M64


def s64(x):
    """The bits of x as C's int64_t."""
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def i32(x):
    """The bits of x as C's int (32-bit)."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


def u32(x):
    """The bits of x as C's unsigned int."""
    return x & 0xFFFFFFFF


# ---- planted port bugs ----

# name -> the rule of docs/porting.md it breaks (what a careful porter got wrong)
BUGS = {
    "sublist-hash-64bit": "4.4: a sublist is the low 32 bits of buf_hash modulo the count; all 64 bits taken modulo",
    "sublist-hash-signed32": "4.4: (unsigned int)buf_hash % n; the low 32 bits taken as a signed int (floor modulo)",
    "random-index-64bit": "4.4: random_in_range draws low32(next()) mod n; the whole 64-bit value taken modulo n",
    "random-index-signed32": "4.4: random_in_range's 32 bits taken as a signed int before the modulo",
    "evict-type-draws-missing": "4.4: arc_evict_type's two draws before MRU and before MFU eviction left out",
    "evict-type-draws-once": "4.4: arc_evict_type draws once instead of twice",
    "evict-type-draws-after-mru": "4.4: the MRU draws made after MRU is evicted instead of before",
    "evict-state-one-draw": "4.4: randomIndex drawn once per arc_evict_state call, not once per round of sublists",
    "hash-lock-4096": "4.3/4.4: hashLockOf masks with BUF_LOCKS - 1 = 2047; 4096 - 1 used",
    "write-takes-hash-lock": "4.3: a write's arc_write_ready allocation holds no hash lock; the header hashed first",
    "mutex-miss-counts-batch": "4.3: a mutex_miss is not counted against zfs_arc_evict_batch_limit; counted",
    "mutex-miss-ghost-hit-unlocked": "4.3: a ghost hit's data is allocated under its hash lock; allocated without it",
    "mintime-as-62ms": "4.7/2: ARC_MINTIME is hz >> 4 ticks; computed as MSEC_TO_TICK(62)",
    "ms-to-tick-floor": "4.7: MSEC_TO_TICK rounds up; rounded down",
    "ms-to-tick-int32": "4.7/5: MSEC_TO_TICK's ms * hz is 64-bit; computed in a 32-bit int",
    "ms-to-tick-ignores-hz": "4.7: lifetimes are ms converted to ticks at hz; milliseconds used as ticks",
    "prefetch-lifetime-le": "5.2: a prefetch is skipped while now - access < lifetime; <= used",
    "prescient-lifetime-swapped": "2: prescient prefetches live arc_min_prescient_prefetch_ms; the plain one used",
    "access-mintime-ge": "4.7: arc_access promotes from MRU when now > access + ARC_MINTIME; >= used",
    "growtime-in-seconds": "4.7: arc_growtime = now + arc_grow_retry * hz ticks; seconds added as ticks",
    "adapt-product-64bit": "5.3: arc_adapt's bytes * mult is a 32-bit int product (quirk O1); computed in 64 bits",
    "adapt-bytes-unsigned": "5.1: arc_adapt's bytes is a signed int; declared uint32_t (no sign extension)",
    "adapt-mru-min-signed": "5.3: arc_adapt's MIN(arc_c - arc_p_min, arc_p + incr) is unsigned; signed min used",
    "adapt-mfu-min-signed": "5.3: arc_adapt's MIN(incr, arc_p) in the MFU-ghost branch is unsigned; signed min used",
    "dampener-inverted": "2: zfs_arc_p_dampener_disable=1 means no cap of mult at 10; the flag read inverted",
    "overflow-shift-off-by-one": "5.2: arc_is_overflowing's arc_c >> zfs_arc_overflow_shift; shift - 1 used",
    "overflow-no-reserve":
        "2: ARC_HDR_USE_RESERVE doubles the SEVERE threshold for arc_write_ready; the flag "
        "dropped",
    "overflow-over-unsigned": "5.1: arc_is_overflowing's over is s64 (over < 0 is NONE); kept u64",
    "scatter-min-size-le": "2: an ABD is linear when size < zfs_abd_scatter_min_size; <= used",
    "need-free-full-sys-free": "2/4.2: arc_set_need_free's remaining is free - arc_sys_free / 2; arc_sys_free used",
    "need-free-unsigned": "5.1: arc_set_need_free's remaining is s64; u64 used, so MAX(-remaining, 0) misfires",
    "waiter-release-lt": "4.2: a waiter leaves when its count <= arc_evict_count; < used",
    "waiter-release-memory-ge": "4.2: waiters are released only when free memory > arc_sys_free / 2; >= used",
    "batch-limit-off-by-one": "2: at most zfs_arc_evict_batch_limit evictions per sublist visit; one more allowed",
    "batch-limit-counts-skips": "2: only evicting headers count against the batch limit; skipped prefetches counted",
    "evict-count-counts-ghosts": "4.1: destroyed ghost headers add 0 to arc_evict_count; their size added",
    "evict-total-no-ghosts": "2: arc_evict's total counts destroyed ghost headers; left out",
    "evict-mfu-target-stale": "1.2: arc_evict computes the MFU target after MRU eviction; computed before it",
    "evict-mru-target-no-anon": "4.1: arc_evict's MRU target is MIN(size - c, anon + mru - p); anon left out",
    "evict-count-u32": "5.1: arc_evict_count is u64; kept in 32 bits",
    "ghost-hit-adapts-twice": "2: a ghost hit's data is allocated without ARC_HDR_DO_ADAPT; adapted again",
    "hit-access-before-reference": "4.7: a demand hit takes its reference before arc_access; access first",
    "reap-no-grow-uses-shrink-shift": "5.2: arc_reap_cb_check's arc_c >> arc_no_grow_shift; arc_shrink_shift used",
    "reduce-p-shrink-shift":
        "5.2: arc_reduce_target_size's arc_p - (arc_p >> arc_shrink_shift); arc_p_min_shift "
        "used",
    "add-reference-keeps-prefetch": "2: add_reference's 0 -> 1 transition clears the prefetch flag; kept",
    "remove-reference-inserts-tail": "2: remove_reference's 1 -> 0 puts the header at its sublist's head; tail used",
    "overwrite-keeps-access-time": "1.4: arc_release's lone buffer sets b_arc_access to 0; left as it was",
    "overwrite-keeps-sublist": "4.4: a sublist is computed from the key a header gets; the old key's kept",
    "size-counted-before-wait": "4.2: arc_get_data_impl adds the size after arc_wait_for_eviction; before it",
    "ghost-hit-access-before-adapt": "1.2: a ghost hit runs arc_adapt, then arc_access; access first",
    "headers-unsigned-key-order": "1.1: held and pending headers are listed by signed 64-bit key; unsigned order used",
    "anon-grows-p-le-c": "5.2: arc_get_data_impl grows arc_p while arc_size < arc_c (unsigned); <= used",
}

_active_bug = None


def bug(name):
    """Whether the planted bug `name` is switched on."""
    if name not in BUGS:
        raise KeyError("unknown bug " + name)
    return _active_bug == name


# ---- the hash and the generator (docs/porting.md 4.4) ----

K1 = 0xB492B66FBE98F273
K2 = 0x9AE16A3B2F90404F
BUF_LOCKS = 2048


def rotr(x, r):
    return u64((x >> r) | (x << (64 - r)))


def cityhash4(w1, w2, w3, w4):
    mul = u64(K2 + 64)
    a = u64(w1 * K1)
    b = u64(w2)
    c = u64(w4 * mul)
    d = u64(w3 * K2)
    u = u64(rotr(u64(a + b), 43) + rotr(c, 30) + d)
    v = u64(a + rotr(u64(b + K2), 18) + c)
    x = u64((u ^ v) * mul)
    x ^= x >> 47
    y = u64((v ^ x) * mul)
    y ^= y >> 47
    return u64(y * mul)


def buf_hash(key):
    """buf_hash over the key's fixed identity: spa 1, DVA (1, key), birth 1."""
    return cityhash4(1, 1, u64(key), 1)


def sublist_of(key, n):
    h = buf_hash(key)
    if bug("sublist-hash-64bit"):
        return h % n
    if bug("sublist-hash-signed32"):
        return i32(h) % n
    return u32(h) % n


def hash_lock_of(key):
    return buf_hash(key) & ((4096 if bug("hash-lock-4096") else BUF_LOCKS) - 1)


class SplitMix64:
    def __init__(self, seed):
        self.state = u64(seed)

    def next(self):
        self.state = u64(self.state + 0x9E3779B97F4A7C15)
        z = self.state
        z = u64((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9)
        z = u64((z ^ (z >> 27)) * 0x94D049BB133111EB)
        return z ^ (z >> 31)

    def random_index(self, n):
        """multilist_get_random_index: random_in_range(n), no draw for one sublist."""
        if n == 1:
            return 0
        r = self.next()
        if bug("random-index-64bit"):
            return r % n
        if bug("random-index-signed32"):
            return i32(r) % n
        return u32(r) % n


# ---- states, headers, multilists ----

ANON, MRU, MRU_GHOST, MFU, MFU_GHOST = range(5)
STATE_NAMES = ["anon", "mru", "mru_ghost", "mfu", "mfu_ghost"]
LISTED = (MRU, MRU_GHOST, MFU, MFU_GHOST)


def is_ghost(state):
    return state in (MRU_GHOST, MFU_GHOST)


class Node:
    """A multilist link (b_arc_node); a bare Node is an eviction marker."""
    __slots__ = ("newer", "older", "linked")

    def __init__(self):
        self.newer = None
        self.older = None
        self.linked = False


class Header(Node):
    """arc_buf_hdr_t: one per key; refcount holds, each one buffer."""
    __slots__ = ("key", "size", "sublist", "state", "has_data", "shared_data", "refcount", "prefetch",
                 "prescient", "last_access")

    def __init__(self, key, size, sublist):
        super().__init__()
        self.key = key
        self.size = size
        self.sublist = sublist
        self.state = ANON
        self.has_data = False
        self.shared_data = False
        self.refcount = 0
        self.prefetch = False
        self.prescient = False
        self.last_access = 0

    def accounted(self):
        """What the header counts in its state's size: a ghost its logical size, else data + unshared buffers."""
        if is_ghost(self.state):
            return self.size
        return (self.size if self.has_data else 0) + (self.refcount - (1 if self.shared_data else 0)) * self.size


class Multilist:
    def __init__(self, n):
        self.heads = [None] * n
        self.tails = [None] * n

    def insert_head(self, idx, node):
        node.older = self.heads[idx]
        node.newer = None
        if self.heads[idx] is None:
            self.tails[idx] = node
        else:
            self.heads[idx].newer = node
        self.heads[idx] = node
        node.linked = True

    def insert_tail(self, idx, node):
        node.newer = self.tails[idx]
        node.older = None
        if self.tails[idx] is None:
            self.heads[idx] = node
        else:
            self.tails[idx].older = node
        self.tails[idx] = node
        node.linked = True

    def remove(self, idx, node):
        if node.newer is None:
            self.heads[idx] = node.older
        else:
            node.newer.older = node.older
        if node.older is None:
            self.tails[idx] = node.newer
        else:
            node.older.newer = node.newer
        node.newer = node.older = None
        node.linked = False

    def move_forward(self, idx, marker):
        """sublist_move_forward: the marker steps over the node just newer than it."""
        passed = marker.newer
        self.remove(idx, marker)
        marker.older = passed
        marker.newer = passed.newer
        if passed.newer is None:
            self.heads[idx] = marker
        else:
            passed.newer.older = marker
        passed.newer = marker
        marker.linked = True

    def headers(self):
        for head in self.heads:
            n = head
            while n is not None:
                if isinstance(n, Header):
                    yield n
                n = n.older


# ---- settings ----

CONFIG_DEFAULTS = [
    ("arc_c_min", 8192), ("arc_c_max", 65536), ("spa_maxblocksize", 2048), ("growth_window", 4096),
    ("arc_sys_free", 0), ("hz", 1000), ("zfs_multilist_num_sublists", 4), ("random_seed", 0),
    ("evictor_runs_after_each_operation", True), ("arc_free_memory", (1 << 61) - 1),
]
TUNABLE_DEFAULTS = [
    ("arc_p_min_shift", 4), ("arc_shrink_shift", 7), ("arc_no_grow_shift", 5), ("arc_grow_retry", 5),
    ("zfs_arc_overflow_shift", 8), ("zfs_arc_eviction_pct", 200), ("zfs_arc_evict_batch_limit", 10),
    ("zfs_arc_p_dampener_disable", True), ("arc_min_prefetch_ms", 1000), ("arc_min_prescient_prefetch_ms", 6000),
    ("zfs_abd_scatter_enabled", True), ("zfs_abd_scatter_min_size", 1536),
]
FIXES = ["WRITE_SHARES_LINEAR_12425", "REAP_ABOVE_C_MIN_13794", "ARC_P_GROWTH_CAP_14137",
         "ADAPT_MRU_64BIT_MULTIPLY_14094", "ADAPT_MFU_64BIT_MULTIPLY_OURS", "SHRINK_CLAMPS_ARC_P_OURS"]
RELEASE_2_1_16 = {"WRITE_SHARES_LINEAR_12425", "REAP_ABOVE_C_MIN_13794", "ARC_P_GROWTH_CAP_14137"}
BOOLEANS = {"evictor_runs_after_each_operation", "zfs_arc_p_dampener_disable", "zfs_abd_scatter_enabled"}


class Settings:
    def __init__(self):
        self.values = dict(CONFIG_DEFAULTS + TUNABLE_DEFAULTS)
        self.fixes = set()

    def set(self, name, text):
        if name not in self.values:
            raise ValueError("unknown setting " + name)
        if name in BOOLEANS:
            if text not in ("true", "false", "1", "0"):
                raise ValueError("bad boolean %s=%s" % (name, text))
            self.values[name] = text in ("true", "1")
        else:
            self.values[name] = int(text)

    def __getitem__(self, name):
        return self.values[name]

    def applies(self, fix):
        return fix in self.fixes


def write_header(out, trace_name, trace_sha256, settings, headers):
    """Line 1 of the conformance output (docs/conformance.md, "The header")."""
    zfs = "2.1.16" if RELEASE_2_1_16 <= settings.fixes else "2.1.1"
    header = {
        "format": "arcref-conformance", "version": 5, "zfs": zfs, "revision": 5, "trace": trace_name,
        "trace_sha256": trace_sha256, "headers": headers,
        "config": {name: settings[name] for name, _ in CONFIG_DEFAULTS},
        "tunables": {name: settings[name] for name, _ in TUNABLE_DEFAULTS},
        "fixes": {f: f in settings.fixes for f in FIXES},
    }
    out.write(json.dumps(header, separators=(",", ":")) + "\n")


# ---- the ARC ----

ADAPT, RESERVE = "ARC_HDR_DO_ADAPT", "ARC_HDR_USE_RESERVE"
NONE, SOME, SEVERE = range(3)
DEMAND, PREFETCH, PRESCIENT = "demand", "prefetch", "prescient"
STATS = ["hits", "misses", "demand_data_hits", "prefetch_data_hits", "demand_data_misses", "prefetch_data_misses",
         "mru_hits", "mfu_hits", "mru_ghost_hits", "mfu_ghost_hits", "deleted", "evict_skip", "evict_not_enough",
         "mutex_miss", "demand_hit_prescient_prefetch", "overhead_size", "compressed_size", "uncompressed_size",
         "evictions", "evicted_bytes", "evict_waits", "evictor_runs"]


class LostWakeup(Exception):
    pass


class Waiter:
    """arc_evict_waiter_t, compared by identity."""
    __slots__ = ("count",)

    def __init__(self, count):
        self.count = count


class Arc:
    def __init__(self, s):
        self.s = s
        self.n = s["zfs_multilist_num_sublists"]
        self.hz = s["hz"]
        self.free_memory = s["arc_free_memory"]
        self.hash_table = {}
        self.pending = {}
        self.lists = {st: Multilist(self.n) for st in LISTED}
        self.size = [0] * 5   # arcs_size, s64
        self.esize = [0] * 5  # arcs_esize[ARC_BUFC_DATA], s64
        self.waiters = []
        self.stats = dict.fromkeys(STATS, 0)
        self.random = SplitMix64(s["random_seed"])
        self.arc_c = s["arc_c_min"]            # u64
        self.arc_p = self.arc_c >> 1           # u64
        self.arc_size = 0                      # u64 (exact aggsum)
        self.no_grow = False
        self.warm = False
        self.growtime = 0                      # ticks
        self.evict_needed = False
        self.evict_count = 0                   # u64
        self.need_free = 0                     # s64
        self.now = 0                           # clock_t
        self.locked_stripe = -1
        self.evicted = []                      # the arc__evict / arc__delete probe of the current operation

    # -- time --

    def min_time(self):
        """ARC_MINTIME in ticks."""
        if bug("mintime-as-62ms"):
            return (62 * self.hz + 999) // 1000
        return self.hz >> 4

    def ms_to_ticks(self, ms):
        """MSEC_TO_TICK, rounded up."""
        if bug("ms-to-tick-floor"):
            return ms * self.hz // 1000
        if bug("ms-to-tick-int32"):
            return (i32(ms * self.hz) + 999) // 1000
        if bug("ms-to-tick-ignores-hz"):
            return ms
        return (ms * self.hz + 999) // 1000

    def available_memory(self):
        """arc_available_memory(): s64."""
        return s64(self.free_memory - self.s["arc_sys_free"])

    # -- operations --

    def read(self, key, size, kind, hold):
        h = self.hash_table.get(key)
        if h is not None and not is_ghost(h.state):
            outcome = self.hit(h, kind)
        else:
            if h is None:
                h = Header(key, size, sublist_of(key, self.n))
                self.hash_table[key] = h
                self.allocate_header_data(h, {ADAPT})
                outcome = "MISS"
            else:
                outcome = "GHOST_HIT_MRU" if h.state == MRU_GHOST else "GHOST_HIT_MFU"
                if bug("ghost-hit-access-before-adapt"):
                    self.access(h)
                self.adapt(h.size, MRU_GHOST if outcome == "GHOST_HIT_MRU" else MFU_GHOST)
                if not bug("ghost-hit-access-before-adapt"):
                    self.access(h)
                self.allocate_header_data(h, {ADAPT} if bug("ghost-hit-adapts-twice") else set())
            self.read_done(h, kind)
        if kind == DEMAND and not hold:
            self.destroy_buffer(h)
        return outcome

    def hit(self, h, kind):
        outcome = "HIT_MRU" if h.state == MRU else "HIT_MFU"
        if bug("hit-access-before-reference"):
            self.access(h)
        if kind == DEMAND:
            if h.prescient:
                self.stats["demand_hit_prescient_prefetch"] += 1
                h.prescient = False
            self.allocate_buffer(h)
        elif h.refcount == 0:
            h.prefetch = True
        if not bug("hit-access-before-reference"):
            self.access(h)
        if kind == PRESCIENT:
            h.prescient = True
        self.stats["hits"] += 1
        self.stats["prefetch_data_hits" if h.prefetch else "demand_data_hits"] += 1
        return outcome

    def read_done(self, h, kind):
        if kind != DEMAND and h.refcount == 0:
            h.prefetch = True
        if kind == PRESCIENT:
            h.prescient = True
        self.stats["misses"] += 1
        self.stats["prefetch_data_misses" if h.prefetch else "demand_data_misses"] += 1
        if h.state == ANON:
            self.access(h)
        if kind == DEMAND:
            self.allocate_buffer(h)

    def write(self, key, size):
        h = Header(key, size, sublist_of(key, self.n))
        self.pending[key] = h
        self.allocate_buffer(h)
        return "WRITTEN"

    def complete(self, key, hold):
        h = self.pending.pop(key)
        if bug("write-takes-hash-lock"):
            self.hash_table[key] = h
        self.write_ready(h)
        self.hash_table[key] = h
        self.access(h)
        if not hold:
            self.destroy_buffer(h)
        return "WRITE_COMPLETED"

    def release(self, key):
        self.destroy_buffer(self.hash_table[key])
        return "RELEASED"

    def overwrite(self, key, new_key):
        h = self.hash_table[key]
        sublist = sublist_of(new_key, self.n)
        if h.refcount == 1:
            # arc_release's lone buffer: the header goes to anon, unhashed, and loses its identity
            self.change_state(h, ANON)
            del self.hash_table[h.key]
            h.last_access = h.last_access if bug("overwrite-keeps-access-time") else 0
            h.key = new_key
            h.sublist = h.sublist if bug("overwrite-keeps-sublist") else sublist
            anon = h
        else:
            # another buffer remains: this one moves to a new anonymous header (arc_hdr_alloc)
            h.refcount -= 1
            self.size[h.state] -= h.size
            anon = Header(new_key, h.size, sublist)
            anon.refcount = 1
            self.size[ANON] += anon.size
        self.write_start(anon)
        self.pending[new_key] = anon
        return "OVERWRITTEN"

    def free(self, key):
        pending = self.pending.pop(key, None)
        if pending is not None:
            self.destroy_buffer(pending)
            return "FREED"
        h = self.hash_table.get(key)
        if h is None:
            return "NOT_CACHED"
        if h.refcount > 0:
            return "FREE_SKIPPED_HELD"
        self.destroy(h)
        return "FREED"

    def shrink(self, to_free):
        self.reduce_target_size(to_free)
        return "TARGET_REDUCED"

    def evict_step(self):
        if not self.evict_needed:
            return "IDLE"
        self.evict_cb()
        return "EVICTOR_RAN"

    def reap_step(self):
        free = self.available_memory()
        if free < 0:
            self.no_grow = True
            self.warm = True
            self.growtime = self.reap_growtime()
            to_free = self.reap_to_free(free)
            if to_free > 0:
                self.reduce_target_size(to_free)
            return "REAPED"
        shift = self.s["arc_shrink_shift"] if bug("reap-no-grow-uses-shrink-shift") else self.s["arc_no_grow_shift"]
        if free < self.arc_c >> shift:
            self.no_grow = True
        elif self.now >= self.growtime:
            self.no_grow = False
        return "IDLE"

    def reap_growtime(self):
        if bug("growtime-in-seconds"):
            return self.now + self.s["arc_grow_retry"]
        return self.now + self.s["arc_grow_retry"] * self.hz

    def reap_to_free(self, free):
        """arc_reap_cb's to_free, s64."""
        shift = self.s["arc_shrink_shift"]
        if self.s.applies("REAP_ABOVE_C_MIN_13794"):
            can_free = s64(self.arc_c - self.s["arc_c_min"])
            return s64((can_free >> shift) - free) if can_free > 0 else 0
        return s64((self.arc_c >> shift) - free)

    def tick(self, ticks):
        self.now += ticks
        return "TICKED"

    def memory(self, free):
        self.free_memory = free
        return "MEMORY_SET"

    def after_operation(self):
        if self.s["evictor_runs_after_each_operation"]:
            while self.evict_needed:
                self.evict_cb()

    # -- buffers, references, state changes --

    def allocate_buffer(self, h):
        """arc_buf_alloc_impl: share linear header data with a lone buffer, else a private copy."""
        self.add_reference(h)
        if h.has_data and h.refcount == 1 and not h.shared_data and self.linear_abd(h.size):
            h.shared_data = True
        else:
            self.get_data_impl(h, {ADAPT})
            self.stats["overhead_size"] += h.size

    def linear_abd(self, size):
        if bug("scatter-min-size-le"):
            return not self.s["zfs_abd_scatter_enabled"] or size <= self.s["zfs_abd_scatter_min_size"]
        return not self.s["zfs_abd_scatter_enabled"] or size < self.s["zfs_abd_scatter_min_size"]

    def destroy_buffer(self, h):
        if h.refcount > (1 if h.shared_data else 0):
            self.return_data(h)
            self.stats["overhead_size"] -= h.size
        else:
            h.shared_data = False
        self.remove_reference(h)

    def add_reference(self, h):
        if h.refcount == 0 and h.state != ANON:
            self.lists[h.state].remove(h.sublist, h)
            self.esize[h.state] -= h.accounted()
            h.prefetch = h.prefetch and bug("add-reference-keeps-prefetch")
        h.refcount += 1

    def remove_reference(self, h):
        h.refcount -= 1
        if h.refcount != 0 or h.state == ANON:
            return
        ml = self.lists[h.state]
        (ml.insert_tail if bug("remove-reference-inserts-tail") else ml.insert_head)(h.sublist, h)
        self.esize[h.state] += h.accounted()

    def write_start(self, h):
        """arc_write drops the stale b_pabd: unshared to the buffer, or freed."""
        if not h.has_data:
            return
        if h.shared_data:
            h.has_data = False
            h.shared_data = False
            self.count_header_data(-h.size)
            self.stats["overhead_size"] += h.size
        else:
            self.free_data(h)

    def write_ready(self, h):
        if self.s.applies("WRITE_SHARES_LINEAR_12425"):
            copies = not self.linear_abd(h.size)
        else:
            copies = self.s["zfs_abd_scatter_enabled"]
        if copies:
            self.allocate_header_data(h, {ADAPT, RESERVE})
        else:
            h.has_data = True
            h.shared_data = True
            self.count_header_data(h.size)
            self.stats["overhead_size"] -= h.size

    def change_state(self, h, to):
        old = h.accounted()
        if h.refcount == 0 and h.state != ANON and h.linked:
            self.lists[h.state].remove(h.sublist, h)
            self.esize[h.state] -= old
        self.size[h.state] -= old
        h.state = to
        new = h.accounted()
        self.size[to] += new
        if h.refcount == 0 and to != ANON:
            self.lists[to].insert_head(h.sublist, h)
            self.esize[to] += new

    def destroy(self, h):
        self.change_state(h, ANON)
        del self.hash_table[h.key]
        if h.has_data:
            self.free_data(h)

    def count_header_data(self, delta):
        self.stats["compressed_size"] += delta
        self.stats["uncompressed_size"] += delta

    def allocate_header_data(self, h, flags):
        self.get_data_impl(h, flags)
        h.has_data = True
        self.count_header_data(h.size)

    def free_data(self, h):
        self.return_data(h)
        h.has_data = False
        self.count_header_data(-h.size)

    def return_data(self, h):
        if h.linked:
            self.esize[h.state] -= h.size
        self.size[h.state] -= h.size
        self.arc_size = u64(self.arc_size - h.size)

    # -- arc_access --

    def access(self, h):
        st = h.state
        prefetched = h.prefetch or h.prescient
        referenced = h.refcount > 0
        touches, clears, hit = True, False, None
        if st == ANON:
            to = MRU
        elif st == MRU:
            hit = "mru_hits"
            if prefetched:
                to = MRU
                clears = referenced
                if not referenced:
                    hit = None
            else:
                if bug("access-mintime-ge"):
                    promote = self.now >= h.last_access + self.min_time()
                else:
                    promote = self.now > h.last_access + self.min_time()
                to = MFU if promote else MRU
                touches = promote
        elif st == MRU_GHOST:
            hit = "mru_ghost_hits"
            to = MRU if prefetched else MFU
            clears = prefetched and referenced
        elif st == MFU:
            to, hit = MFU, "mfu_hits"
        else:
            to, hit = (MRU if prefetched else MFU), "mfu_ghost_hits"
        if clears:
            h.prefetch = False
            h.prescient = False
        if touches:
            h.last_access = self.now
        if to != h.state:
            self.change_state(h, to)
        if hit is not None:
            self.stats[hit] += 1

    # -- allocation: arc_get_data_impl, arc_adapt --

    def get_data_impl(self, h, flags):
        state = h.state
        if ADAPT in flags:
            self.adapt(h.size, state)
        previously = self.locked_stripe
        hashed = self.hash_table.get(h.key) is h
        if bug("mutex-miss-ghost-hit-unlocked") and not flags:
            hashed = False  # the ghost hit's allocation, the only one without flags
        self.locked_stripe = hash_lock_of(h.key) if hashed else -1
        if bug("size-counted-before-wait"):
            self.arc_size = u64(self.arc_size + h.size)
        try:
            use_reserve = RESERVE in flags and not bug("overflow-no-reserve")
            self.wait_for_eviction(h.size * self.s["zfs_arc_eviction_pct"] // 100, use_reserve)
        finally:
            self.locked_stripe = previously
        if not bug("size-counted-before-wait"):
            self.arc_size = u64(self.arc_size + h.size)
        if not is_ghost(h.state):
            self.size[h.state] += h.size
            if h.linked:
                self.esize[h.state] += h.size
        if bug("anon-grows-p-le-c"):
            below = self.arc_size <= self.arc_c
        else:
            below = self.arc_size < self.arc_c
        if (not is_ghost(state) and below and h.state == ANON
                and u64(self.size[ANON] + self.size[MRU]) > self.arc_p and self.p_growth_allowed()):
            self.arc_p = min(self.arc_c, u64(self.arc_p + h.size))

    def p_growth_allowed(self):
        return not self.s.applies("ARC_P_GROWTH_CAP_14137") or self.arc_p < self.arc_c >> 1

    def adapt(self, size, state):
        """arc_adapt; bytes is a C int."""
        bytes_ = i32(size)
        c, p = self.arc_c, self.arc_p
        if is_ghost(state):
            p_min = c >> self.s["arc_p_min_shift"]
            mrug, mfug = self.size[MRU_GHOST], self.size[MFU_GHOST]
            if state == MRU_GHOST:
                mult = self.dampened(1 if mrug >= mfug else mfug // mrug)
                incr = self.ghost_increment("ADAPT_MRU_64BIT_MULTIPLY_14094", bytes_, mult)
                if bug("adapt-mru-min-signed"):
                    self.arc_p = u64(min(s64(c - p_min), s64(p + incr)))
                else:
                    self.arc_p = min(u64(c - p_min), u64(p + incr))
            else:
                mult = self.dampened(1 if mfug >= mrug else mrug // mfug)
                incr = self.ghost_increment("ADAPT_MFU_64BIT_MULTIPLY_OURS", bytes_, mult)
                if bug("adapt-mfu-min-signed"):
                    delta = u64(min(incr, s64(p)))
                else:
                    delta = min(u64(incr), p)
                self.arc_p = max(p_min, u64(p - delta))
        if (self.available_memory() < 0 or self.no_grow or not self.arc_c < self.s["arc_c_max"]
                or not self.arc_size >= u64(self.arc_c - self.s["growth_window"])):
            return
        clamped = u64(self.arc_c + bytes_) > self.s["arc_c_max"]
        self.arc_c = self.s["arc_c_max"] if clamped else u64(self.arc_c + bytes_)
        if not clamped and state == ANON and self.p_growth_allowed():
            self.arc_p = u64(self.arc_p + bytes_)
        self.arc_p = min(self.arc_p, self.arc_c)

    def dampened(self, quotient):
        mult = i32(quotient)
        disabled = self.s["zfs_arc_p_dampener_disable"]
        if bug("dampener-inverted"):
            disabled = not disabled
        return mult if disabled else min(mult, 10)

    def ghost_increment(self, fix, bytes_, mult):
        """bytes * mult: an int product (wraps), u64 with the fix; returned as the signed value C converts."""
        if self.s.applies(fix) or bug("adapt-product-64bit"):
            return bytes_ * mult
        if bug("adapt-bytes-unsigned"):
            return u32(bytes_ * mult)
        return i32(bytes_ * mult)

    def reduce_target_size(self, to_free):
        c = min(self.arc_c, self.arc_size)
        if c > to_free and u64(c - to_free) > self.s["arc_c_min"]:
            self.arc_c = u64(c - to_free)
            shift = self.s["arc_p_min_shift"] if bug("reduce-p-shrink-shift") else self.s["arc_shrink_shift"]
            q = u64(self.arc_p - (self.arc_p >> shift))
            self.arc_p = self.arc_c >> 1 if q > self.arc_c else q
        else:
            self.arc_c = self.s["arc_c_min"]
            if self.s.applies("SHRINK_CLAMPS_ARC_P_OURS") and self.arc_p > self.arc_c:
                self.arc_p = self.arc_c >> 1
        if self.arc_size > self.arc_c:
            self.evict_needed = True

    # -- overflow and waiters --

    def overflow_level(self, use_reserve):
        shift = self.s["zfs_arc_overflow_shift"] - (1 if bug("overflow-shift-off-by-one") else 0)
        overflow = s64(max(self.s["spa_maxblocksize"], self.arc_c >> shift))
        over = s64(self.arc_size - self.arc_c - overflow // 2)
        if bug("overflow-over-unsigned"):
            over = u64(over)
        if not use_reserve:
            overflow //= 2
        return NONE if over < 0 else SOME if over < overflow else SEVERE

    def wait_for_eviction(self, amount, use_reserve):
        level = self.overflow_level(use_reserve)
        if level == SOME:
            self.evict_needed = True
        elif level == SEVERE:
            last = 0
            if self.waiters:
                last = self.waiters[-1].count
            elif not self.evict_needed:
                self.evict_needed = True
            waiter = Waiter(u64(max(last, self.evict_count) + amount))
            self.waiters.append(waiter)
            self.set_need_free()
            self.stats["evict_waits"] += 1
            while any(w is waiter for w in self.waiters):
                if not self.evict_needed:
                    raise LostWakeup("lost wakeup: waiter %d" % waiter.count)
                self.evict_cb()

    def set_need_free(self):
        """arc_set_need_free."""
        half = self.s["arc_sys_free"] if bug("need-free-full-sys-free") else self.s["arc_sys_free"] // 2
        remaining = s64(self.free_memory - half)
        if bug("need-free-unsigned"):
            remaining = u64(remaining)
        if self.waiters:
            self.need_free = max(-remaining, s64(self.waiters[-1].count - self.evict_count))
        else:
            self.need_free = max(-remaining, 0)

    # -- the evict zthr --

    def evict_cb(self):
        self.stats["evictor_runs"] += 1
        evicted = self.evict()
        self.evict_needed = evicted != 0 and self.arc_size > self.arc_c
        if not self.evict_needed:
            self.waiters.clear()
            self.set_need_free()

    def evict_type_draws(self):
        """arc_evict_type's two random_in_range draws (their results are not used: data only)."""
        if bug("evict-type-draws-missing"):
            return
        self.random.random_index(self.n)
        if not bug("evict-type-draws-once"):
            self.random.random_index(self.n)

    def evict(self):
        """arc_evict: MRU, MFU, MRU ghost, MFU ghost; s64 targets."""
        total = 0
        anon = 0 if bug("evict-mru-target-no-anon") else self.size[ANON]
        target = min(s64(self.arc_size - self.arc_c), s64(anon + self.size[MRU] - self.arc_p))
        mfu_early = s64(self.arc_size - self.arc_c)
        if not bug("evict-type-draws-after-mru"):
            self.evict_type_draws()
        total += self.evict_impl(MRU, target)
        if bug("evict-type-draws-after-mru"):
            self.evict_type_draws()
        self.evict_type_draws()
        mfu_target = mfu_early if bug("evict-mfu-target-stale") else s64(self.arc_size - self.arc_c)
        total += self.evict_impl(MFU, mfu_target)
        ghosts = self.evict_impl(MRU_GHOST, s64(self.size[MRU] + self.size[MRU_GHOST] - self.arc_c))
        ghosts += self.evict_impl(MFU_GHOST, s64(self.size[MRU_GHOST] + self.size[MFU_GHOST] - self.arc_c))
        total += 0 if bug("evict-total-no-ghosts") else ghosts
        return u64(total)

    def evict_impl(self, state, request):
        es = self.esize[state]
        nbytes = min(es, request) if request > 0 and es > 0 else 0
        return 0 if nbytes == 0 else self.evict_state(self.lists[state], nbytes)

    def evict_state(self, ml, nbytes):
        """arc_evict_state: a marker at each sublist's tail, rounds of all sublists from a random one."""
        markers = [Node() for _ in range(self.n)]
        for i, m in enumerate(markers):
            ml.insert_tail(i, m)
        total = 0
        first = None
        while total < nbytes:
            if bug("evict-state-one-draw") and first is not None:
                idx = first
            else:
                idx = first = self.random.random_index(self.n)
            scan = 0
            i = 0
            while i < self.n and total < nbytes:
                e = self.evict_state_impl(ml, idx, markers[idx], u64(nbytes - total))
                scan += e
                total = u64(total + e)
                idx = 0 if idx + 1 >= self.n else idx + 1
                i += 1
            if scan == 0:
                self.stats["evict_not_enough"] += 1
                break
        for i, m in enumerate(markers):
            ml.remove(i, m)
        return total

    def evict_state_impl(self, ml, idx, marker, nbytes):
        """arc_evict_state_impl: one sublist from its marker toward the head, at most the batch limit."""
        evicted = 0
        real = 0
        budget = self.s["zfs_arc_evict_batch_limit"] + (1 if bug("batch-limit-off-by-one") else 0)
        while marker.newer is not None:
            if budget <= 0 or evicted >= nbytes:
                break
            n = marker.newer
            ml.move_forward(idx, marker)
            if not isinstance(n, Header):
                continue
            if self.locked_stripe >= 0 and hash_lock_of(n.key) == self.locked_stripe:
                self.stats["mutex_miss"] += 1
                if bug("mutex-miss-counts-batch"):
                    budget -= 1
                continue
            ghost = is_ghost(n.state)
            e = self.evict_header(n)
            evicted += e
            if not ghost or bug("evict-count-counts-ghosts"):
                real += e
            if e != 0 or bug("batch-limit-counts-skips"):
                budget -= 1
        self.evict_count = u64(self.evict_count + real)
        if bug("evict-count-u32"):
            self.evict_count = u32(self.evict_count)
        half = self.s["arc_sys_free"] // 2
        enough = self.free_memory >= half if bug("waiter-release-memory-ge") else self.free_memory > half
        if enough:
            while self.waiters and (self.waiters[0].count < self.evict_count if bug("waiter-release-lt")
                                    else self.waiters[0].count <= self.evict_count):
                self.waiters.pop(0)
        self.set_need_free()
        return evicted

    def evict_header(self, h):
        """arc_evict_hdr: a ghost is destroyed; a cached header goes to its ghost state unless a young prefetch."""
        if is_ghost(h.state):
            self.stats["deleted"] += 1
            self.evicted.append((h.key, h.size, h.state, None))
            self.destroy(h)
            return h.size
        if h.prefetch and self.prefetch_too_young(h):
            self.stats["evict_skip"] += 1
            return 0
        size = h.size
        self.evicted.append((h.key, size, h.state, MRU_GHOST if h.state == MRU else MFU_GHOST))
        self.free_data(h)
        self.change_state(h, MRU_GHOST if h.state == MRU else MFU_GHOST)
        self.stats["evictions"] += 1
        self.stats["evicted_bytes"] += size
        return size

    def prefetch_too_young(self, h):
        prescient = h.prescient and not bug("prescient-lifetime-swapped")
        ms = self.s["arc_min_prescient_prefetch_ms"] if prescient else self.s["arc_min_prefetch_ms"]
        age = s64(self.now - h.last_access)
        if bug("prefetch-lifetime-le"):
            return age <= self.ms_to_ticks(ms)
        return age < self.ms_to_ticks(ms)

    # -- the output --

    def header_list(self):
        """Pending writes by key, then per listed state its list sublist by sublist, then its held headers."""
        order = (lambda x: u64(x.key)) if bug("headers-unsigned-key-order") else (lambda x: x.key)
        out = sorted(self.pending.values(), key=order)
        held = {}
        for h in self.hash_table.values():
            if not h.linked:
                held.setdefault(h.state, []).append(h)
        for st in LISTED:
            out.extend(self.lists[st].headers())
            out.extend(sorted(held.get(st, []), key=order))
        return [{"key": h.key, "state": STATE_NAMES[h.state], "size": h.size, "has_data": h.has_data,
                 "shared_data": h.shared_data, "refcount": h.refcount, "prefetch": h.prefetch,
                 "prescient_prefetch": h.prescient, "arc_access": h.last_access, "sublist": h.sublist,
                 "linked": h.linked} for h in out]

    def line(self, index, line_no, op, outcome, headers):
        m = {"index": index, "line": line_no, "op": op, "outcome": outcome,
             "evicted": [{"key": k, "size": sz, "from": STATE_NAMES[f], "to": "destroyed" if t is None
                          else STATE_NAMES[t]} for k, sz, f, t in self.evicted],
             "tick": self.now, "arc_c": self.arc_c, "arc_p": self.arc_p, "arc_size": self.arc_size,
             "states": {STATE_NAMES[st]: {"size": u64(self.size[st]), "esize": u64(self.esize[st])}
                        for st in range(5)},
             "arc_evict_count": self.evict_count, "arc_evict_needed": self.evict_needed,
             "arc_need_free": u64(self.need_free), "arc_no_grow": self.no_grow, "arc_warm": self.warm,
             "arc_growtime": self.growtime, "waiters": [w.count for w in self.waiters],
             "stats": {k: u64(v) for k, v in self.stats.items()}}
        if headers:
            m["headers"] = self.header_list()
        return m


# ---- the trace ----

def number(word):
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(word[-1:].lower())
    return int(word[:-1]) * mult if mult else int(word)


def parse_trace(text):
    """@return (settings lines' assignments, [(line number, words)])"""
    assignments, ops = [], []
    for no, raw in enumerate(text.split("\n"), 1):
        if raw.startswith("# conform:"):
            assignments.extend(w.split("=", 1) for w in raw[len("# conform:"):].split())
        words = raw.split("#", 1)[0].lower().split()
        if words:
            ops.append((no, words))
    return assignments, ops


def apply(arc, words):
    """Runs one operation; @return (canonical op line, outcome)."""
    op = words[0]
    if op == "read":
        key, size = int(words[1]), number(words[2])
        kind = next((w for w in words[3:] if w in (DEMAND, PREFETCH, PRESCIENT)), DEMAND)
        hold = "hold" in words[3:]
        return "read %d %d %s%s" % (key, size, kind, " hold" if hold else ""), arc.read(key, size, kind, hold)
    if op == "write":
        key, size = int(words[1]), number(words[2])
        return "write %d %d" % (key, size), arc.write(key, size)
    if op == "complete":
        hold = "hold" in words[2:]
        return "complete %d%s" % (int(words[1]), " hold" if hold else ""), arc.complete(int(words[1]), hold)
    if op == "release":
        return "release %d" % int(words[1]), arc.release(int(words[1]))
    if op == "overwrite":
        return "overwrite %d %d" % (int(words[1]), int(words[2])), arc.overwrite(int(words[1]), int(words[2]))
    if op == "free":
        return "free %d" % int(words[1]), arc.free(int(words[1]))
    if op == "shrink":
        return "shrink %d" % number(words[1]), arc.shrink(number(words[1]))
    if op == "evict":
        return "evict", arc.evict_step()
    if op == "reap":
        return "reap", arc.reap_step()
    if op == "tick":
        return "tick %d" % number(words[1]), arc.tick(number(words[1]))
    if op == "memory":
        return "memory %d" % number(words[1]), arc.memory(number(words[1]))
    raise ValueError("unknown operation " + op)


def run(trace_path, out, headers, fixes=()):
    """Replays the op trace at trace_path with its settings and the quirk fixes, writing the conformance output."""
    with open(trace_path, encoding="utf-8") as f:
        text = f.read()
    if text.endswith("\n"):
        text = text[:-1]
    settings = Settings()
    assignments, ops = parse_trace(text)
    for name, value in assignments:
        settings.set(name, value)
    settings.fixes = set(fixes)
    lines = text.split("\n")
    sha = hashlib.sha256("".join(l.rstrip("\r") + "\n" for l in lines).encode("utf-8")).hexdigest()
    write_header(out, trace_path, sha, settings, headers)
    arc = Arc(settings)
    for index, (no, words) in enumerate(ops, 1):
        arc.evicted = []
        op, outcome = apply(arc, words)
        arc.after_operation()
        out.write(json.dumps(arc.line(index, no, op, outcome, headers), separators=(",", ":")) + "\n")


def main(argv):
    global _active_bug
    if "--list-bugs" in argv:
        for name, rule in BUGS.items():
            print(name + "\t" + rule)
        return 0
    headers = "--headers" in argv
    args = [a for a in argv if a != "--headers"]
    if args and args[0] == "--batch":
        with open(args[1], encoding="utf-8") as spec:
            for row in spec.read().splitlines():
                name, trace, out_path, fixes = (row.split("\t") + [""])[:4]
                _active_bug = None if name == "-" else name
                if _active_bug is not None:
                    bug(_active_bug)
                with open(out_path, "w", encoding="utf-8") as out:
                    try:
                        run(trace, out, headers, [f for f in fixes.split(",") if f])
                    except Exception as e:  # a planted bug may crash the port: its output ends there
                        out.write(json.dumps({"port_error": repr(e)}) + "\n")
        return 0
    fixes, out_path, trace = [], None, None
    i = 0
    while i < len(args):
        if args[i] == "--bug":
            _active_bug = args[i + 1]
            bug(_active_bug)
            i += 2
        elif args[i] == "--fix":
            fixes.append(args[i + 1])
            i += 2
        elif args[i] == "-o":
            out_path = args[i + 1]
            i += 2
        else:
            trace = args[i]
            i += 1
    if out_path:
        with open(out_path, "w", encoding="utf-8") as out:
            run(trace, out, headers, fixes)
    else:
        run(trace, sys.stdout, headers, fixes)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
