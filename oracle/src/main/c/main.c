/*
 * arc-oracle: runs an op trace through the real arc.c of one OpenZFS release (ORACLE_ZFS, as built by
 * oracle/scripts/build-oracle.sh) and writes the conformance output (format version 5: FORMAT_VERSION, docs/conformance.md) that `arc conform` writes for the spec, so that `arc verify SPEC ORACLE` compares them.
 *
 *   arc-oracle [--headers] [--name NAME] [--set NAME=VALUE]... [--switch NAME=on|off]... TRACE|-
 *   arc-oracle --serve [--switch NAME=on|off]...
 *   arc-oracle --tree [--jobs N] [--headers] [--name NAME] [--set NAME=VALUE]... [--switch NAME=on|off]... TREE|-
 *
 * The first form reads one trace (a file, or standard input) and writes its output on standard output; a bad
 * trace line, a setting arc.c cannot take or an operation the oracle rejects is one line on standard error
 * (arc-oracle: TRACE:LINE: ...) and exit status 2. The second form serves many traces over one process: a worker
 * process runs them one after the other, each on a fresh ARC (arc_init ... arc_fini), and a trace that fails or
 * crashes (a failed ASSERT) ends only its worker, which the server replaces. Requests on standard input:
 *
 *   trace BYTES HEADERS NAME\n     followed by BYTES bytes of trace text; HEADERS is 0 or 1
 *
 * and for each, on standard output, the conformance lines and then one of
 *
 *   @end ok | @end error MESSAGE | @end crash MESSAGE
 *
 * An error or crash ending is preceded by an empty line, which ends a line the failed worker left unfinished; readers
 * skip empty lines (no conformance line is empty).
 *
 * The third form runs a tree of transitions (a walk's states, each reached by its first path, and every transition out
 * of each), one fork per transition: explore() below.
 *
 * Settings are those of `arc conform`: the conformance defaults, then the trace's `# conform:` lines, then --set;
 * tunables nobody sets keep arc.c's own defaults, and the header reports what arc.c holds. Switches (docs/oracle.md):
 * exact_aggsum, no_header_memory, no_chunk_waste; all on unless turned off.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <openssl/evp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oracle.h"

#ifndef ORACLE_FIXES
#error "ORACLE_FIXES: the quirk fixes the compiled arc.c carries (build-oracle.sh defines it)"
#endif
#ifndef ORACLE_ZFS
#error "ORACLE_ZFS: the release the compiled arc.c follows (build-oracle.sh defines it)"
#endif

/* The spec's QuirkFix names of the release's ARC, in its order: the header's "fixes" object. */
static const char *const quirk_fixes[] = {
#if ORACLE_ARC_22
	"EVICT_ADJ_OVERFLOW_17255", "MFU_META_EVICTION_16546", "SHRINK_IMPROVEMENTS_16197"
#else
	"WRITE_SHARES_LINEAR_12425", "REAP_ABOVE_C_MIN_13794", "ARC_P_GROWTH_CAP_14137",
	"ADAPT_MRU_64BIT_MULTIPLY_14094", "ADAPT_MFU_64BIT_MULTIPLY_OURS", "SHRINK_CLAMPS_ARC_P_OURS"
#endif
};
#define	QUIRK_FIX_COUNT	(sizeof (quirk_fixes) / sizeof (quirk_fixes[0]))
static const char *const switch_names[SW_COUNT] = { "exact_aggsum", "no_header_memory", "no_chunk_waste" };
static const char *const state_names[OS_COUNT + 1] = {
	"anon", "mru", "mru_ghost", "mfu", "mfu_ghost", "uncached", "destroyed"
};
static const char *const type_names[OT_COUNT] = { "data", "metadata" };
static const char *const outcome_names[] = {
	"HIT_MRU", "HIT_MFU", "HIT_UNCACHED", "GHOST_HIT_MRU", "GHOST_HIT_MFU", "MISS", "WRITTEN", "WRITE_COMPLETED", "RELEASED",
	"OVERWRITTEN", "FREED", "FREE_SKIPPED_HELD", "NOT_CACHED", "TARGET_REDUCED", "EVICTOR_RAN", "REAPED", "IDLE",
	"TICKED", "MEMORY_SET"
};
static const char *const stat_names[ST_COUNT] = {
	"hits", "misses", "demand_data_hits", "demand_metadata_hits", "prefetch_data_hits", "prefetch_metadata_hits",
	"demand_data_misses", "demand_metadata_misses", "prefetch_data_misses", "prefetch_metadata_misses",
	"mru_hits", "mfu_hits", "mru_ghost_hits", "mfu_ghost_hits", "uncached_hits", "deleted", "evict_skip", "evict_not_enough",
	"mutex_miss", "demand_hit_predictive_prefetch", "demand_hit_prescient_prefetch", "overhead_size",
	"compressed_size", "uncompressed_size", "evictions", "evicted_bytes", "evict_waits", "evictor_runs"
};
/* The statistics the release's output lists, in its order: 2.2's all; 2.1's data-only ones. */
static const enum oracle_stat stats_printed[] = {
#if ORACLE_ARC_22
	ST_HITS, ST_MISSES, ST_DEMAND_DATA_HITS, ST_DEMAND_METADATA_HITS, ST_PREFETCH_DATA_HITS,
	ST_PREFETCH_METADATA_HITS, ST_DEMAND_DATA_MISSES, ST_DEMAND_METADATA_MISSES, ST_PREFETCH_DATA_MISSES,
	ST_PREFETCH_METADATA_MISSES, ST_MRU_HITS, ST_MFU_HITS, ST_MRU_GHOST_HITS, ST_MFU_GHOST_HITS, ST_UNCACHED_HITS,
	ST_DELETED, ST_EVICT_SKIP, ST_EVICT_NOT_ENOUGH, ST_MUTEX_MISS, ST_DEMAND_HIT_PREDICTIVE_PREFETCH,
	ST_DEMAND_HIT_PRESCIENT_PREFETCH,
#else
	ST_HITS, ST_MISSES, ST_DEMAND_DATA_HITS, ST_PREFETCH_DATA_HITS, ST_DEMAND_DATA_MISSES,
	ST_PREFETCH_DATA_MISSES, ST_MRU_HITS, ST_MFU_HITS, ST_MRU_GHOST_HITS, ST_MFU_GHOST_HITS, ST_DELETED,
	ST_EVICT_SKIP, ST_EVICT_NOT_ENOUGH, ST_MUTEX_MISS, ST_DEMAND_HIT_PRESCIENT_PREFETCH,
#endif
	ST_OVERHEAD_SIZE, ST_COMPRESSED_SIZE, ST_UNCOMPRESSED_SIZE, ST_EVICTIONS, ST_EVICTED_BYTES, ST_EVICT_WAITS,
	ST_EVICTOR_RUNS
};
#define	STATS_PRINTED	(sizeof (stats_printed) / sizeof (stats_printed[0]))

/* ---- where an error is reported ---- */

static const char *current_trace = "-";
static long current_line;

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *format, ...)
{
	va_list args;
	fprintf(stderr, "arc-oracle: %s:%ld: ", current_trace, current_line);
	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
	fputc('\n', stderr);
	fflush(stdout);
	_exit(2);
}

void
oracle_abort_trace(const char *message)
{
	fail("%s", message);
}

static void __attribute__((noreturn))
usage(const char *problem)
{
	fprintf(stderr, "arc-oracle: %s\nusage: arc-oracle [--headers] [--name NAME] [--set NAME=VALUE]... "
	    "[--switch NAME=on|off]... TRACE|-\n       arc-oracle --serve [--switch NAME=on|off]...\n"
	    "       arc-oracle --tree [--jobs N] [--headers] [--name NAME] [--set NAME=VALUE]... [--switch NAME=on|off]... "
	    "TREE|-\n",
	    problem);
	exit(2);
}

/* ---- settings ---- */

enum kind { K_U64, K_SIGNED, K_INT, K_UINT, K_BOOLEAN };

typedef struct setting {
	const char *name;
	enum kind kind;
	int tunable;	/* index in oracle_settings_t.tunable, or -1 for a config field */
} setting_t;

static const setting_t config_settings[] = {
	{ "arc_c_min", K_U64, -1 }, { "arc_c_max", K_U64, -1 }, { "spa_maxblocksize", K_U64, -1 },
	{ "growth_window", K_U64, -1 }, { "arc_sys_free", K_U64, -1 }, { "hz", K_INT, -1 },
	{ "zfs_multilist_num_sublists", K_INT, -1 }, { "random_seed", K_SIGNED, -1 },
	{ "evictor_runs_after_each_operation", K_BOOLEAN, -1 }, { "arc_free_memory", K_U64, -1 },
#if ORACLE_ARC_22
	{ "spa_old_maxblocksize", K_U64, -1 },
#endif
};
#define	NCONFIG	(sizeof (config_settings) / sizeof (config_settings[0]))

static enum kind
tunable_kind(int i)
{
	switch (oracle_tunable_kinds[i]) {
	case TK_UINT: return (K_UINT);
	case TK_BOOLEAN: return (K_BOOLEAN);
	default: return (K_INT);
	}
}

/* The conformance defaults (docs/conformance.md): ArcConfig.small(8 KiB, 64 KiB, 2 KiB), plentiful memory. */
static void
default_settings(oracle_settings_t *s)
{
	memset(s, 0, sizeof (*s));
	s->c_min = 8192;
	s->c_max = 65536;
	s->max_block_size = 2048;
	s->old_max_block_size = 131072;
	s->window = 4096;
	s->sys_free = 0;
	s->ticks_per_second = 1000;
	s->num_sublists = 4;
	s->seed = 0;
	s->evictor_after_each = true;
	s->free_memory = 2305843009213693951ULL;
	for (int i = 0; i < SW_COUNT; i++)
		s->switches[i] = true;
}

static bool
parse_integer(const char *text, bool is_signed, uint64_t *out)
{
	const char *p = text;
	bool negative = false;
	if (is_signed && *p == '-') {
		negative = true;
		p++;
	}
	if (*p == '\0')
		return (false);
	uint64_t v = 0;
	for (; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return (false);
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return (false);
		v = v * 10 + d;
	}
	if (is_signed) {
		if (negative ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
			return (false);
		v = negative ? (uint64_t)(-(int64_t)(v - 1) - 1) : v;
	}
	*out = v;
	return (true);
}

static uint64_t
parse_value(const char *name, enum kind kind, const char *text)
{
	uint64_t v;
	switch (kind) {
	case K_BOOLEAN:
		if (strcmp(text, "true") == 0)
			return (1);
		if (strcmp(text, "false") == 0)
			return (0);
		fail("%s must be true or false, was \"%.100s\"", name, text);
	case K_U64:
		if (parse_integer(text, false, &v))
			return (v);
		fail("%s must be an unsigned 64-bit integer, was \"%.100s\"", name, text);
	case K_SIGNED:
		if (parse_integer(text, true, &v))
			return (v);
		fail("%s must be a signed 64-bit integer, was \"%.100s\"", name, text);
	case K_UINT:
		if (parse_integer(text, false, &v) && v <= UINT32_MAX)
			return (v);
		fail("%s must be an unsigned 32-bit integer, was \"%.100s\"", name, text);
	default:
		if (parse_integer(text, true, &v) && (int64_t)v >= INT32_MIN && (int64_t)v <= INT32_MAX)
			return (v);
		fail("%s must be a 32-bit integer, was \"%.100s\"", name, text);
	}
}

static void
assign(oracle_settings_t *s, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	if (eq == NULL || eq == assignment)
		fail("a setting must be name=value, was \"%.100s\"", assignment);
	char name[64];
	size_t n = (size_t)(eq - assignment);
	if (n >= sizeof (name))
		fail("unknown setting \"%.100s\"", assignment);
	memcpy(name, assignment, n);
	name[n] = '\0';
	const char *text = eq + 1;
	for (int i = 0; i < oracle_ntunables; i++) {
		if (strcmp(name, oracle_tunable_names[i]) == 0) {
			s->tunable[i] = (int64_t)parse_value(name, tunable_kind(i), text);
			s->tunable_set[i] = true;
			return;
		}
	}
	for (size_t i = 0; i < NCONFIG; i++) {
		if (strcmp(name, config_settings[i].name) != 0)
			continue;
		uint64_t v = parse_value(name, config_settings[i].kind, text);
		switch (i) {
		case 0: s->c_min = v; break;
		case 1: s->c_max = v; break;
		case 2: s->max_block_size = v; break;
		case 3: s->window = v; break;
		case 4: s->sys_free = v; break;
		case 5: s->ticks_per_second = (int32_t)v; break;
		case 6: s->num_sublists = (int32_t)v; break;
		case 7: s->seed = (int64_t)v; break;
		case 8: s->evictor_after_each = v != 0; break;
		case 9: s->free_memory = v; break;
		default: s->old_max_block_size = v; break;
		}
		return;
	}
	fail("unknown setting \"%s\"", name);
}

static void
set_switch(oracle_settings_t *s, const char *assignment)
{
	for (int i = 0; i < SW_COUNT; i++) {
		size_t n = strlen(switch_names[i]);
		if (strncmp(assignment, switch_names[i], n) == 0 && assignment[n] == '=') {
			const char *v = assignment + n + 1;
			if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
				usage("a switch must be NAME=on or NAME=off");
			s->switches[i] = strcmp(v, "on") == 0;
			return;
		}
	}
	usage("unknown switch (known: exact_aggsum, no_header_memory, no_chunk_waste)");
}

/* ---- traces ---- */

typedef enum op_kind { OP_READ, OP_WRITE, OP_COMPLETE, OP_RELEASE, OP_OVERWRITE, OP_FREE, OP_SHRINK, OP_EVICT,
	OP_REAP, OP_TICK, OP_MEMORY } op_kind_t;

typedef struct op {
	op_kind_t kind;
	long line;
	int64_t key, key2;
	uint64_t amount;
	enum oracle_read_kind read_kind;
	bool hold;
	enum oracle_type type;	/* read and write: 2.2's `meta` word */
	bool uncached;		/* read and write: 2.2's `uncached` word (ARC_FLAG_UNCACHED, arc_write's uncached) */
	int depth;		/* a tree's transition: the depth of the state it leaves (explore) */
} op_t;

typedef struct trace {
	op_t *ops;
	int nops, cap;
	char sha256[65];
} trace_t;

static int
split_words(char *text, char **words, int max)
{
	int n = 0;
	for (char *p = strtok(text, " \t\f\v"); p != NULL; p = strtok(NULL, " \t\f\v")) {
		if (n == max)
			return (max + 1);
		words[n++] = p;
	}
	return (n);
}

static int64_t
parse_key(const char *word, const char *name)
{
	uint64_t v;
	if (!parse_integer(word, true, &v))
		fail("%s must be a 64-bit integer, got \"%.100s\"", name, word);
	return ((int64_t)v);
}

static uint64_t
parse_amount(const char *word, const char *name)
{
	char digits[32];
	size_t n = strlen(word);
	uint64_t unit = 1;
	if (n > 0 && n < sizeof (digits)) {
		char last = (char)toupper((unsigned char)word[n - 1]);
		if (last == 'K' || last == 'M' || last == 'G') {
			unit = last == 'K' ? 1ULL << 10 : last == 'M' ? 1ULL << 20 : 1ULL << 30;
			n--;
		}
		memcpy(digits, word, n);
		digits[n] = '\0';
		uint64_t v;
		if (parse_integer(digits, true, &v) && (int64_t)v >= 0 && v <= (uint64_t)INT64_MAX / unit)
			return (v * unit);
	}
	fail("%s must be a non-negative integer with an optional K, M or G suffix, got \"%.100s\"", name, word);
}

static bool
word_is(const char *word, const char *name)
{
	return (strcasecmp(word, name) == 0);
}

/* 2.2's words after a read's or a write's size: `meta` and `uncached` (any order is accepted) */
/* The conformance format's version of the engine's lines (ConformanceFormat.version). */
#define	FORMAT_VERSION	"5"
/*
 * The revision of the spec's behaviour (BehaviourRevision.current) that arc.c, under this harness's switches,
 * is checked to follow: the header's "revision", which arc verify does not compare but notes when it differs.
 */
#define	SPEC_REVISION	(ORACLE_ARC_22 ? 2 : 5)
#define	META_WORDS	(ORACLE_ARC_22 ? 1 : 0)
#define	UNCACHED_WORDS	(ORACLE_ARC_22 ? 1 : 0)

static void
parse_op(char *text, op_t *op)
{
	char *w[8];
	int n = split_words(text, w, 7);
	static const struct { const char *name; op_kind_t kind; int max; } ops[] = {
		{ "read", OP_READ, 5 + META_WORDS + UNCACHED_WORDS }, { "write", OP_WRITE, 3 + META_WORDS + UNCACHED_WORDS }, { "complete", OP_COMPLETE, 3 },
		{ "release", OP_RELEASE, 2 }, { "overwrite", OP_OVERWRITE, 3 }, { "free", OP_FREE, 2 },
		{ "shrink", OP_SHRINK, 2 }, { "evict", OP_EVICT, 1 }, { "reap", OP_REAP, 1 },
		{ "tick", OP_TICK, 2 }, { "memory", OP_MEMORY, 2 },
	};
	int which = -1;
	for (int i = 0; i < (int)(sizeof (ops) / sizeof (ops[0])); i++) {
		if (word_is(w[0], ops[i].name))
			which = i;
	}
	if (which < 0)
		fail("unknown operation \"%.100s\" (expected read, write, complete, release, overwrite, free, "
		    "shrink, evict, reap, tick or memory)", w[0]);
	if (n > ops[which].max)
		fail("too many fields for %s: expected at most %d arguments", w[0], ops[which].max - 1);
	static const char *const needs[][3] = {
		{ "", "key", "size" }, { "", "key", "size" }, { "", "key", "" }, { "", "key", "" },
		{ "", "key", "newKey" }, { "", "key", "" }, { "", "bytes", "" }, { "", "", "" }, { "", "", "" },
		{ "", "ticks", "" }, { "", "bytes", "" },
	};
	for (int i = 1; i <= 2; i++) {
		if (needs[which][i][0] != '\0' && n <= i && !(ops[which].kind == OP_COMPLETE && i == 2))
			fail("%s needs %s as argument %d", w[0], needs[which][i], i);
	}
	op->kind = ops[which].kind;
	op->hold = false;
	op->read_kind = RK_DEMAND;
	op->type = OT_DATA;
	op->uncached = false;
	switch (op->kind) {
	case OP_READ:
		op->key = parse_key(w[1], "key");
		op->amount = parse_amount(w[2], "size");
		for (int i = 3; i < n; i++) {
			if (word_is(w[i], "demand"))
				op->read_kind = RK_DEMAND;
			else if (word_is(w[i], "prefetch"))
				op->read_kind = RK_PREFETCH;
			else if (word_is(w[i], "prescient"))
				op->read_kind = RK_PRESCIENT;
			else if (word_is(w[i], "hold"))
				op->hold = true;
			else if (ORACLE_ARC_22 && word_is(w[i], "meta"))
				op->type = OT_METADATA;
			else if (ORACLE_ARC_22 && word_is(w[i], "uncached"))
				op->uncached = true;
			else if (ORACLE_ARC_22)
				fail("expected demand, prefetch, prescient, hold, meta or uncached, got \"%.100s\"", w[i]);
			else
				fail("expected demand, prefetch, prescient or hold, got \"%.100s\"", w[i]);
		}
		break;
	case OP_WRITE:
		op->key = parse_key(w[1], "key");
		op->amount = parse_amount(w[2], "size");
		for (int i = 3; i < n; i++) {
			if (word_is(w[i], "meta"))
				op->type = OT_METADATA;
			else if (word_is(w[i], "uncached"))
				op->uncached = true;
			else
				fail("expected meta or uncached, got \"%.100s\"", w[i]);
		}
		break;
	case OP_COMPLETE:
		op->key = parse_key(w[1], "key");
		if (n > 2) {
			if (!word_is(w[2], "hold"))
				fail("expected hold, got \"%.100s\"", w[2]);
			op->hold = true;
		}
		break;
	case OP_OVERWRITE:
		op->key = parse_key(w[1], "key");
		op->key2 = parse_key(w[2], "newKey");
		break;
	case OP_RELEASE:
	case OP_FREE:
		op->key = parse_key(w[1], "key");
		break;
	case OP_SHRINK:
	case OP_MEMORY:
		op->amount = parse_amount(w[1], "bytes");
		break;
	case OP_TICK:
		op->amount = parse_amount(w[1], "ticks");
		break;
	default:
		break;
	}
}

/* The operation in canonical op-trace form (Operation.toTraceLine). */
static void
canonical(const op_t *op, char *out, size_t size)
{
	static const char *const kinds[] = { "demand", "prefetch", "prescient" };
	switch (op->kind) {
	case OP_READ:
		snprintf(out, size, "read %" PRId64 " %" PRIu64 " %s%s%s%s", op->key, op->amount, kinds[op->read_kind],
		    op->hold ? " hold" : "", op->type == OT_METADATA ? " meta" : "", op->uncached ? " uncached" : "");
		break;
	case OP_WRITE:
		snprintf(out, size, "write %" PRId64 " %" PRIu64 "%s%s", op->key, op->amount,
		    op->type == OT_METADATA ? " meta" : "", op->uncached ? " uncached" : "");
		break;
	case OP_COMPLETE:
		snprintf(out, size, "complete %" PRId64 "%s", op->key, op->hold ? " hold" : "");
		break;
	case OP_RELEASE:
		snprintf(out, size, "release %" PRId64, op->key);
		break;
	case OP_OVERWRITE:
		snprintf(out, size, "overwrite %" PRId64 " %" PRId64, op->key, op->key2);
		break;
	case OP_FREE:
		snprintf(out, size, "free %" PRId64, op->key);
		break;
	case OP_SHRINK:
		snprintf(out, size, "shrink %" PRIu64, op->amount);
		break;
	case OP_EVICT:
		snprintf(out, size, "evict");
		break;
	case OP_REAP:
		snprintf(out, size, "reap");
		break;
	case OP_TICK:
		snprintf(out, size, "tick %" PRIu64, op->amount);
		break;
	case OP_MEMORY:
		snprintf(out, size, "memory %" PRIu64, op->amount);
		break;
	}
}

/*
 * A tree's operation line: `DEPTH ID OPERATION`, DEPTH the depth of the state the transition leaves (the root's is
 * 0), ID the transition's id, which its output line gives as its `line`. A transition is followed by its target's
 * transitions (one deeper) when its target's first path is its own: the tree is the walk's spanning tree in
 * depth-first order, every transition of a state listed together.
 */
static void
parse_tree_op(char *text, op_t *op, int previous_depth)
{
	char *w[2];
	for (int i = 0; i < 2; i++) {
		while (isspace((unsigned char)*text))
			text++;
		w[i] = text;
		while (*text != '\0' && !isspace((unsigned char)*text))
			text++;
		if (*text == '\0')
			fail("a tree's line must be DEPTH ID OPERATION");
		*text++ = '\0';
	}
	uint64_t depth, id;
	if (!parse_integer(w[0], false, &depth) || depth > (uint64_t)previous_depth + 1 || depth > 1000)
		fail("a transition's depth must be at most one more than the one before it (%d), was \"%.100s\"",
		    previous_depth, w[0]);
	if (!parse_integer(w[1], false, &id) || id > (uint64_t)LONG_MAX)
		fail("a transition's id must be a non-negative integer, was \"%.100s\"", w[1]);
	parse_op(text, op);
	op->depth = (int)depth;
	op->line = (long)id;
}

/*
 * Reads a trace's text: its lines (ended by \n, \r\n or \r, as Java's readLine), their SHA-256 (each line followed
 * by \n), the `# conform:` assignments applied to *settings, and the operations; with tree, a tree's (its lines as
 * parse_tree_op reads them).
 */
static void
read_trace(char *text, size_t length, oracle_settings_t *settings, trace_t *trace, bool tree)
{
	EVP_MD_CTX *digest = EVP_MD_CTX_new();
	EVP_DigestInit_ex(digest, EVP_sha256(), NULL);
	memset(trace, 0, sizeof (*trace));
	char *p = text, *end = text + length;
	current_line = 0;
	while (p < end) {
		char *eol = p;
		while (eol < end && *eol != '\n' && *eol != '\r')
			eol++;
		char *next = eol;
		if (next < end && *next++ == '\r' && next < end && *next == '\n')
			next++;
		*eol = '\0';
		current_line++;
		EVP_DigestUpdate(digest, p, (size_t)(eol - p));
		EVP_DigestUpdate(digest, "\n", 1);
		if (strlen(p) != (size_t)(eol - p))
			fail("the trace contains a NUL byte");
		char *hash = strchr(p, '#');
		if (hash != NULL) {
			*hash = '\0';
			char *comment = hash + 1;
			while (isspace((unsigned char)*comment))
				comment++;
			if (strncmp(comment, "conform:", 8) == 0) {
				char *w[256];
				int n = split_words(comment + 8, w, 255);
				if (n > 255)
					fail("too many settings on one line");
				for (int i = 0; i < n; i++)
					assign(settings, w[i]);
			}
		}
		char *s = p;
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '\0') {
			if (trace->nops == trace->cap) {
				trace->cap = trace->cap == 0 ? 64 : 2 * trace->cap;
				trace->ops = realloc(trace->ops, trace->cap * sizeof (op_t));
				if (trace->ops == NULL)
					fail("out of memory");
			}
			op_t *op = &trace->ops[trace->nops++];
			op->line = current_line;
			op->depth = 0;
			if (tree)
				parse_tree_op(s, op, trace->nops == 1 ? -1 : trace->ops[trace->nops - 2].depth);
			else
				parse_op(s, op);
		}
		p = next;
	}
	unsigned char sum[32];
	EVP_DigestFinal_ex(digest, sum, NULL);
	EVP_MD_CTX_free(digest);
	for (int i = 0; i < 32; i++)
		snprintf(trace->sha256 + 2 * i, 3, "%02x", sum[i]);
}

/* ---- output ---- */

static void
json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (c < 0x20)
				fprintf(out, "\\u%04x", c);
			else
				fputc(c, out);
		}
	}
	fputc('"', out);
}

static const char *
boolean(bool b)
{
	return (b ? "true" : "false");
}

static void
write_header(FILE *out, const char *name, const trace_t *trace, const oracle_settings_t *s, bool headers)
{
	fprintf(out, "{\"format\":\"arcref-conformance\",\"version\":%s,\"zfs\":\"" ORACLE_ZFS
	    "\",\"revision\":%d,\"trace\":", FORMAT_VERSION, SPEC_REVISION);
	json_string(out, name);
	fprintf(out, ",\"trace_sha256\":\"%s\",\"headers\":%s,\"config\":{", trace->sha256, boolean(headers));
	fprintf(out, "\"arc_c_min\":%" PRIu64 ",\"arc_c_max\":%" PRIu64 ",\"spa_maxblocksize\":%" PRIu64
	    ",\"growth_window\":%" PRIu64 ",\"arc_sys_free\":%" PRIu64 ",\"hz\":%d,\"zfs_multilist_num_sublists\":%d"
	    ",\"random_seed\":%" PRId64 ",\"evictor_runs_after_each_operation\":%s,\"arc_free_memory\":%" PRIu64,
	    s->c_min, s->c_max, s->max_block_size, s->window, s->sys_free, s->ticks_per_second, s->num_sublists,
	    s->seed, boolean(s->evictor_after_each), s->free_memory);
	if (ORACLE_ARC_22)
		fprintf(out, ",\"spa_old_maxblocksize\":%" PRIu64, s->old_max_block_size);
	fputc('}', out);
	int64_t t[ORACLE_MAX_TUNABLES];
	oracle_arc_tunables(t);
	fputs(",\"tunables\":{", out);
	for (int i = 0; i < oracle_ntunables; i++) {
		fprintf(out, "%s\"%s\":", i == 0 ? "" : ",", oracle_tunable_names[i]);
		if (oracle_tunable_kinds[i] == TK_BOOLEAN)
			fputs(boolean(t[i] != 0), out);
		else
			fprintf(out, "%" PRId64, t[i]);
	}
	fputs("},\"fixes\":{", out);
	for (size_t i = 0; i < QUIRK_FIX_COUNT; i++)
		fprintf(out, "%s\"%s\":%s", i == 0 ? "" : ",", quirk_fixes[i],
		    boolean(strstr(" " ORACLE_FIXES " ", quirk_fixes[i]) != NULL));
	fputs("}}\n", out);
}

/* 2.2's per-type sizes of one state, or ghost-hit bytes of one ghost state: {"data":...,"metadata":...}. */
static void
write_types(FILE *out, const uint64_t size[OT_COUNT], const uint64_t *esize)
{
	fputc('{', out);
	for (int t = 0; t < OT_COUNT; t++) {
		if (esize != NULL)
			fprintf(out, "%s\"%s\":{\"size\":%" PRIu64 ",\"esize\":%" PRIu64 "}", t == 0 ? "" : ",",
			    type_names[t], size[t], esize[t]);
		else
			fprintf(out, "%s\"%s\":%" PRIu64, t == 0 ? "" : ",", type_names[t], size[t]);
	}
	fputc('}', out);
}

static void
write_step(FILE *out, int index, const op_t *op, enum oracle_outcome outcome, bool headers)
{
	char text[128];
	canonical(op, text, sizeof (text));
	fprintf(out, "{\"index\":%d,\"line\":%ld,\"op\":\"%s\",\"outcome\":\"%s\",\"evicted\":[", index, op->line,
	    text, outcome_names[outcome]);
	int n;
	const oracle_eviction_t *e = oracle_take_evictions(&n);
	for (int i = 0; i < n; i++) {
		fprintf(out, "%s{\"key\":%" PRId64, i == 0 ? "" : ",", e[i].key);
		if (ORACLE_ARC_22)
			fprintf(out, ",\"type\":\"%s\"", type_names[e[i].type]);
		fprintf(out, ",\"size\":%" PRIu64 ",\"from\":\"%s\",\"to\":\"%s\"}", e[i].size,
		    state_names[e[i].from], state_names[e[i].to]);
	}
	oracle_snapshot_t s;
	oracle_snapshot(&s, headers);
	fprintf(out, "],\"tick\":%" PRId64 ",\"arc_c\":%" PRIu64, s.tick, s.c);
	if (ORACLE_ARC_22)
		fprintf(out, ",\"arc_meta\":%" PRIu64 ",\"arc_pd\":%" PRIu64 ",\"arc_pm\":%" PRIu64, s.meta, s.pd,
		    s.pm);
	else
		fprintf(out, ",\"arc_p\":%" PRIu64, s.p);
	fprintf(out, ",\"arc_size\":%" PRIu64 ",\"states\":{", s.size_total);
	for (int i = 0; i < ORACLE_STATES; i++) {
		fprintf(out, "%s\"%s\":", i == 0 ? "" : ",", state_names[i]);
		if (ORACLE_ARC_22)
			write_types(out, s.size[i], s.esize[i]);
		else
			fprintf(out, "{\"size\":%" PRIu64 ",\"esize\":%" PRIu64 "}", s.size[i][OT_DATA],
			    s.esize[i][OT_DATA]);
	}
	fputc('}', out);
	if (ORACLE_ARC_22) {
		fputs(",\"ghost_hits\":{\"mru_ghost\":", out);
		write_types(out, s.ghost_hits[0], NULL);
		fputs(",\"mfu_ghost\":", out);
		write_types(out, s.ghost_hits[1], NULL);
		fputc('}', out);
	}
	fprintf(out, ",\"arc_evict_count\":%" PRIu64 ",\"arc_evict_needed\":%s,\"arc_need_free\":%" PRIu64
	    ",\"arc_no_grow\":%s,\"arc_warm\":%s,\"arc_growtime\":%" PRId64 ",\"waiters\":[", s.evict_count,
	    boolean(s.evict_needed), s.need_free, boolean(s.no_grow), boolean(s.warm),
	    s.growtime);
	for (int i = 0; i < s.nwaiters; i++)
		fprintf(out, "%s%" PRIu64, i == 0 ? "" : ",", s.waiters[i]);
	fputs("],\"stats\":{", out);
	for (size_t i = 0; i < STATS_PRINTED; i++)
		fprintf(out, "%s\"%s\":%" PRIu64, i == 0 ? "" : ",", stat_names[stats_printed[i]],
		    s.stats[stats_printed[i]]);
	fputc('}', out);
	if (headers) {
		fputs(",\"headers\":[", out);
		for (int i = 0; i < s.nheaders; i++) {
			const oracle_header_t *h = &s.headers[i];
			fprintf(out, "%s{\"key\":%" PRId64, i == 0 ? "" : ",", h->key);
			if (ORACLE_ARC_22)
				fprintf(out, ",\"type\":\"%s\"", type_names[h->type]);
			fprintf(out, ",\"state\":\"%s\",\"size\":%" PRIu64 ",\"has_data\":%s,"
			    "\"shared_data\":%s,\"refcount\":%" PRId64 ",\"prefetch\":%s,\"prescient_prefetch\":%s,"
			    "\"arc_access\":%" PRId64 ",\"sublist\":%d,\"linked\":%s}",
			    state_names[h->state], h->size, boolean(h->has_data), boolean(h->shared_data), h->refcount,
			    boolean(h->prefetch), boolean(h->prescient_prefetch), h->arc_access, h->sublist,
			    boolean(h->linked));
		}
		fputc(']', out);
	}
	fputs("}\n", out);
}

static const char *
apply(const op_t *op, enum oracle_outcome *outcome)
{
	switch (op->kind) {
	case OP_READ:
		return (oracle_read(op->key, op->amount, op->read_kind, op->hold, op->type, op->uncached, outcome));
	case OP_WRITE: return (oracle_write(op->key, op->amount, op->type, op->uncached, outcome));
	case OP_COMPLETE: return (oracle_complete(op->key, op->hold, outcome));
	case OP_RELEASE: return (oracle_release(op->key, outcome));
	case OP_OVERWRITE: return (oracle_overwrite(op->key, op->key2, outcome));
	case OP_FREE: return (oracle_free(op->key, outcome));
	case OP_SHRINK: return (oracle_shrink(op->amount, outcome));
	case OP_EVICT: return (oracle_evict(outcome));
	case OP_REAP: return (oracle_reap(outcome));
	case OP_TICK: return (oracle_tick(op->amount, outcome));
	default: return (oracle_memory(op->amount, outcome));
	}
}

/*
 * Reads a trace (with tree, a tree), applies its settings and then the command line's (`sets`), creates the ARC
 * and writes the header.
 */
static void
start_arc(char *text, size_t length, const char *name, bool headers, oracle_settings_t *settings, char **sets,
    int nsets, bool tree, trace_t *trace)
{
	current_trace = name;
	read_trace(text, length, settings, trace, tree);
	current_line = 0;
	for (int i = 0; i < nsets; i++)
		assign(settings, sets[i]);
	const char *bad = oracle_arc_init(settings);
	if (bad != NULL)
		fail("%s", bad);
	oracle_arc_configure(settings);
	write_header(stdout, name, trace, settings, headers);
}

/* The tokens of a tree's --jobs N: N - 1 bytes in a pipe whose read end does not block (explore); -1 without. */
static int jobs_pipe[2] = { -1, -1 };

/*
 * Applies one operation (an operation the oracle rejects ends the process) and writes its line, numbered index.
 * Beside other processes of a tree (--jobs), the line goes out in one write of at most PIPE_BUF bytes, which a pipe
 * keeps whole.
 */
static void
run_step(const op_t *op, int index, bool headers)
{
	current_line = op->line;
	enum oracle_outcome outcome;
	const char *bad = apply(op, &outcome);
	if (bad != NULL) {
		char t[128];
		canonical(op, t, sizeof (t));
		fail("the oracle rejects \"%s\": %s", t, bad);
	}
	oracle_after_operation();
	if (jobs_pipe[0] < 0) {
		write_step(stdout, index, op, outcome, headers);
		return;
	}
	char *line;
	size_t n;
	FILE *m = open_memstream(&line, &n);
	if (m == NULL)
		fail("out of memory");
	write_step(m, index, op, outcome, headers);
	if (fclose(m) != 0)
		fail("out of memory");
	if (n > PIPE_BUF)
		fail("a line of %zu bytes is longer than PIPE_BUF (%d), so with --jobs it could interleave", n, PIPE_BUF);
	if (fflush(stdout) != 0 || write(STDOUT_FILENO, line, n) != (ssize_t)n)
		fail("cannot write the output: %s", strerror(errno));
	free(line);
}

/*
 * Runs one trace in this process (once per process: arc.c's state is global) and writes its output. Settings on
 * the command line (`sets`) apply after the trace's own.
 */
static void
run_trace(char *text, size_t length, const char *name, bool headers, oracle_settings_t *settings, char **sets,
    int nsets)
{
	trace_t trace;
	start_arc(text, length, name, headers, settings, sets, nsets, false, &trace);
	for (int i = 0; i < trace.nops; i++)
		run_step(&trace.ops[i], i + 1, headers);
	if (fflush(stdout) != 0)
		fail("cannot write the output: %s", strerror(errno));
	oracle_arc_fini();
}

/* ---- the tree ---- */

/* The threads of this process (/proc/self/stat's num_threads), or -1 if it cannot be read. */
static long
threads(void)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	if (f == NULL)
		return (-1);
	size_t n = fread(buf, 1, sizeof (buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the fields after the command's closing parenthesis: state is field 3, num_threads field 20 */
	char *p = strrchr(buf, ')');
	for (int field = 2; p != NULL && field < 20; field++)
		p = strchr(p + 1, ' ');
	return (p == NULL ? -1 : strtol(p + 1, NULL, 10));
}

/*
 * The tokens of --jobs N (jobs_pipe): a process that takes one runs its child beside itself, and the child gives it
 * back when its subtree is done, so that at most N processes run operations at once; without a token a child runs
 * while its parent waits.
 */
static bool
take_token(void)
{
	char token;
	return (jobs_pipe[0] >= 0 && read(jobs_pipe[0], &token, 1) == 1);
}

static void
give_token(void)
{
	if (write(jobs_pipe[1], "+", 1) != 1)
		fail("cannot give back a job token: %s", strerror(errno));
}

/* Waits for a child of the tree; if it failed, this process fails alike (explore). */
static void
reap(pid_t pid, long id)
{
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			fail("cannot wait for the transition's process: %s", strerror(errno));
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "arc-oracle: %s:%ld: the transition's process ended by signal %d (%s)\n",
		    current_trace, id, WTERMSIG(status), strsignal(WTERMSIG(status)));
		fflush(stdout);
		_exit(3);
	}
	if (WEXITSTATUS(status) != 0) {
		fflush(stdout);
		_exit(WEXITSTATUS(status));
	}
}

#define	MAX_BESIDE	64

/*
 * A depth-first search of the tree from the state this process holds, of the given depth: *next is the index of
 * its first transition. For each of its transitions, one at a time, the process forks; the child applies the
 * operation and writes its line (numbered depth + 1, its `line` the transition's id), then, if the tree lists the
 * target's transitions after it, explores them, and exits; the parent waits for the child before the next
 * transition and goes on after the child's subtree. The state's last transition needs no fork: the process, whose
 * state is needed no more, takes it itself. Every transition thus costs at most one fork, and runs on what the
 * state's first path left in the process, arc.c's function-static variables included, as a replay of that path
 * would. With a job token (--jobs) the parent does not wait: the child runs beside it, and the parent waits for it
 * before it ends. One process at a time writes (--jobs 1), or each line is one write of at most PIPE_BUF bytes
 * (run_step), so lines never interleave; with --jobs their order is not the tree's.
 *
 * Why a fork is sound here: fork copies only the calling thread, and between operations this process has one
 * thread (arc_driver.c: zthrs and taskqs are not started, the evict zthr's iteration runs on the caller's thread or
 * on a thread started and joined within the operation). Each state checks it before its first fork (threads()). A
 * child that fails or crashes ends the search: its parent, and each ancestor, exits with its exit status, or with
 * status 3 for a signal, after saying which transition crashed.
 */
static void
explore(const trace_t *tree, int *next, int depth, bool headers)
{
	pid_t beside[MAX_BESIDE];
	long beside_id[MAX_BESIDE];
	int nbeside = 0;
	if (*next < tree->nops && tree->ops[*next].depth == depth) {
		long n = threads();
		if (n != 1)
			fail("cannot fork with %ld threads (want 1)", n);
	}
	while (*next < tree->nops && tree->ops[*next].depth == depth) {
		const op_t *op = &tree->ops[*next];
		int subtree = *next + 1, after = subtree;
		while (after < tree->nops && tree->ops[after].depth > depth)
			after++;
		bool expands = subtree < after;
		if (after == tree->nops || tree->ops[after].depth != depth) {
			*next = subtree;
			run_step(op, depth + 1, headers);
			if (expands)
				explore(tree, next, depth + 1, headers);
			break;
		}
		current_line = op->line;
		if (fflush(stdout) != 0)
			fail("cannot write the output: %s", strerror(errno));
		bool alone = nbeside < MAX_BESIDE && take_token();
		pid_t pid = fork();
		if (pid < 0)
			fail("cannot fork: %s", strerror(errno));
		if (pid == 0) {
			*next = subtree;
			run_step(op, depth + 1, headers);
			if (expands)
				explore(tree, next, depth + 1, headers);
			if (fflush(stdout) != 0)
				fail("cannot write the output: %s", strerror(errno));
			if (alone)
				give_token();
			_exit(0);
		}
		if (alone) {
			beside[nbeside] = pid;
			beside_id[nbeside++] = op->line;
		} else {
			reap(pid, op->line);
		}
		*next = after;
	}
	for (int i = 0; i < nbeside; i++)
		reap(beside[i], beside_id[i]);
}

/*
 * Runs a tree (explore) from the state its settings give, with the header first. The parsed tree is moved to a
 * shared mapping, and the text freed, so that a fork copies none of their page table entries.
 */
static void
run_tree(char *text, size_t length, const char *name, bool headers, oracle_settings_t *settings, char **sets,
    int nsets, int jobs)
{
	if (jobs > 1) {
		if (pipe(jobs_pipe) != 0 || fcntl(jobs_pipe[0], F_SETFL, O_NONBLOCK) != 0)
			fail("cannot make the job tokens: %s", strerror(errno));
		for (int i = 1; i < jobs; i++)
			give_token();
	}
	trace_t tree;
	start_arc(text, length, name, headers, settings, sets, nsets, true, &tree);
	free(text);
	if (tree.nops > 0) {
		size_t bytes = (size_t)tree.nops * sizeof (op_t);
		op_t *shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (shared == MAP_FAILED)
			fail("cannot map the tree: %s", strerror(errno));
		memcpy(shared, tree.ops, bytes);
		free(tree.ops);
		if (mprotect(shared, bytes, PROT_READ) != 0)
			fail("cannot protect the tree: %s", strerror(errno));
		tree.ops = shared;
	}
	int next = 0;
	explore(&tree, &next, 0, headers);
	if (fflush(stdout) != 0)
		fail("cannot write the output: %s", strerror(errno));
}

static char *
read_all(FILE *in, size_t *length)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	while (buf != NULL) {
		size_t got = fread(buf + n, 1, cap - n, in);
		n += got;
		if (got == 0)
			break;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
		}
	}
	if (buf == NULL || ferror(in))
		fail("cannot read the trace");
	buf[n] = '\0';
	*length = n;
	return (buf);
}

/* ---- the server ---- */

/*
 * The server runs the traces in a worker process, one after the other in the same process: each trace starts with
 * oracle_arc_init and ends with oracle_arc_fini, which leave nothing of it behind (forking a process per trace
 * cost more than the trace: the fork and the page faults of a fresh address space). Where arc.c keeps state that
 * arc_fini leaves behind (2.2: oracle_arc_reusable is false), each worker runs one trace and ends after it. A trace that fails ends the
 * worker: rejected (fail(): its message on standard error, exit status 2) or crashed (a failed ASSERT aborts);
 * the server then writes the @end line with the worker's message and starts a new worker for the next trace. The
 * worker acknowledges a trace it ran to the end with one byte after its @end ok line.
 */

typedef struct worker {
	pid_t pid;		/* 0: none running */
	FILE *requests;		/* to the worker */
	int acks;		/* from the worker */
	int errors;		/* the worker's standard error */
} worker_t;

/* One line of what a failed worker printed on standard error, with control characters as spaces. */
static void
one_line(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	for (char *p = s; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	}
}

/* The worker's life: one trace per request until its input ends or a trace fails. */
static void __attribute__((noreturn))
work(FILE *requests, int acks, const oracle_settings_t *base)
{
	char request[1024];
	while (fgets(request, sizeof (request), requests) != NULL) {
		size_t bytes;
		int headers, offset;
		if (sscanf(request, "%zu %d %n", &bytes, &headers, &offset) != 2)
			_exit(3);
		char *name = request + offset;
		name[strcspn(name, "\n")] = '\0';
		char *text = malloc(bytes + 1);
		if (text == NULL || fread(text, 1, bytes, requests) != bytes)
			_exit(3);
		text[bytes] = '\0';
		oracle_settings_t settings = *base;
		run_trace(text, bytes, name, headers == 1, &settings, NULL, 0);
		free(text);
		printf("@end ok\n");
		if (fflush(stdout) != 0 || write(acks, "", 1) != 1)
			_exit(3);
		if (!oracle_arc_reusable)
			break;
	}
	_exit(0);
}

static void
start_worker(worker_t *w, const oracle_settings_t *base)
{
	int req[2], ack[2], err[2];
	if (pipe(req) != 0 || pipe(ack) != 0 || pipe(err) != 0) {
		perror("arc-oracle: pipe");
		exit(3);
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("arc-oracle: fork");
		exit(3);
	}
	if (pid == 0) {
		close(req[1]);
		close(ack[0]);
		close(err[0]);
		dup2(err[1], STDERR_FILENO);
		close(err[1]);
		work(fdopen(req[0], "r"), ack[1], base);
	}
	close(req[0]);
	close(ack[1]);
	close(err[1]);
	w->pid = pid;
	w->requests = fdopen(req[1], "w");
	w->acks = ack[0];
	w->errors = err[0];
}

/*
 * Reads what the worker wrote on standard error into message (n bytes so far), keeping the first size - 1 bytes
 * and discarding the rest. Returns false at end of file or on an error.
 */
static bool
read_message(int fd, char *message, size_t size, size_t *n)
{
	char sink[4096];
	bool room = *n < size - 1;
	ssize_t got = read(fd, room ? message + *n : sink, room ? size - 1 - *n : sizeof (sink));
	if (got <= 0)
		return (false);
	if (room)
		*n += (size_t)got;
	message[*n] = '\0';
	return (true);
}

/*
 * Waits for the worker to acknowledge the trace it was given. Returns true if it did; else the worker ended, and
 * its message is in message.
 */
static bool
await_worker(worker_t *w, char *message, size_t size)
{
	size_t n = 0;
	message[0] = '\0';
	struct pollfd fds[2] = { { w->acks, POLLIN, 0 }, { w->errors, POLLIN, 0 } };
	for (;;) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("arc-oracle: poll");
			exit(3);
		}
		if (fds[1].revents != 0 && !read_message(w->errors, message, size, &n))
			fds[1].fd = -1;
		if (fds[0].revents != 0) {
			char done;
			if (read(w->acks, &done, 1) == 1)
				return (true);
			while (fds[1].fd >= 0 && read_message(w->errors, message, size, &n))
				continue;
			return (false);
		}
	}
}

static void
stop_worker(worker_t *w, int *status)
{
	fclose(w->requests);
	close(w->acks);
	close(w->errors);
	while (waitpid(w->pid, status, 0) < 0 && errno == EINTR)
		continue;
	w->pid = 0;
}

static void
serve(const oracle_settings_t *base)
{
	worker_t worker = { 0 };
	char request[1024];
	static char message[4096];
	while (fgets(request, sizeof (request), stdin) != NULL) {
		size_t bytes;
		int headers, offset;
		if (sscanf(request, "trace %zu %d %n", &bytes, &headers, &offset) != 2 || (headers != 0 && headers != 1)) {
			fprintf(stderr, "arc-oracle: bad request \"%.100s\"\n", request);
			exit(2);
		}
		char *name = request + offset;
		name[strcspn(name, "\n")] = '\0';
		char *text = malloc(bytes + 1);
		if (text == NULL || fread(text, 1, bytes, stdin) != bytes) {
			fprintf(stderr, "arc-oracle: the request for %s ends early\n", name);
			exit(2);
		}
		if (worker.pid == 0)
			start_worker(&worker, base);
		bool sent = fprintf(worker.requests, "%zu %d %s\n", bytes, headers, name) >= 0 &&
		    fwrite(text, 1, bytes, worker.requests) == bytes && fflush(worker.requests) == 0;
		free(text);
		if (sent && await_worker(&worker, message, sizeof (message))) {
			if (!oracle_arc_reusable) {
				int status;
				stop_worker(&worker, &status);
			}
			continue;
		}
		int status;
		stop_worker(&worker, &status);
		one_line(message);
		/* a worker that aborts loses its buffered output and may have written part of a line: end that line */
		if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
			printf("\n@end error %s\n", message);
		else if (WIFEXITED(status))
			printf("\n@end crash exit status %d: %s\n", WEXITSTATUS(status), message);
		else
			printf("\n@end crash signal %d (%s): %s\n", WTERMSIG(status), strsignal(WTERMSIG(status)), message);
		fflush(stdout);
	}
	if (worker.pid != 0) {
		int status;
		stop_worker(&worker, &status);
	}
}

int
main(int argc, char **argv)
{
	oracle_settings_t settings;
	default_settings(&settings);
	bool headers = false, serving = false, tree = false;
	int jobs = 1;
	const char *name = NULL, *path = NULL;
	char **sets = calloc((size_t)argc, sizeof (char *));
	int nsets = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--headers") == 0) {
			headers = true;
		} else if (strcmp(argv[i], "--serve") == 0) {
			serving = true;
		} else if (strcmp(argv[i], "--tree") == 0) {
			tree = true;
		} else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc) {
			jobs = atoi(argv[++i]);
			if (jobs < 1 || jobs > 64)
				usage("--jobs takes 1 to 64");
		} else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) {
			name = argv[++i];
		} else if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
			sets[nsets++] = argv[++i];
		} else if (strcmp(argv[i], "--switch") == 0 && i + 1 < argc) {
			set_switch(&settings, argv[++i]);
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			usage("unknown option");
		} else if (path == NULL) {
			path = argv[i];
		} else {
			usage("more than one trace");
		}
	}
	static char out[1 << 16];
	setvbuf(stdout, out, _IOFBF, sizeof (out));
	/* a server learns of a dead worker from a failed write, not from SIGPIPE */
	signal(SIGPIPE, serving ? SIG_IGN : SIG_DFL);
	oracle_zfs_init();
	if (jobs != 1 && !tree)
		usage("--jobs is for --tree");
	if (serving) {
		if (path != NULL || nsets > 0 || headers || name != NULL || tree)
			usage("--serve takes only --switch");
		serve(&settings);
		return (0);
	}
	if (path == NULL)
		usage("no trace");
	FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	current_trace = path;
	if (in == NULL)
		fail("cannot open: %s", strerror(errno));
	size_t length;
	char *text = read_all(in, &length);
	if (tree)
		run_tree(text, length, name != NULL ? name : path, headers, &settings, sets, nsets, jobs);
	else
		run_trace(text, length, name != NULL ? name : path, headers, &settings, sets, nsets);
	return (0);
}
