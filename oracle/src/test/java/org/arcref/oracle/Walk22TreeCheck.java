package org.arcref.oracle;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import org.arcref.conformance.ConformanceComparer;
import org.arcref.conformance.ConformanceFormat;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Divergence;
import org.arcref.conformance.FieldFilter;
import org.arcref.conformance.JsonParser;
import org.arcref.conformance.JsonWriter;
import org.arcref.exhaustive.Walk22;
import org.arcref.zfs.Arc22Snapshot;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.Zfs22Arc;

/**
 * X1's walk of zfs-2.2.0's engine ({@link Walk22}) compared with an oracle, every transition, field by field, as one
 * {@link OracleTree}.
 *
 * <p>The walk runs first ({@link #walk}); for each transition it keeps a 128-bit digest (the first 16 bytes of the
 * SHA-256) of the spec's conformance line, every header listed, numbered as the tree's output numbers it (its
 * {@code index} the depth of the state it leaves plus one, its {@code line} the transition's id). The walk's
 * transitions in depth-first order ({@link Walk22#depthFirst()}) are the tree. {@link #compare} runs it through an
 * oracle, and digests each line the oracle writes as it comes and compares it with the spec's digest of that
 * transition. A line whose digest differs is
 * compared field by field with the spec's line, made again by replaying the transition's first path and its
 * operation through a fresh spec; the first field that differs (or the header's, or a transition written twice, or
 * one never written, or the oracle's failure) is the check's answer. Lines equal as text are equal field by field;
 * two different lines with one digest would pass unseen, a chance of about 2^-128 per transition.
 */
final class Walk22TreeCheck {

    /**
     * What a comparison found.
     *
     * @param divergence the first divergence, said in one line, or null when the oracle agrees on every transition
     * @param kept the oracle's line of each transition the comparison was asked to keep, by id
     * @param seconds its time (the spec's side, which runs beside the oracle, included)
     */
    record Result(String divergence, Map<Integer, String> kept, double seconds) {
    }

    private final ConformanceSettings settings;
    private final Walk22 walk;
    private final List<Walk22.Edge> edges;
    private final List<List<Operation>> firstPaths;
    private final List<long[]> digests;
    private final String name;
    private final String text;
    private final String header;
    private final double seconds;

    private Walk22TreeCheck(ConformanceSettings settings, Walk22 walk, List<long[]> digests, String name,
            String text, String header, double seconds) {
        this.settings = settings;
        this.walk = walk;
        this.edges = walk.edges();
        this.firstPaths = walk.firstPaths();
        this.digests = digests;
        this.name = name;
        this.text = text;
        this.header = header;
        this.seconds = seconds;
    }

    /**
     * Runs the walk and keeps what a comparison needs.
     *
     * @param settings the spec's settings (zfs-2.2.0's engine, with the fixes the oracle's arc.c carries)
     * @param alphabet the operations tried in every state
     * @param depth the walk's depth
     * @return the walk, ready to compare
     */
    static Walk22TreeCheck walk(ConformanceSettings settings, List<Operation> alphabet, int depth) {
        long start = System.nanoTime();
        MessageDigest sha = sha256();
        List<long[]> digests = new ArrayList<>();
        Walk22 walk = new Walk22(settings, alphabet, depth);
        walk.run((edge, outcome, evicted, after) -> digests.add(digest(sha, expected(walk.depth(edge.from()), edge,
                outcome, evicted, after))));
        List<OracleTree.Transition> tree = new ArrayList<>(digests.size());
        for (Walk22.Edge e : walk.depthFirst()) {
            tree.add(new OracleTree.Transition(walk.depth(e.from()), e.id(), e.op()));
        }
        String name = "walk22-depth-" + depth;
        String text = OracleTree.text(settings, tree);
        String header = JsonWriter.write(ConformanceFormat.header(name,
                HexFormat.of().formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8))), settings, true));
        return new Walk22TreeCheck(settings, walk, digests, name, text, header, (System.nanoTime() - start) / 1e9);
    }

    /** @return the walk's states */
    int states() {
        return walk.states();
    }

    /** @return the walk's transitions */
    int transitions() {
        return digests.size();
    }

    /**
     * @param id a transition's id
     * @return its operations from the empty ARC: the first path of the state it leaves, then its own
     */
    List<Operation> path(int id) {
        Walk22.Edge e = edges.get(id);
        List<Operation> ops = new ArrayList<>(firstPaths.get(e.from()));
        ops.add(e.op());
        return ops;
    }

    /** @return the walk's time, the spec's lines and digests and the tree's text included */
    double seconds() {
        return seconds;
    }

    /**
     * @param binary the oracle
     * @param switches the oracle's switches set (those not named stay on)
     * @param jobs how many of the tree's processes may run at once: with 1 the lines come in the tree's order, so
     *     that the first divergence is the first in that order
     * @param keep the ids of the transitions whose oracle lines the result keeps
     * @return what the comparison found
     */
    Result compare(Path binary, Map<OracleProcess.Switch, Boolean> switches, int jobs, IntPredicate keep) {
        long start = System.nanoTime();
        Lines lines = new Lines(keep);
        OracleTree.Ending ending = OracleTree.run(binary, name, text, switches, jobs, lines);
        String divergence = lines.divergence;
        if (divergence == null && ending.status() != 0) {
            divergence = "the oracle ended with status " + ending.status() + ": " + ending.message();
        } else if (divergence == null && lines.seen.cardinality() != digests.size()) {
            divergence = "the oracle wrote " + lines.seen.cardinality() + " of the walk's " + digests.size()
                    + " transitions; the first missing: " + lines.seen.nextClearBit(0);
        }
        return new Result(divergence, lines.kept, (System.nanoTime() - start) / 1e9);
    }

    /** The oracle's lines as they come, each checked against the spec's; the first divergence stops them. */
    private final class Lines implements Predicate<String> {
        private final IntPredicate keep;
        private final MessageDigest sha = sha256();
        private final BitSet seen = new BitSet();
        private final Map<Integer, String> kept = new HashMap<>();
        private boolean first = true;
        private String divergence;

        Lines(IntPredicate keep) {
            this.keep = keep;
        }

        @Override
        public boolean test(String line) {
            if (first) {
                first = false;
                divergence = OracleComparison.firstDivergence(List.of(header), List.of(line))
                        .map(d -> "the header, " + field(d)).orElse(null);
                return divergence == null;
            }
            int id = id(line, edges.size());
            if (id < 0) {
                divergence = "the oracle wrote a line of no transition of the walk: " + line;
            } else if (seen.get(id)) {
                divergence = "the oracle wrote transition " + id + " twice";
            } else {
                seen.set(id);
                if (keep.test(id)) {
                    kept.put(id, line);
                }
                long[] d = digest(sha, line);
                if (d[0] != digests.get(id)[0] || d[1] != digests.get(id)[1]) {
                    divergence = replayed(edges.get(id), line);
                }
            }
            return divergence == null;
        }
    }

    /** The spec's line of one transition, made again by a replay, against the oracle's: null if they agree. */
    private String replayed(Walk22.Edge edge, String line) {
        List<Eviction> evicted = new ArrayList<>();
        Zfs22Arc arc = (Zfs22Arc) settings.newArc(evicted::add);
        List<Operation> path = firstPaths.get(edge.from());
        for (Operation op : path) {
            op.applyTo(arc);
        }
        evicted.clear();
        Outcome outcome = edge.op().applyTo(arc);
        String spec = expected(path.size(), edge, outcome, List.copyOf(evicted), arc.snapshot());
        return differences(spec, line).stream().findFirst()
                .map(d -> "transition " + edge.id() + " (" + String.join(", ", path.stream()
                        .map(Operation::toTraceLine).toList()) + (path.isEmpty() ? "" : ", then ")
                        + edge.op().toTraceLine() + "), " + field(d))
                .orElse(null);
    }

    private static String expected(int depth, Walk22.Edge edge, Outcome outcome, List<Eviction> evicted,
            Arc22Snapshot after) {
        return JsonWriter.write(ConformanceFormat.step22(depth + 1, new ConformanceTrace.Step(edge.id(), edge.op()),
                outcome, evicted, after, true));
    }

    /** Every field where two operation lines differ, as JSON values ({@code 10} and {@code 1e1} are equal). */
    @SuppressWarnings("unchecked")
    private static List<Divergence> differences(String spec, String zfs) {
        Object s = JsonParser.parse(spec);
        Object z;
        try {
            z = JsonParser.parse(zfs);
        } catch (IllegalArgumentException e) {
            return List.of(new Divergence(2, "", spec, zfs));
        }
        return z instanceof Map<?, ?> ? ConformanceComparer.differences(2, (Map<String, Object>) s,
                (Map<String, Object>) z, FieldFilter.ALL) : List.of(new Divergence(2, "", spec, zfs));
    }

    private static String field(Divergence d) {
        return (d.field().isEmpty() ? "the whole line" : d.field()) + ": spec " + d.expected() + ", zfs "
                + d.actual();
    }

    /** @return the transition id a tree's output line gives as its {@code line}, or -1 if it gives none below n */
    private static int id(String line, int n) {
        String key = ",\"line\":";
        int from = line.indexOf(key);
        int to = from < 0 ? -1 : line.indexOf(',', from + key.length());
        try {
            long id = to < 0 ? -1 : Long.parseLong(line, from + key.length(), to, 10);
            return id >= 0 && id < n ? (int) id : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static long[] digest(MessageDigest sha, String line) {
        ByteBuffer b = ByteBuffer.wrap(sha.digest(line.getBytes(StandardCharsets.UTF_8)));
        return new long[] {b.getLong(), b.getLong()};
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
