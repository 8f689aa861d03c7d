package org.arcref.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.arcref.random.SplitMix64;

/**
 * Random op traces for zfs-2.2.0's engine, data and metadata mixed, each valid by construction: a key's type is
 * its parity (odd keys are metadata), a key's size is fixed at its first use, a release or overwrite names a key
 * the trace holds, a write or an overwrite's new key is fresh. Settings vary per trace: 1 to 4 sublists, three
 * block sizes, {@code arc_c_min} and {@code arc_c_max}, {@code SPA_OLD_MAXBLOCKSIZE}, the evictor's mode, the
 * prefetch lifetime and the seed; operations cover every op of the vocabulary, ghost hits of both lists and types
 * among them.
 */
final class Random22Traces {

    private Random22Traces() {
    }

    /**
     * @param seed the trace's seed
     * @param operations how many operations to draw (a few are skipped when their key is busy)
     * @return the trace's text, its settings in a {@code # conform:} line
     */
    static String trace(long seed, int operations) {
        SplitMix64 r = new SplitMix64(seed);
        long maxBlock = pick(r, 1024L, 2048L, 4096L);
        long cMin = pick(r, 8L, 16L, 32L) * 1024;
        long cMax = cMin * pick(r, 1L, 2L, 4L);
        StringBuilder t = new StringBuilder();
        t.append("# conform: arc_c_min=").append(cMin).append(" arc_c_max=").append(cMax)
                .append(" spa_maxblocksize=").append(maxBlock).append(" growth_window=").append(2 * maxBlock)
                .append(" spa_old_maxblocksize=").append(pick(r, 512L, 1024L, 2048L))
                .append(" zfs_multilist_num_sublists=").append(1 + r.nextIndex(4))
                .append(" random_seed=").append(r.nextIndex(1000))
                .append(" evictor_runs_after_each_operation=").append(r.nextIndex(3) > 0)
                .append(" arc_min_prefetch_ms=").append(pick(r, 10L, 100L, 1000L)).append('\n');
        int keys = (int) pick(r, 12L, 24L, 48L);
        Map<Long, Long> size = new TreeMap<>();
        Map<Long, Integer> holds = new TreeMap<>();
        TreeSet<Long> pending = new TreeSet<>();
        long fresh = 1000;
        for (int i = 0; i < operations; i++) {
            int x = r.nextIndex(100);
            if (x < 55) {
                long k = r.nextIndex(keys);
                if (pending.contains(k)) {
                    continue;
                }
                long s = size.computeIfAbsent(k, key -> maxBlock >= 2048 ? pick(r, 512L, 1024L, 1536L, 2048L, maxBlock)
                        : pick(r, 512L, 1024L));
                String kind = List.of("demand", "demand", "demand", "prefetch", "prescient").get(r.nextIndex(5));
                boolean hold = kind.equals("demand") && r.nextIndex(10) == 0;
                if (hold) {
                    holds.merge(k, 1, Integer::sum);
                }
                t.append("read ").append(k).append(' ').append(s).append(' ').append(kind)
                        .append(hold ? " hold" : "").append(k % 2 == 1 ? " meta" : "").append('\n');
            } else if (x < 62 && !holds.isEmpty()) {
                t.append("release ").append(dropHold(r, holds)).append('\n');
            } else if (x < 66) {
                long k = fresh++;
                long s = maxBlock >= 2048 ? pick(r, 512L, 1024L, 2048L) : 512;
                size.put(k, s);
                pending.add(k);
                t.append("write ").append(k).append(' ').append(s).append(k % 2 == 1 ? " meta" : "").append('\n');
            } else if (x < 70 && !pending.isEmpty()) {
                long k = new ArrayList<>(pending).get(r.nextIndex(pending.size()));
                pending.remove(k);
                boolean hold = r.nextIndex(5) == 0;
                if (hold) {
                    holds.merge(k, 1, Integer::sum);
                }
                t.append("complete ").append(k).append(hold ? " hold" : "").append('\n');
            } else if (x < 72 && !holds.isEmpty()) {
                long k = dropHold(r, holds);
                long n = fresh++;
                if (n % 2 != k % 2) {
                    n = fresh++;
                }
                size.put(n, size.get(k));
                pending.add(n);
                t.append("overwrite ").append(k).append(' ').append(n).append('\n');
            } else if (x < 76) {
                List<Long> candidates = new ArrayList<>(pending);
                for (long k = 0; k < keys; k++) {
                    candidates.add(k);
                }
                long k = candidates.get(r.nextIndex(candidates.size()));
                pending.remove(k);
                t.append("free ").append(k).append('\n');
            } else if (x < 86) {
                t.append("tick ").append(pick(r, 1L, 10L, 63L, 100L, 1000L)).append('\n');
            } else if (x < 89) {
                t.append("shrink ").append(pick(r, 0L, 512L, 4096L, cMax)).append('\n');
            } else if (x < 92) {
                t.append("memory ").append(pick(r, 0L, 1L << 20, 1L << 40)).append('\n');
            } else if (x < 95) {
                t.append("reap\n");
            } else {
                t.append("evict\n");
            }
        }
        return t.toString();
    }

    private static long dropHold(SplitMix64 r, Map<Long, Integer> holds) {
        List<Long> held = new ArrayList<>(holds.keySet());
        long k = held.get(r.nextIndex(held.size()));
        if (holds.merge(k, -1, Integer::sum) == 0) {
            holds.remove(k);
        }
        return k;
    }

    private static long pick(SplitMix64 r, long... values) {
        return values[r.nextIndex(values.length)];
    }
}
