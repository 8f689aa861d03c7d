package org.arcref.specs.policy;

import java.util.Locale;
import java.util.function.IntFunction;
import org.arcref.policy.CanonicalArc;
import org.arcref.policy.Lru;
import org.arcref.policy.PageCache;
import org.arcref.policy.Replay;
import org.arcref.specs.trace.SharedTraces;
import org.arcref.trace.TraceReader;

/**
 * A quick measurement, not a test: prints how many requests per second {@link CanonicalArc} and
 * {@link Lru} replay from the LIRS {@code loop} trace (505,500 requests) on one thread, after warming
 * the JVM up. The requirement is at least 5 million requests/s for the canonical ARC. JMH benchmarks
 * belong in the bench module; this is the check that fits a test classpath. Run from the repository
 * root after {@code mvn -pl specs -am test-compile}:
 *
 * <pre>java -cp reference/target/classes:workloads/target/classes:specs/target/test-classes org.arcref.specs.policy.ReplayRate</pre>
 */
public final class ReplayRate {

    private static final int WARMUP_ROUNDS = 20;
    private static final int MEASURED_ROUNDS = 20;
    private static final int[] CAPACITIES = {100, 500, 1000};

    private ReplayRate() {
    }

    public static void main(String[] args) {
        long[] requests = TraceReader.read(SharedTraces.lirs("loop"));
        for (int capacity : CAPACITIES) {
            report(CanonicalArc::new, capacity, requests);
            report(Lru::new, capacity, requests);
        }
    }

    /** Replays from an empty cache in every round, so each round does the same work. */
    private static void report(IntFunction<PageCache> policy, int capacity, long[] requests) {
        long hits = 0;
        for (int round = 0; round < WARMUP_ROUNDS; round++) {
            hits = Replay.hits(policy.apply(capacity), requests);
        }
        long start = System.nanoTime();
        for (int round = 0; round < MEASURED_ROUNDS; round++) {
            hits = Replay.hits(policy.apply(capacity), requests);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double rate = (double) MEASURED_ROUNDS * requests.length / seconds;
        System.out.printf(Locale.ROOT, "loop  %-4s c=%-5d %6.2f M requests/s  hit ratio %.2f %%%n",
                policy.apply(1).name(), capacity, rate / 1e6, 100.0 * hits / requests.length);
    }
}
