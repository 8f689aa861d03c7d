package org.arcref.specs.aggsum;

import java.util.function.BiFunction;
import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.AggSumLayout;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.lincheck.ExploredSchedules;

/**
 * A fixed scenario for Lincheck's {@code runConcurrentTest}, whose schedules it explores in order of their number
 * of thread switches: two threads share the one bucket of a fresh aggsum; each adds {@value #SMALL} (the first
 * add on a bucket without a borrow takes the slow path, the second may fit the borrow) and then {@value #LARGE}
 * (a slow path that re-borrows), and after each add checks what it knows: V is at least the initial value plus
 * its own completed adds and at most the initial value plus every add of both threads (all deltas are positive),
 * so {@code upperBound() ≥} the former (A5), {@code lowerBound() ≤} the latter (A5) and
 * {@code compare(former) ≥ 0} (A4). After both threads end, {@code value()} must be the initial value plus every
 * add and both bounds must equal it (A3, A4).
 *
 * <p>One bucket, because a bucket chosen by thread id changes from invocation to invocation (the threads are new
 * each time), which the model checker reports as non-determinism; the races that need two buckets (compare's early
 * break) are not here. The aggsum is built inside the checked code, whose constructor fills 64 home slots: the
 * settings must let that loop run ({@code AggSumLincheckTest}'s {@code SWITCH_BOUND_SETTINGS}). The factory must be a
 * lambda, not a method reference: code reached only through a method reference is not instrumented.
 */
final class AggSumTwoAdders {
    static final long INITIAL = 1000;
    static final long SMALL = 1;
    static final long LARGE = 40;

    private AggSumTwoAdders() {
    }

    /** Runs the scenario once on the aggsum {@code factory} builds; throws on a violated property. */
    static void run(BiFunction<Long, AggSumLayout, AggSum> factory) {
        ExploredSchedules.count();
        AggSum sum = factory.apply(INITIAL, AggSumLayout.singleBucket());
        PropertyViolation[] otherFound = new PropertyViolation[1];
        Thread other = new Thread(() -> {
            try {
                addAndCheck(sum);
            } catch (PropertyViolation e) {
                otherFound[0] = e;
            }
        });
        other.start();
        addAndCheck(sum);
        try {
            other.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        if (otherFound[0] != null) { // the other thread's check broke first: report it, not its missing adds
            throw otherFound[0];
        }
        long expected = INITIAL + 2 * (SMALL + LARGE);
        long value = sum.value();
        if (value != expected || sum.lowerBound() != expected || sum.upperBound() != expected) {
            throw new PropertyViolation(Property.A4, "at quiescence value=" + value + ", lower=" + sum.lowerBound()
                    + ", upper=" + sum.upperBound() + ", expected " + expected + " (A3: the bounds meet)", "");
        }
    }

    private static void addAndCheck(AggSum sum) {
        long own = INITIAL;
        for (long delta : new long[] {SMALL, LARGE}) {
            sum.add(delta);
            own += delta;
            check(sum, own);
        }
    }

    private static void check(AggSum sum, long atLeast) {
        long atMost = INITIAL + 2 * (SMALL + LARGE);
        long upper = sum.upperBound();
        if (Long.compareUnsigned(upper, atLeast) < 0) {
            throw new PropertyViolation(Property.A5, "upper bound " + upper + " below " + atLeast
                    + ", the value this thread's completed adds imply", "");
        }
        long lower = sum.lowerBound();
        if (lower > atMost) {
            throw new PropertyViolation(Property.A5, "lower bound " + lower + " above " + atMost
                    + ", every add of both threads", "");
        }
        int sign = sum.compare(atLeast);
        if (sign < 0) {
            throw new PropertyViolation(Property.A4, "compare(" + atLeast + ") = " + sign
                    + " although this thread's completed adds imply at least that", "");
        }
    }
}
