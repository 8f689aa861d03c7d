package org.arcref.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.arcref.zfs.BufType;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;

/**
 * Reads op traces: the operations of the ZFS ARC spec, one per line, plain or gzip.
 *
 * <h2>Format (version 1)</h2>
 * <pre>
 * # a comment; blank lines and text after '#' are ignored
 * read &lt;key&gt; &lt;size&gt; [demand|prefetch|prescient] [hold] [meta]
 *                                            arc_read (+ arc_read_done); default demand, data (meta: metadata)
 * write &lt;key&gt; &lt;size&gt; [meta]                            arc_alloc_buf of a new, anonymous block
 * complete &lt;key&gt; [hold]                                 arc_write_done
 * release &lt;key&gt;                                        drop one hold
 * overwrite &lt;key&gt; &lt;newKey&gt;                             arc_release of a held buffer of a cached block,
 *                                                      then arc_write: a pending write under newKey
 * free &lt;key&gt;                                           arc_freed
 * shrink &lt;bytes&gt;                                       arc_reduce_target_size
 * evict                                                one iteration of the arc_evict zthr
 * reap                                                 one iteration of the arc_reap zthr
 * tick &lt;ticks&gt;                                         advance the logical clock
 * memory &lt;bytes&gt;                                       set arc_free_memory()
 * </pre>
 * Keys are signed 64-bit integers. Sizes, byte counts and ticks are non-negative integers with an
 * optional binary suffix {@code K}, {@code M} or {@code G} ({@code 4K} = 4096). Words are
 * case-insensitive. Whether an operation is valid for the ARC's state (a size within the
 * configured limits, a key with a pending write) is checked when it is applied, not here.
 */
public final class OpTraceReader {

    private OpTraceReader() {
    }

    /**
     * Reads a whole op trace file.
     *
     * @param path the file, plain or gzip
     * @return the operations in order
     * @throws TraceFormatException naming the file and line of the first bad line
     * @throws UncheckedIOException if the file cannot be read
     */
    public static List<Operation> read(Path path) {
        try (BufferedReader in = TraceFile.open(path)) {
            return read(in, path.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(TraceFile.problem("trace file", path.toString(), e), e);
        }
    }

    /**
     * Reads an op trace from a reader.
     *
     * @param in the text
     * @param source the name used in error messages
     * @return the operations in order
     * @throws IOException if reading fails
     * @throws TraceFormatException naming the source and line of the first bad line
     */
    public static List<Operation> read(BufferedReader in, String source) throws IOException {
        List<Operation> ops = new ArrayList<>();
        String line;
        long number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            int hash = line.indexOf('#');
            String text = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (!text.isEmpty()) {
                ops.add(parse(text.split("\\s+"), source, number));
            }
        }
        return ops;
    }

    /**
     * Parses one non-empty op-trace line.
     *
     * @param line the line
     * @return the operation
     * @throws TraceFormatException with source {@code <line>} and line 1 if it is malformed
     */
    public static Operation parseLine(String line) {
        return parse(line.trim().split("\\s+"), "<line>", 1);
    }

    private static Operation parse(String[] f, String source, long line) {
        Fields in = new Fields(f, source, line);
        String op = f[0].toLowerCase(Locale.ROOT);
        Operation result = switch (op) {
            case "read" -> {
                long key = in.key(1);
                long size = in.amount(2, "size");
                ReadKind kind = null;
                boolean hold = false;
                BufType type = null;
                for (int i = 3; i < f.length; i++) {
                    String w = f[i].toLowerCase(Locale.ROOT);
                    boolean repeated = switch (w) {
                        case "demand", "prefetch", "prescient" -> kind != null;
                        case "hold" -> hold;
                        case "meta" -> type != null;
                        default -> throw in.error("expected demand, prefetch, prescient, hold or meta, got "
                                + Excerpt.of(f[i]));
                    };
                    if (repeated) {
                        throw in.error("read takes at most one of demand, prefetch and prescient, at most one "
                                + "hold and at most one meta, got "
                                + Excerpt.of(String.join(" ", Arrays.copyOfRange(f, 3, f.length))));
                    }
                    switch (w) {
                        case "demand" -> kind = ReadKind.DEMAND;
                        case "prefetch" -> kind = ReadKind.PREFETCH;
                        case "prescient" -> kind = ReadKind.PRESCIENT_PREFETCH;
                        case "hold" -> hold = true;
                        default -> type = BufType.METADATA;
                    }
                }
                yield new Operation.Read(key, size, kind == null ? ReadKind.DEMAND : kind, hold,
                        type == null ? BufType.DATA : type);
            }
            case "write" -> new Operation.Write(in.key(1), in.amount(2, "size"), in.optionalMeta(3));
            case "complete" -> new Operation.Complete(in.key(1), in.optionalHold(2));
            case "release" -> new Operation.Release(in.key(1));
            case "overwrite" -> new Operation.Overwrite(in.key(1), in.key(2, "newKey"));
            case "free" -> new Operation.Free(in.key(1));
            case "shrink" -> new Operation.Shrink(in.amount(1, "bytes"));
            case "evict" -> new Operation.Evict();
            case "reap" -> new Operation.Reap();
            case "tick" -> new Operation.Tick(in.amount(1, "ticks"));
            case "memory" -> new Operation.Memory(in.amount(1, "bytes"));
            default -> throw in.error("unknown operation " + Excerpt.of(f[0])
                    + " (expected read, write, complete, release, overwrite, free, shrink, evict, reap, tick or "
                    + "memory)");
        };
        in.requireAtMost(maxFields(op));
        return result;
    }

    private static int maxFields(String op) {
        return switch (op) {
            case "read" -> 6;
            case "write" -> 4;
            case "complete", "overwrite" -> 3;
            case "evict", "reap" -> 1;
            default -> 2;
        };
    }

    /** The fields of one line, with parsing that reports errors against the line. */
    private record Fields(String[] f, String source, long line) {

        long key(int i) {
            return key(i, "key");
        }

        long key(int i, String name) {
            String s = field(i, name);
            try {
                return Decimal.parseLong(s);
            } catch (NumberFormatException e) {
                throw error(name + " must be a 64-bit integer, got " + Excerpt.of(s));
            }
        }

        long amount(int i, String name) {
            String s = field(i, name);
            long unit = 1;
            String digits = s;
            char last = Character.toUpperCase(s.charAt(s.length() - 1));
            if (last == 'K' || last == 'M' || last == 'G') {
                unit = last == 'K' ? 1L << 10 : last == 'M' ? 1L << 20 : 1L << 30;
                digits = s.substring(0, s.length() - 1);
            }
            try {
                long v = Decimal.parseLong(digits);
                if (v < 0) {
                    throw error(name + " must be >= 0, got " + Excerpt.of(s));
                }
                return Math.multiplyExact(v, unit);
            } catch (NumberFormatException | ArithmeticException e) {
                throw error(name + " must be a non-negative integer with an optional K, M or G suffix, got "
                        + Excerpt.of(s));
            }
        }

        boolean optionalHold(int i) {
            if (f.length <= i) {
                return false;
            }
            if (!f[i].equalsIgnoreCase("hold")) {
                throw error("expected hold, got " + Excerpt.of(f[i]));
            }
            return true;
        }

        BufType optionalMeta(int i) {
            if (f.length <= i) {
                return BufType.DATA;
            }
            if (!f[i].equalsIgnoreCase("meta")) {
                throw error("expected meta, got " + Excerpt.of(f[i]));
            }
            return BufType.METADATA;
        }

        void requireAtMost(int n) {
            if (f.length > n) {
                throw error("too many fields for " + f[0] + ": expected at most " + (n - 1) + " arguments, got "
                        + (f.length - 1));
            }
        }

        String field(int i, String name) {
            if (f.length <= i) {
                throw error(f[0] + " needs " + name + " as argument " + i);
            }
            return f[i];
        }

        TraceFormatException error(String problem) {
            return new TraceFormatException(source, line, problem);
        }
    }
}
