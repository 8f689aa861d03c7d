package org.arcref.trace;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * The decompressed content of gzip data (RFC 1952), decoded by {@link GZIPInputStream}: one or more members, each
 * checked against the CRC-32 and length of its trailer, read once from start to end; and nothing after the last
 * member. This class adds only what {@code GZIPInputStream} lacks:
 *
 * <ul>
 *   <li>Bytes after the last member that do not start with a whole member header (trailing garbage, or a member
 *       cut in its header) are an error naming the byte offset in the gzip data where the last member ends
 *       ({@code GZIPInputStream} ignores them, so a file with garbage appended would read as if it were whole).
 *   <li>Every member is read, from a pipe too: after a member's trailer, Java 17's {@code GZIPInputStream} looks
 *       for another member only when {@code available()} of the compressed stream says that bytes are ready (which
 *       on a pipe may be 0 while more data is on its way) or when more than 18 bytes follow the trailer in its
 *       buffer, where Java 25's always looks. The stream given to it here answers {@code available()} with whether
 *       any byte follows the trailer, in that buffer or still to come (reading one byte ahead, and blocking until
 *       it comes, if it must), so that every version looks for another member exactly when a byte follows; and a
 *       member cut after its header is a truncated file on every version, rather than trailing garbage on some.
 *   <li>A mismatch of a member's CRC-32 or length is worded ({@code GZIPInputStream} says
 *       {@code Corrupt GZIP trailer}).
 * </ul>
 *
 * <p>Failures are {@link IOException}s that {@link TraceFile#problem} words: an {@link EOFException} for data that
 * ends early (a truncated file), a {@link ZipException} for corrupt data (a bad header, invalid deflate data, a
 * CRC-32 or length mismatch), a plain {@code IOException} for trailing garbage.
 */
public final class GzipStream extends GZIPInputStream {

    /** The size of a member's trailer: CRC-32 and length, 4 bytes each. */
    private static final int TRAILER = 8;
    private static final int BUFFER = 1 << 16;
    private static final String MISMATCH = "CRC-32 or length mismatch: the data decodes to other bytes than were "
            + "compressed";

    /** The offset in the gzip data just past the bytes of {@code buf}, as of the last {@link #fill}. */
    private long filled;
    /** Whether the end of the content was reached and nothing follows the last member. */
    private boolean ended;

    /**
     * @param raw the gzip data, positioned at its first byte; closed with this stream
     * @throws IOException if the first member's header cannot be read ({@link EOFException}) or is not a gzip
     *     header of deflate data ({@link ZipException})
     */
    GzipStream(InputStream raw) throws IOException {
        super(new Compressed(raw), BUFFER);
        ((Compressed) in).inflater = inf;
    }

    /**
     * Reads decompressed bytes.
     *
     * @return the number of bytes read, or -1 at the end of the last member when nothing follows it
     * @throws IOException as the class comment says
     */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = super.read(b, off, len);
        } catch (ZipException e) {
            // A ZipException once the member's deflate data is finished is the trailer's. GZIPInputStream reads a
            // following member in a nested call to this method, and the outer call passes its wording on as it is.
            if (inf.finished() && !MISMATCH.equals(e.getMessage())) {
                ZipException worded = new ZipException(MISMATCH);
                worded.initCause(e);
                throw worded;
            }
            throw e;
        }
        if (n < 0) {
            checkNothingFollows();
        }
        return n;
    }

    @Override
    protected void fill() throws IOException {
        super.fill();
        filled = ((Compressed) in).count;
    }

    /**
     * At the end of the content: the last member's trailer starts where the inflater's unused input starts (that
     * input ends at {@link #filled}), so the gzip data ends {@value #TRAILER} bytes later; a byte delivered past
     * that (GZIPInputStream tried it as the header of another member) or still to come is trailing garbage.
     */
    private void checkNothingFollows() throws IOException {
        if (ended) {
            return;
        }
        Compressed compressed = (Compressed) in;
        long end = filled - inf.getRemaining() + TRAILER;
        if (compressed.count > end || compressed.available() > 0) {
            throw new IOException("trailing garbage after the gzip data, at byte offset " + end);
        }
        ended = true;
    }

    /**
     * The gzip data as {@link GZIPInputStream} reads it: the bytes delivered are counted, and {@link #available}
     * answers whether another byte follows.
     */
    private static final class Compressed extends InputStream {
        private static final int NOTHING = -2;
        private static final int END = -1;

        private final InputStream in;
        /** The bytes delivered so far: the offset in the gzip data of the next one. */
        private long count;
        /** A byte read ahead by {@link #available}, {@link #END} once the data has ended, or {@link #NOTHING}. */
        private int ahead = NOTHING;
        /** The inflater of the {@link GzipStream} that reads this (null while that is constructed). */
        private Inflater inflater;

        Compressed(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int n;
            if (ahead == END) {
                return -1;
            } else if (ahead != NOTHING) {
                b[off] = (byte) ahead;
                ahead = NOTHING;
                n = 1;
            } else {
                n = in.read(b, off, len);
                if (n < 0) {
                    ahead = END;
                    return -1;
                }
            }
            count += n;
            return n;
        }

        /**
         * @return 0 only if no byte of the gzip data follows: none is left after the trailer of the member the
         *     inflater has finished (delivered already, in the buffer of the {@link GzipStream}), and the data has
         *     ended here; otherwise at least 1 (reading one byte ahead, and blocking until it comes, to find out if
         *     it must)
         */
        @Override
        public int available() throws IOException {
            if (inflater != null && inflater.finished() && inflater.getRemaining() > TRAILER) {
                return 1;
            }
            if (ahead == NOTHING) {
                int n = in.available();
                if (n > 0) {
                    return n;
                }
                ahead = in.read();
            }
            return ahead == END ? 0 : 1;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
