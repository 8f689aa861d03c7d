package org.arcref.trace;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * The decompressed content of gzip data (RFC 1952): one or more members, each a header, deflate data and a trailer
 * whose CRC-32 and length are checked, read once from start to end; and nothing after the last member.
 *
 * <p>Unlike {@link java.util.zip.GZIPInputStream}, which silently ignores whatever follows the last member when it
 * does not parse as another header (so a file with garbage appended reads as if it were whole), bytes after the
 * last member that do not start another member are an error naming their byte offset in the compressed data.
 * Failures are {@link IOException}s that {@link TraceFile#problem} words: an {@link EOFException} for data that
 * ends early (a truncated file), a {@link ZipException} for corrupt data (a bad header, invalid deflate data, a
 * checksum or length mismatch), a plain {@code IOException} for trailing garbage.
 */
public final class GzipStream extends InputStream {

    private static final int MAGIC_0 = 0x1f;
    private static final int MAGIC_1 = 0x8b;
    private static final int DEFLATE = 8;
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;

    private final PushbackInputStream in;
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private final byte[] buf = new byte[1 << 16];
    private int filled;
    /** Compressed bytes consumed before the current member's deflate data, plus its header. */
    private long offset;
    private boolean end;

    /**
     * @param raw the gzip data, positioned at its first byte; closed with this stream
     * @throws IOException if the first member's header cannot be read or is not gzip
     */
    GzipStream(InputStream raw) throws IOException {
        this.in = new PushbackInputStream(raw, buf.length);
        readHeader();
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
        while (!end) {
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw new ZipException("invalid deflate data: " + e.getMessage());
            }
            if (n > 0) {
                crc.update(b, off, n);
                return n;
            }
            if (inflater.finished()) {
                endMember();
            } else if (inflater.needsDictionary()) {
                throw new ZipException("the deflate data asks for a preset dictionary, which gzip does not have");
            } else if (inflater.needsInput()) {
                filled = in.read(buf, 0, buf.length);
                if (filled < 0) {
                    throw new EOFException("the deflate data ends early");
                }
                inflater.setInput(buf, 0, filled);
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        inflater.end();
        in.close();
    }

    /** Checks the trailer of the member just inflated, then starts the next member or ends the stream. */
    private void endMember() throws IOException {
        int unused = inflater.getRemaining();
        if (unused > 0) {
            in.unread(buf, filled - unused, unused);
        }
        offset += inflater.getBytesRead();
        long storedCrc = readInt();
        long storedLength = readInt();
        if (storedCrc != crc.getValue()) {
            throw new ZipException("CRC-32 mismatch: the data decodes to other bytes than were compressed");
        }
        if (storedLength != (inflater.getBytesWritten() & 0xffffffffL)) {
            throw new ZipException("length mismatch: the data decodes to " + inflater.getBytesWritten()
                    + " bytes, the trailer says " + storedLength + " (mod 2^32)");
        }
        int b0 = in.read();
        if (b0 < 0) {
            end = true;
            return;
        }
        int b1 = in.read();
        if (b0 != MAGIC_0 || b1 != MAGIC_1) {
            throw new IOException("trailing garbage after the gzip data, at byte offset " + offset);
        }
        in.unread(b1);
        in.unread(b0);
        inflater.reset();
        crc.reset();
        readHeader();
    }

    private void readHeader() throws IOException {
        if (readByte() != MAGIC_0 || readByte() != MAGIC_1) {
            throw new ZipException("not in gzip format");
        }
        int method = readByte();
        if (method != DEFLATE) {
            throw new ZipException("unsupported compression method " + method);
        }
        int flags = readByte();
        skip(6);
        if ((flags & FEXTRA) != 0) {
            skip(readByte() | readByte() << 8);
        }
        if ((flags & FNAME) != 0) {
            skipString();
        }
        if ((flags & FCOMMENT) != 0) {
            skipString();
        }
        if ((flags & FHCRC) != 0) {
            skip(2);
        }
    }

    private long readInt() throws IOException {
        return readByte() | readByte() << 8 | readByte() << 16 | (long) readByte() << 24;
    }

    private void skipString() throws IOException {
        while (readByte() != 0) {
            continue;
        }
    }

    private void skip(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            readByte();
        }
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("the gzip data ends early");
        }
        offset++;
        return b;
    }
}
