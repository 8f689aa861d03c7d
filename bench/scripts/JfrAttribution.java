import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Turns a JFR recording of {@code CacheBenchmark} into the attribution table of docs/performance.md: each CPU
 * sample ({@code jdk.ExecutionSample}) goes to the innermost frame of this project, Caffeine or the benchmark,
 * whose method names a step of the read or write path (the rules below, first match wins; JDK frames under it,
 * such as a lock's or a LongAdder's, count for that step), and allocation samples
 * ({@code jdk.ObjectAllocationSample}, by weight) go to their class and the same step. Samples in set-up (the key
 * sequence) are left out of the shares.
 *
 * <p>Usage, from the repository root (JDK 17 has no {@code jfr view}): {@code java bench/scripts/JfrAttribution.java
 * FILE.jfr [OPS_PER_US]}; with the run's score (all threads) and {@code THREADS} in the environment, the table
 * also gives each step's nanoseconds per operation: a benchmark thread's time per operation
 * ({@code THREADS * 1000 / OPS_PER_US}) split by the steps' shares of the benchmark threads' samples. The evict
 * zthr runs beside them; its line gives its samples against theirs, and its time per operation in the same unit.
 */
public class JfrAttribution {

    /**
     * Step name, then the {@code Class.method} pattern (a regex; Caffeine's classes are {@code caffeine:Class}) of
     * the frames that belong to it. The first {@value #ANYWHERE} rules match a frame anywhere in the stack (a
     * sample of the evict zthr is the zthr's, whatever it calls); the others the innermost frame that any matches.
     */
    private static final String[][] RULES = {
        {"set-up (key sequence, not counted)", "SyntheticWorkload\\..*|CacheBenchmark\\.<clinit>"},
        {"evict zthr (arc_evict, separate thread)", "Evictor\\..*|ConcurrentArc\\.evict.*|Zthr\\..*"},
        {"sublist lock + list links (add/remove_reference)", "Sublist\\..*|ConcurrentMultilist\\..*"},
        {"buf_hash_find / insert / remove", "BufHashTable\\.(get|put|remove)"},
        {"buf_hash (cityhash4: hash lock, bucket, sublist)",
            "BufHash\\..*|ArcArithmetic\\.(sublistOf|randomIndex|evictTypeDraws).*"},
        {"aggsum arc_size (add, bounds)", "AggSum.*\\..*"},
        {"arc_adapt", "ConcurrentArc\\.(adapt|ghostIncrement|pGrowthAllowed)"},
        {"overflow check / eviction wait", "ConcurrentArc\\.(waitForEviction|overflowLevel)|EvictWaiters\\..*"},
        {"statistics (ARCSTAT_BUMP, compressed_size)", "ConcurrentArc\\.(bump|countHeaderData)"},
        {"arc_get_data_impl (rest: arcs_size, arc_p growth)",
            "ConcurrentArc\\.(getDataImpl|sizeBelowTarget|returnData|freeData)"},
        {"buffer alloc/destroy (refcount, esize, overhead_size)",
            "ConcurrentArc\\.(allocateBuffer|destroyBuffer|addReference|removeReference)"},
        {"arc_access, state change", "ConcurrentArc\\.(access|changeState|hit)"},
        {"miss: loader, new header, arc_read_done",
            "ConcurrentArc\\.(load|readDone|readBuffer|allocateHeaderData)|ArcHeader\\..*"},
        {"write: free + write + completeWrite",
            "ConcurrentArc\\.(free|write|completeWrite|writeReady|writeStart|destroy"
                + "|lambda\\$(free|write|completeWrite).*)"},
        {"read: hash lock, argument checks, result",
            "ConcurrentArc\\..*|BufHashTable\\..*|AdaptiveMutex\\..*|ArcArguments\\..*|ReadResult\\..*"},
        {"spec behind one lock", "ZfsArc\\..*|LockedSpecCache\\..*|Multilist\\..*"},
        {"Caffeine", "caffeine:.*"},
        {"benchmark harness (cursor, JMH stub)", "CacheBenchmark.*\\..*|ArcCache\\..*|CaffeineCache\\..*"},
    };

    private static final int ANYWHERE = 2;

    public static void main(String[] args) throws Exception {
        Map<String, Long> cpu = new LinkedHashMap<>();
        Map<String, Long> alloc = new TreeMap<>();
        for (String[] rule : RULES) {
            cpu.put(rule[0], 0L);
        }
        cpu.put("other (JDK, JMH, JIT)", 0L);
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (e.getStackTrace() == null) {
                continue;
            }
            String type = e.getEventType().getName();
            String step = step(e.getStackTrace().getFrames());
            if (type.equals("jdk.ExecutionSample")) {
                cpu.merge(step, 1L, Long::sum);
            } else if (type.equals("jdk.ObjectAllocationSample")) {
                alloc.merge(e.getClass("objectClass").getName() + " in " + step, e.getLong("weight"), Long::sum);
            }
        }
        long setUp = cpu.remove(RULES[0][0]);
        long evictor = cpu.remove(RULES[1][0]);
        long workers = cpu.values().stream().mapToLong(Long::longValue).sum();
        double nsPerOp = args.length > 1
                ? Integer.parseInt(System.getenv().getOrDefault("THREADS", "1")) * 1000 / Double.parseDouble(args[1])
                : Double.NaN;
        System.out.printf(Locale.ROOT, "%d CPU samples of the benchmark threads, %d of the evict zthr, %d in set-up"
                + " (left out)%n", workers, evictor, setUp);
        System.out.printf(Locale.ROOT, "| %-52s | samples | share | ns/op |%n|---|---|---|---|%n", "step");
        cpu.forEach((k, v) -> {
            if (v > 0) {
                System.out.printf(Locale.ROOT, "| %-52s | %7d | %4.1f %% | %5.0f |%n", k, v, 100.0 * v / workers,
                        nsPerOp * v / workers);
            }
        });
        System.out.printf(Locale.ROOT, "| %-52s | %7d | %4.0f %% | %5.0f |%n", RULES[1][0] + ", beside", evictor,
                100.0 * evictor / workers, nsPerOp * evictor / workers);
        long allocTotal = alloc.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf(Locale.ROOT, "%nallocation samples by weight (%.0f MB sampled):%n", allocTotal / 1e6);
        alloc.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(12)
                .forEach(x -> System.out.printf(Locale.ROOT, "%5.1f %%  %s%n", 100.0 * x.getValue() / allocTotal,
                        x.getKey()));
    }

    /** The step of the innermost frame that some rule names, or "other". */
    private static String step(List<RecordedFrame> frames) {
        for (int r = 0; r < ANYWHERE; r++) {
            for (RecordedFrame f : frames) {
                if (name(f).matches(RULES[r][1])) {
                    return RULES[r][0];
                }
            }
        }
        for (RecordedFrame f : frames) {
            for (int r = ANYWHERE; r < RULES.length; r++) {
                if (name(f).matches(RULES[r][1])) {
                    return RULES[r][0];
                }
            }
        }
        return "other (JDK, JMH, JIT)";
    }

    private static String name(RecordedFrame f) {
        String type = f.getMethod().getType().getName();
        String simple = type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
        return type.startsWith("com.github.benmanes.caffeine.") ? "caffeine:" + simple : simple;
    }
}
