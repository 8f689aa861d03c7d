package org.arcref.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * libCacheSim's {@code oracleGeneral} binary trace: a sequence of packed 24-byte little-endian records, one request
 * each, without a header: {@code uint32 clock_time, uint64 obj_id, uint32 obj_size, int64 next_access_vtime} (at
 * byte offsets 0, 4, 12 and 16 of the record).
 *
 * <p>Contract: a record is one request of the page {@code obj_id}, its 64 bits used as they are (as a signed
 * {@code long}: ids from 2^63 up are negative, and distinct ids stay distinct). {@code obj_size} is ignored, so cache
 * sizes count objects (libCacheSim's {@code --ignore-obj-size 1}); so are {@code clock_time} and
 * {@code next_access_vtime} (the future knowledge that Belady's algorithm uses). The stream is read once, from start
 * to end; content whose length is not a multiple of 24 ends in a truncated record, an error naming the source, the
 * record and its byte offset.
 */
final class OracleGeneralTrace {

    /** The bytes of a record. */
    static final int RECORD = 24;

    private static final int OBJ_ID_OFFSET = 4;
    private static final int RECORDS_PER_READ = 2730;

    private OracleGeneralTrace() {
    }

    /**
     * @param content the decompressed bytes, read to their end
     * @param source the name for error messages
     * @param out receives the requests
     * @throws IOException if reading fails
     * @throws TraceFormatException naming the record and byte offset of a truncated last record
     */
    static void read(InputStream content, String source, PageBuffer out) throws IOException {
        byte[] chunk = new byte[RECORD * RECORDS_PER_READ];
        ByteBuffer view = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
        long records = 0;
        int n;
        while ((n = content.readNBytes(chunk, 0, chunk.length)) > 0) {
            int whole = n / RECORD;
            for (int i = 0; i < whole; i++) {
                records++;
                out.addRange(view.getLong(i * RECORD + OBJ_ID_OFFSET), 1, source, records);
            }
            if (n % RECORD != 0) {
                throw TraceFormatException.inRecord(source, records + 1, records * RECORD, "a truncated record: the "
                        + "content ends " + n % RECORD + " bytes into it, expected " + RECORD
                        + "-byte records (clock_time, obj_id, obj_size, next_access_vtime)");
            }
        }
    }
}
