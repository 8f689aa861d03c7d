package org.arcref.report;

import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.ZfsPageCache;

/**
 * {@code arc_c}, {@code arc_p} and the size of every state of the ZFS spec in page mode, sampled over the requests of
 * a replay.
 *
 * @param pages the cache size in pages
 * @param at the request count at each sample
 * @param c {@code arc_c} in pages at each sample
 * @param p {@code arc_p} in pages at each sample
 * @param states {@code states[s][i]}: the size in pages of {@code ArcState.values()[s]} at sample {@code i}
 */
public record Timeline(int pages, double[] at, double[] c, double[] p, double[][] states) {

    /** The requests between two checkpoints of {@link #record}. */
    public static final int CHECKPOINT_EVERY = 1 << 20;

    /**
     * Replays {@code requests} through a {@link ZfsPageCache} of {@code pages} pages, sampling after every
     * {@code max(1, requests / points)}-th request and after the last.
     *
     * @param requests the pages requested
     * @param pages the cache size, at least 2
     * @param points about how many samples to take, at least 1
     * @param checkpoint run before every {@value #CHECKPOINT_EVERY}-th request, from the first: it may throw to stop
     *     the replay (Ctrl-C)
     * @return the samples
     */
    public static Timeline record(long[] requests, int pages, int points, Runnable checkpoint) {
        ZfsPageCache cache = new ZfsPageCache(pages);
        int every = Math.max(1, requests.length / Math.max(1, points));
        int n = requests.length == 0 ? 0 : (requests.length - 1) / every + 1;
        double[] at = new double[n];
        double[] c = new double[n];
        double[] p = new double[n];
        double[][] states = new double[ArcState.values().length][n];
        int k = 0;
        for (int i = 0; i < requests.length; i++) {
            if (i % CHECKPOINT_EVERY == 0) {
                checkpoint.run();
            }
            cache.access(requests[i]);
            if ((i + 1) % every == 0 || i == requests.length - 1) {
                ArcSnapshot s = cache.arc().snapshot();
                at[k] = i + 1;
                c[k] = (double) s.c() / ZfsPageCache.PAGE_SIZE;
                p[k] = (double) s.p() / ZfsPageCache.PAGE_SIZE;
                for (ArcState st : ArcState.values()) {
                    states[st.ordinal()][k] = (double) s.state(st).size() / ZfsPageCache.PAGE_SIZE;
                }
                k++;
            }
        }
        return new Timeline(pages, at, c, p, states);
    }
}
