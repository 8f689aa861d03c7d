package org.arcref.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.arcref.zfs.Arc22Arithmetic;
import org.arcref.zfs.Arc22Snapshot;
import org.arcref.zfs.ArcOperations;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.BufType;
import org.arcref.zfs.ZfsPageCache;

/**
 * Named quantities of an engine of the ZFS spec in page mode ({@link ZfsPageCache}), sampled over the requests of a
 * replay: {@link #zfs} for zfs-2.1.1's engine, {@link #zfs22} for zfs-2.2.0's.
 *
 * @param pages the cache size in pages
 * @param at the request count at each sample
 * @param names the quantities, in the order they were sampled
 * @param values {@code values[q][i]}: quantity {@code names.get(q)} at sample {@code i}
 */
public record Timeline(int pages, double[] at, List<String> names, double[][] values) {

    /** The requests between two checkpoints of a replay. */
    public static final int CHECKPOINT_EVERY = 1 << 20;

    /** What {@link #zfs} samples: {@code arc_c}, {@code arc_p} and every state, in that order. */
    public static final List<String> ZFS = names("arc_c", "arc_p");

    /** The fractions of zfs-2.2.0's engine, which {@link #zfs22} samples after {@code arc_c} and every state. */
    public static final List<String> FRACTIONS = List.of("arc_meta", "arc_pd", "arc_pm");

    /** Copies the names, so the record stays as recorded. */
    public Timeline {
        names = List.copyOf(names);
    }

    /**
     * @param name one of {@link #names}
     * @return its samples
     * @throws IllegalArgumentException if it was not sampled
     */
    public double[] values(String name) {
        int q = names.indexOf(name);
        if (q < 0) {
            throw new IllegalArgumentException("name must be one of " + names + ", was " + name);
        }
        return values[q];
    }

    /**
     * zfs-2.1.1's engine ({@link ZfsPageCache#zfs(int)}): {@code arc_c}, {@code arc_p} and the size of every state
     * ({@link ArcState#zfsName()}), in pages.
     *
     * @param requests the pages requested
     * @param pages the cache size, at least 2
     * @param points about how many samples to take, at least 1
     * @param checkpoint run before every {@value #CHECKPOINT_EVERY}-th request, from the first: it may throw to stop
     *     the replay (Ctrl-C)
     * @return the samples
     */
    public static Timeline zfs(long[] requests, int pages, int points, Runnable checkpoint) {
        return record(requests, ZfsPageCache.zfs(pages), points, checkpoint, ZFS, arc -> {
            ArcSnapshot s = arc.snapshot();
            double[] v = new double[ZFS.size()];
            v[0] = inPages(s.c());
            v[1] = inPages(s.p());
            for (ArcState st : ArcState.values()) {
                v[2 + st.ordinal()] = inPages(s.state(st).size());
            }
            return v;
        });
    }

    /**
     * zfs-2.2.0's engine ({@link ZfsPageCache#zfs22(int)}): {@code arc_c} and the size of every state, data plus
     * metadata, in pages; then {@link #FRACTIONS} as fractions of 1 ({@link Arc22Arithmetic#ONE} in arc.c), each read
     * as a signed 64-bit number, so one that zfs-2.2.0's unclamped arithmetic took below 0 shows negative and one
     * above {@code 2^32} shows above 1.
     *
     * @param requests the pages requested
     * @param pages the cache size, at least 2
     * @param points about how many samples to take, at least 1
     * @param checkpoint as {@link #zfs}
     * @return the samples
     */
    public static Timeline zfs22(long[] requests, int pages, int points, Runnable checkpoint) {
        List<String> names = new ArrayList<>(names("arc_c"));
        names.addAll(FRACTIONS);
        return record(requests, ZfsPageCache.zfs22(pages), points, checkpoint, names, arc -> {
            Arc22Snapshot s = arc.snapshot();
            double[] v = new double[names.size()];
            v[0] = inPages(s.c());
            for (ArcState st : ArcState.values()) {
                v[1 + st.ordinal()] = inPages(s.state(st, BufType.DATA).size() + s.state(st, BufType.METADATA).size());
            }
            int f = 1 + ArcState.values().length;
            v[f] = (double) s.meta() / Arc22Arithmetic.ONE;
            v[f + 1] = (double) s.pd() / Arc22Arithmetic.ONE;
            v[f + 2] = (double) s.pm() / Arc22Arithmetic.ONE;
            return v;
        });
    }

    /** @return {@code first}, then every state's name */
    private static List<String> names(String... first) {
        List<String> names = new ArrayList<>(List.of(first));
        for (ArcState st : ArcState.values()) {
            names.add(st.zfsName());
        }
        return List.copyOf(names);
    }

    private static double inPages(long bytes) {
        return (double) bytes / ZfsPageCache.PAGE_SIZE;
    }

    /**
     * Replays {@code requests} through {@code cache}, sampling after every {@code max(1, requests / points)}-th
     * request and after the last.
     */
    private static <A extends ArcOperations> Timeline record(long[] requests, ZfsPageCache<A> cache, int points,
            Runnable checkpoint, List<String> names, Function<A, double[]> sample) {
        int every = Math.max(1, requests.length / Math.max(1, points));
        int n = requests.length == 0 ? 0 : (requests.length - 1) / every + 1;
        double[] at = new double[n];
        double[][] values = new double[names.size()][n];
        int k = 0;
        for (int i = 0; i < requests.length; i++) {
            if (i % CHECKPOINT_EVERY == 0) {
                checkpoint.run();
            }
            cache.access(requests[i]);
            if ((i + 1) % every == 0 || i == requests.length - 1) {
                double[] v = sample.apply(cache.arc());
                at[k] = i + 1;
                for (int q = 0; q < v.length; q++) {
                    values[q][k] = v[q];
                }
                k++;
            }
        }
        return new Timeline(cache.capacity(), at, names, values);
    }
}
