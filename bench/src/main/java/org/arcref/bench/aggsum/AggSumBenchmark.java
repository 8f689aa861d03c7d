package org.arcref.bench.aggsum;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.arcref.aggsum.AggSum;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Experiment E2, first half: the aggsum's {@code add} and reads against {@link LongAdder} and {@link AtomicLong},
 * all counters shared by every benchmark thread (run at 1, 2 and 4 threads by {@code JmhExperiment}).
 *
 * <p>What each benchmark does, in ns per call:
 * <ul>
 *   <li>{@code aggsumAdd}, {@code longAdderAdd}, {@code atomicLongAdd}: {@code add(1)}, a counter going up. The
 *       aggsum's bucket borrows 16 after its first slow path, so one add in 17 takes the core lock.</li>
 *   <li>{@code aggsumAddBalanced}, {@code longAdderAddBalanced}: {@code add(4096)} then {@code add(-4096)}, what
 *       {@code arc_size} sees in a steady state; the aggsum stays in its bucket.</li>
 *   <li>{@code volatileRead} (the baseline of the bound reads), {@code aggsumUpperBound},
 *       {@code aggsumLowerBound}, {@code longAdderSum}, {@code atomicLongGet}: one read of a counter that no
 *       thread writes during the measurement.</li>
 *   <li>{@code aggsumValue}, {@code aggsumCompareNear}: {@code value()} and {@code compare(v)} with {@code v}
 *       inside the bounds, each after an {@code add(1)} of the same thread, so that its bucket has borrowed and
 *       must be flushed; compare with {@code aggsumAdd} and {@code longAdderAddThenSum} for the read's share.
 *       {@code aggsumCompareFar}: {@code compare} against a target far above the upper bound, decided lock-free.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class AggSumBenchmark {

    private static final long BLOCK = 4096;
    private static final long FAR = 1L << 60;

    private AggSum aggsum;
    private AggSum readOnlyAggsum;
    private LongAdder longAdder;
    private AtomicLong atomicLong;
    private volatile long plainVolatile;

    /** Fresh counters for each trial; the read-only aggsum has borrowed in one bucket and has a gap. */
    @Setup
    public void setUp() {
        aggsum = AggSum.create(0);
        readOnlyAggsum = AggSum.create(1L << 30);
        readOnlyAggsum.add(BLOCK);
        longAdder = new LongAdder();
        atomicLong = new AtomicLong();
        plainVolatile = 1L << 30;
    }

    @Benchmark
    public void aggsumAdd() {
        aggsum.add(1);
    }

    @Benchmark
    public void longAdderAdd() {
        longAdder.add(1);
    }

    @Benchmark
    public void atomicLongAdd() {
        atomicLong.addAndGet(1);
    }

    @Benchmark
    public void aggsumAddBalanced() {
        aggsum.add(BLOCK);
        aggsum.add(-BLOCK);
    }

    @Benchmark
    public void longAdderAddBalanced() {
        longAdder.add(BLOCK);
        longAdder.add(-BLOCK);
    }

    @Benchmark
    public long volatileRead() {
        return plainVolatile;
    }

    @Benchmark
    public long aggsumUpperBound() {
        return readOnlyAggsum.upperBound();
    }

    @Benchmark
    public long aggsumLowerBound() {
        return readOnlyAggsum.lowerBound();
    }

    @Benchmark
    public long longAdderSum() {
        return longAdder.sum();
    }

    @Benchmark
    public long atomicLongGet() {
        return atomicLong.get();
    }

    @Benchmark
    public long aggsumValue() {
        aggsum.add(1);
        return aggsum.value();
    }

    @Benchmark
    public int aggsumCompareNear() {
        aggsum.add(1);
        return aggsum.compare(aggsum.lowerBound() + 1);
    }

    @Benchmark
    public long longAdderAddThenSum() {
        longAdder.add(1);
        return longAdder.sum();
    }

    @Benchmark
    public int aggsumCompareFar() {
        return readOnlyAggsum.compare(FAR);
    }
}
