package org.arcref.bench;

import java.util.List;
import java.util.Locale;

/**
 * The JMH experiments {@link JmhExperiment} runs: which benchmarks, and which ratios of their scores the summary
 * reports. A ratio's numerator and denominator are score keys without the thread count, e.g.
 * {@code aggsumAdd} or {@code allocate exactCompare=false}; it is computed for every other parameter and thread
 * count where both exist.
 */
public enum Experiment {
    /** E2: aggsum add and reads against LongAdder, AtomicLong and a volatile read (ns/op, lower is better). */
    E2_AGGSUM("org.arcref.bench.aggsum.AggSumBenchmark", List.of(
            new Ratio("aggsumAdd", "longAdderAdd"),
            new Ratio("aggsumAddBalanced", "longAdderAddBalanced"),
            new Ratio("aggsumUpperBound", "volatileRead"),
            new Ratio("aggsumLowerBound", "volatileRead"),
            new Ratio("aggsumValue", "longAdderAddThenSum"),
            new Ratio("aggsumCompareNear", "longAdderAddThenSum"))),
    /** E2: the arc_p growth check, upper bound against exact compare (ns per allocation, lower is better). */
    E2_ARCP("org.arcref.bench.aggsum.ArcPGrowthBenchmark", List.of(
            new Ratio("allocate exactCompare=false", "allocate exactCompare=true"))),
    /** E3: ConcurrentArc against Caffeine and the spec behind one lock (ops/µs, higher is better). */
    E3_CACHE("org.arcref.bench.cache.CacheBenchmark", List.of(
            new Ratio("operation cache=arc", "operation cache=caffeine"),
            new Ratio("operation cache=arc", "operation cache=lockedSpec")));

    /** One ratio of two scores of the same run. */
    public record Ratio(String numerator, String denominator) {
    }

    private final String includePattern;
    private final List<Ratio> ratios;

    Experiment(String benchmarkClass, List<Ratio> ratios) {
        this.includePattern = "^" + benchmarkClass.replace(".", "\\.") + "\\.";
        this.ratios = ratios;
    }

    /** @return the JMH include pattern */
    public String includePattern() {
        return includePattern;
    }

    /** @return the ratios the summary reports */
    public List<Ratio> ratios() {
        return ratios;
    }

    /** @return the name on the command line and in result files, e.g. {@code e2-aggsum} */
    public String fileName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param name a {@link #fileName()}
     * @return the experiment
     * @throws IllegalArgumentException naming the accepted names if there is none such
     */
    public static Experiment byName(String name) {
        for (Experiment e : values()) {
            if (e.fileName().equals(name)) {
                return e;
            }
        }
        throw DriverCommand.bad("EXPERIMENT", "must be one of e2-aggsum, e2-arcp, e3-cache", name);
    }
}
