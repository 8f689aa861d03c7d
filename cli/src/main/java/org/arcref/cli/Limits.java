package org.arcref.cli;

import java.util.Locale;
import org.arcref.trace.TraceReader;

/**
 * What this JVM can do, checked before any work so that no size or count on a command line ends in an
 * {@link OutOfMemoryError} halfway through: half the heap ({@code -Xmx}, {@link Runtime#maxMemory()}) is for the
 * requests of a trace, the other half for the caches replaying it.
 *
 * <p>The costs are upper bounds measured on JDK 17 (heap used after {@code System.gc()} around creating and filling
 * each policy): the canonical ARC at 2<sup>21</sup>+1 pages took 142 bytes a page (its hash index rounds up to a
 * power of two), the ZFS spec filled with 2<sup>21</sup> distinct pages 132, LRU 74; a page is budgeted
 * {@value #BYTES_PER_CACHED_PAGE} bytes. A request is a {@code long} held while the trace is read (the buffer
 * doubles), copied once when it ends and once more to count the distinct pages: {@value #BYTES_PER_REQUEST} bytes.
 * Threads are bounded by {@value #MAX_THREADS}, far above the cores of any machine this runs on, far below what
 * exhausts native memory.
 */
final class Limits {

    /** Heap budgeted per page of cache capacity. */
    static final long BYTES_PER_CACHED_PAGE = 160;
    /** Heap budgeted per request of a trace or the synthetic workload. */
    static final long BYTES_PER_REQUEST = 32;
    /** The most threads a command starts. */
    static final int MAX_THREADS = 1024;

    private final long heap;

    /** @param heap the heap in bytes this JVM may use */
    Limits(long heap) {
        this.heap = heap;
    }

    /** @return the limits of the running JVM */
    static Limits ofThisJvm() {
        return new Limits(Runtime.getRuntime().maxMemory());
    }

    /** @return the most requests a trace or the synthetic workload may have */
    TraceReader.RequestLimit requests() {
        long n = Math.min(TraceReader.RequestLimit.ARRAY.requests(), heap / 2 / BYTES_PER_REQUEST);
        return new TraceReader.RequestLimit((int) n, "this JVM's heap of " + mib() + " at " + BYTES_PER_REQUEST
                + " bytes a request (raise it with java -Xmx)");
    }

    /**
     * @param option the option, as typed ({@code --length})
     * @param requests the requests asked for
     * @throws IllegalArgumentException naming the option, the limit and the value if there are too many
     */
    void requireRequests(String option, long requests) {
        TraceReader.RequestLimit limit = requests();
        if (requests > limit.requests()) {
            throw new IllegalArgumentException(option + " must be at most " + limit.requests() + " requests, the most "
                    + limit.reason() + " allows, was " + requests);
        }
    }

    /** @return the most pages a cache may have */
    long pages() {
        return heap / 2 / BYTES_PER_CACHED_PAGE;
    }

    /**
     * @param option the option, as typed ({@code --sizes})
     * @param pages a cache size in pages
     * @throws IllegalArgumentException naming the option, the limit and the value if the cache cannot fit
     */
    void requirePages(String option, long pages) {
        if (pages > pages()) {
            throw new IllegalArgumentException(option + " must be at most " + pages() + " pages, the most this JVM's "
                    + "heap of " + mib() + " holds at " + BYTES_PER_CACHED_PAGE + " bytes a page (raise it with "
                    + "java -Xmx), was " + pages);
        }
    }

    /**
     * @param option the option, as typed ({@code --threads})
     * @param threads the threads asked for
     * @throws IllegalArgumentException naming the option, the rule and the value unless in [1, {@value #MAX_THREADS}]
     */
    static void requireThreads(String option, long threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException(option + " must be in [1, " + MAX_THREADS + "], was " + threads);
        }
    }

    private String mib() {
        return String.format(Locale.ROOT, "%d MiB", heap >> 20);
    }
}
