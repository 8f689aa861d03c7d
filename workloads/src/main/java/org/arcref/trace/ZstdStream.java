package org.arcref.trace;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.zstd.ZstdInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The decompressed content of zstd data (RFC 8878), decoded by aircompressor (pure Java), read once from start to
 * end, its decoder's failures turned into {@link IOException}s that say {@code zstd}: the decoder throws an unchecked
 * {@link MalformedInputException} on corrupt data (here {@code corrupt zstd data}) and a bare
 * {@code IOException("Not enough input bytes")} on a truncated file (here {@code corrupt or truncated zstd data});
 * {@link TraceFile#problem} passes both words on.
 */
public final class ZstdStream extends FilterInputStream {

    /** One read of the decoder. */
    @FunctionalInterface
    private interface Read {
        int read() throws IOException;
    }

    /**
     * @param raw the zstd data, positioned at its first byte; closed with this stream
     */
    ZstdStream(InputStream raw) {
        super(new ZstdInputStream(raw));
    }

    @Override
    public int read() throws IOException {
        return worded(in::read);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return worded(() -> in.read(b, off, len));
    }

    private static int worded(Read read) throws IOException {
        try {
            return read.read();
        } catch (MalformedInputException e) {
            throw new IOException("corrupt zstd data (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new IOException("corrupt or truncated zstd data (" + e.getMessage() + ")", e);
        }
    }
}
