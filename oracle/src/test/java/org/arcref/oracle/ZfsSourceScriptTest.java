package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code oracle/scripts/zfs-source.sh}, every branch but a download from the network: the script is copied into a
 * made-up clone in a temporary folder, beside a made-up workplace folder of tarballs (where the script's second place
 * is, relative to the clone's root), with a cache of its own ({@code ARCREF_CACHE}) and a {@code releases.tsv} that
 * lists one made-up release whose digests this test computes itself, by the rule {@code releases.tsv} states.
 * Downloads come from a {@code file://} URL ({@code ARCREF_ZFS_URL}) or are forbidden ({@code ARCREF_ZFS_OFFLINE=1}).
 */
@Timeout(120)
class ZfsSourceScriptTest {

    private static final String RELEASE = "9.8.7";
    private static final String NAME = "zfs-" + RELEASE + ".tar.gz";
    private static final Path SCRIPTS = Path.of(System.getProperty("oracle.scripts", "scripts"));

    /** The release's C sources and a file of another kind; paths relative to {@code zfs-RELEASE/}. */
    private static final Map<String, String> TREE = Map.of(
            "module/zfs/arc.c", "/* arc.c of the made-up release */\nint arc_size;\n",
            "module/zfs/dbuf.c", "int dbuf;\n",
            "module/Makefile.in", "all:\n",
            "include/sys/arc.h", "extern int arc_size;\n",
            "include/os/linux/spl/sys/types.h", "typedef int t;\n",
            "lib/libzpool/kernel.c", "int kernel;\n",
            "lib/libspl/include/assert.h", "#define ASSERT(x)\n");

    @TempDir
    Path tmp;
    private Path script;
    private Path shared;
    private Path cache;
    private Path sources;
    private Path mirror;

    @BeforeEach
    void layout() throws IOException {
        Path scripts = Files.createDirectories(tmp.resolve("clone/oracle/scripts"));
        script = scripts.resolve("zfs-source.sh");
        Files.copy(SCRIPTS.resolve("zfs-source.sh"), script);
        Digests d = digests(TREE);
        Files.writeString(scripts.resolve("releases.tsv"), "# release\tarc_sha256\tfixes\tsources_sha256\n"
                + RELEASE + "\t" + d.arc() + "\t-\t" + d.sources() + "\n");
        shared = tmp.resolve("shared").resolve("zfs");
        cache = tmp.resolve("cache");
        sources = Files.createDirectories(tmp.resolve("sources"));
        mirror = tmp.resolve("mirror");
    }

    @Test
    @DisplayName("$ARCREF_ZFS_SOURCES is looked in first, before the workplace folder and the cache")
    void arcrefZfsSourcesComesFirst() throws Exception {
        Path wanted = tarball(sources, TREE);
        tarball(Files.createDirectories(shared), TREE);
        tarball(Files.createDirectories(cache.resolve("zfs-sources")), TREE);
        Run r = run(Map.of("ARCREF_ZFS_SOURCES", sources.toString()), RELEASE);
        assertFound(wanted, r);
    }

    @Test
    @DisplayName("then the workplace folder beside the clone, also when $ARCREF_ZFS_SOURCES lacks the release")
    void theWorkplaceFolderComesSecond() throws Exception {
        Path wanted = tarball(Files.createDirectories(shared), TREE);
        tarball(Files.createDirectories(cache.resolve("zfs-sources")), TREE);
        assertFound(wanted, run(Map.of(), RELEASE));
        assertFound(wanted, run(Map.of("ARCREF_ZFS_SOURCES", sources.toString()), RELEASE));
    }

    @Test
    @DisplayName("then the cache, ${ARCREF_CACHE}/zfs-sources")
    void theCacheComesThird() throws Exception {
        Path wanted = tarball(Files.createDirectories(cache.resolve("zfs-sources")), TREE);
        assertFound(wanted, run(Map.of(), RELEASE));
    }

    @Test
    @DisplayName("then a download from ARCREF_ZFS_URL into the cache, which the next run finds offline")
    void aDownloadGoesIntoTheCache() throws Exception {
        Path offered = tarball(Files.createDirectories(mirror.resolve("zfs-" + RELEASE)), TREE);
        Run r = run(Map.of("ARCREF_ZFS_OFFLINE", "0", "ARCREF_ZFS_URL", mirror.toUri().toString()), RELEASE);
        Path cached = cache.resolve("zfs-sources").resolve(NAME);
        assertFound(cached, r);
        assertArrayEquals(Files.readAllBytes(offered), Files.readAllBytes(cached));
        assertEquals(List.of(NAME), listing(cache.resolve("zfs-sources")), "nothing but the tarball is left");
        Files.delete(offered);
        assertFound(cached, run(Map.of(), RELEASE));
    }

    @Test
    @DisplayName("files a release tarball's build generates do not change the digest")
    void generatedFilesAreIgnored() throws Exception {
        Map<String, String> official = new TreeMap<>(TREE);
        official.put("include/zfs_gitrev.h", "#define\tZFS_META_GITREV \"zfs-" + RELEASE + "-0-g0123456-dist\"\n");
        official.put("module/zfs/zfs.mod.c", "/* a kernel build's output */\n");
        official.put("configure", "#! /bin/sh\n");
        Path wanted = tarball(sources, official);
        assertFound(wanted, run(Map.of("ARCREF_ZFS_SOURCES", sources.toString()), RELEASE));
    }

    @Test
    @DisplayName("a tarball whose arc.c differs is rejected, naming it and both digests, and the search stops")
    void aWrongArcCIsRejected() throws Exception {
        Map<String, String> other = new TreeMap<>(TREE);
        other.put("module/zfs/arc.c", "/* another arc.c */\n");
        Path wrong = tarball(sources, other);
        tarball(Files.createDirectories(shared), TREE);
        Run r = run(Map.of("ARCREF_ZFS_SOURCES", sources.toString()), RELEASE);
        assertEquals(1, r.status(), r.toString());
        assertEquals("", r.out(), r.toString());
        String line = oneLine(r);
        assertTrue(line.startsWith("zfs-source.sh: " + wrong + " (from $ARCREF_ZFS_SOURCES) is not OpenZFS " + RELEASE
                + "'s source: the SHA-256 of its module/zfs/arc.c is " + sha256("/* another arc.c */\n")
                + ", releases.tsv expects " + digests(TREE).arc()), line);
        assertTrue(line.endsWith("replace it with the official release tarball"
                + " (https://github.com/openzfs/zfs/releases/download/zfs-" + RELEASE + "/" + NAME + ") or remove it"),
                line);
    }

    @Test
    @DisplayName("a tarball with the right arc.c but another source file is rejected by the sources digest")
    void aChangedSourceFileIsRejected() throws Exception {
        Map<String, String> other = new TreeMap<>(TREE);
        other.put("lib/libspl/include/assert.h", "#define ASSERT(x) ((void)(x))\n");
        tarball(Files.createDirectories(cache.resolve("zfs-sources")), other);
        Run r = run(Map.of(), RELEASE);
        assertEquals(1, r.status(), r.toString());
        String line = oneLine(r);
        assertTrue(line.contains("(from the cache) is not OpenZFS " + RELEASE + "'s source: its sources digest"
                + " (the *.c and *.h files of module/, include/, lib/) is " + digests(other).sources()
                + ", releases.tsv expects " + digests(TREE).sources()), line);
    }

    @Test
    @DisplayName("a file that is no tarball of the release is rejected with the reason")
    void notATarballIsRejected() throws Exception {
        Files.writeString(sources.resolve(NAME), "not gzip\n");
        Run r = run(Map.of("ARCREF_ZFS_SOURCES", sources.toString()), RELEASE);
        assertEquals(1, r.status(), r.toString());
        assertTrue(oneLine(r).contains("is not OpenZFS " + RELEASE + "'s source: it is not a gzip tarball holding zfs-"
                + RELEASE + "/module, zfs-" + RELEASE + "/include and zfs-" + RELEASE + "/lib"), r.toString());
    }

    @Test
    @DisplayName("a download that fails the check is deleted, not cached")
    void aWrongDownloadIsDeleted() throws Exception {
        Map<String, String> other = new TreeMap<>(TREE);
        other.put("module/zfs/arc.c", "/* another arc.c */\n");
        tarball(Files.createDirectories(mirror.resolve("zfs-" + RELEASE)), other);
        Run r = run(Map.of("ARCREF_ZFS_OFFLINE", "0", "ARCREF_ZFS_URL", mirror.toUri().toString()), RELEASE);
        assertEquals(1, r.status(), r.toString());
        String line = oneLine(r);
        String url = mirror.toUri() + "zfs-" + RELEASE + "/" + NAME;
        assertTrue(line.contains("(downloaded from " + url + ") is not OpenZFS"), line);
        assertTrue(line.endsWith("the download was deleted"), line);
        assertEquals(List.of(), listing(cache.resolve("zfs-sources")));
    }

    @Test
    @DisplayName("nowhere and downloads off: one line naming every place looked in and where to put the tarball")
    void nowhereOfflineIsOneLine() throws Exception {
        Run r = run(Map.of(), RELEASE);
        assertEquals(2, r.status(), r.toString());
        assertEquals("", r.out(), r.toString());
        Path zfsSources = cache.resolve("zfs-sources");
        String url = "https://github.com/openzfs/zfs/releases/download/zfs-" + RELEASE + "/" + NAME;
        assertEquals("zfs-source.sh: no " + NAME + ": $ARCREF_ZFS_SOURCES not set; not in " + shared
                + "; not in the cache " + zfsSources + "; no download (ARCREF_ZFS_OFFLINE=1). Put the official release"
                + " tarball " + NAME + " (" + url + ") into " + zfsSources + " or into a folder named by"
                + " $ARCREF_ZFS_SOURCES", oneLine(r));
        Run withSources = run(Map.of("ARCREF_ZFS_SOURCES", sources.toString()), RELEASE);
        assertTrue(oneLine(withSources).contains(": not in $ARCREF_ZFS_SOURCES (" + sources + "); not in " + shared),
                withSources.toString());
    }

    @Test
    @DisplayName("nowhere and the download failing: one line with the URL and curl's reason")
    void nowhereDownloadFailingIsOneLine() throws Exception {
        Files.createDirectories(mirror);
        Run r = run(Map.of("ARCREF_ZFS_OFFLINE", "0", "ARCREF_ZFS_URL", mirror.toUri().toString()), RELEASE);
        assertEquals(2, r.status(), r.toString());
        String line = oneLine(r);
        assertTrue(line.contains("; download of " + mirror.toUri() + "zfs-" + RELEASE + "/" + NAME + " failed (curl: "),
                line);
        assertTrue(line.contains(". Put the official release tarball " + NAME + " ("), line);
        assertEquals(List.of(), listing(cache.resolve("zfs-sources")), "no partial download is left");
    }

    @Test
    @DisplayName("bad input: the message names the argument or variable, the rule and the value")
    void badInput() throws Exception {
        Path table = script.resolveSibling("releases.tsv");
        assertBad(run(Map.of(), "9.9.9"),
                "zfs-source.sh: RELEASE must be a release of " + table + " (" + RELEASE + "), was '9.9.9'");
        assertBad(run(Map.of()), "zfs-source.sh: usage: zfs-source.sh RELEASE | zfs-source.sh --digest TARBALL");
        assertBad(run(Map.of("ARCREF_ZFS_OFFLINE", "yes"), RELEASE),
                "zfs-source.sh: ARCREF_ZFS_OFFLINE must be 0 or 1 (1 forbids the download), was 'yes'");
        Path missing = tmp.resolve("no-such-folder");
        assertBad(run(Map.of("ARCREF_ZFS_SOURCES", missing.toString()), RELEASE),
                "zfs-source.sh: ARCREF_ZFS_SOURCES must be a folder of OpenZFS release tarballs (zfs-X.Y.Z.tar.gz),"
                        + " was '" + missing + "' (no such folder)");
        assertBad(run(Map.of(), "--digest", missing.toString()),
                "zfs-source.sh: TARBALL must be a file, was '" + missing + "' (no such file)");
    }

    @Test
    @DisplayName("--digest prints the two digests releases.tsv needs, by the rule it states")
    void digestMode() throws Exception {
        Path t = tarball(sources, TREE);
        Run r = run(Map.of(), "--digest", t.toString());
        Digests d = digests(TREE);
        assertEquals(0, r.status(), r.toString());
        assertEquals(d.arc() + " " + d.sources() + "\n", r.out());
    }

    @Test
    @DisplayName("every release of the repository's releases.tsv gives its arc.c SHA-256 and its sources digest")
    void theRepositoryTableHasBothDigests() throws IOException {
        List<String> rows = Files.readAllLines(SCRIPTS.resolve("releases.tsv")).stream()
                .filter(l -> !l.startsWith("#") && !l.isEmpty()).toList();
        assertFalse(rows.isEmpty());
        for (String row : rows) {
            String[] f = row.split("\t", -1);
            assertEquals(4, f.length, "release, arc_sha256, fixes, sources_sha256: " + row);
            assertTrue(f[1].matches("[0-9a-f]{64}") && f[3].matches("[0-9a-f]{64}"), row);
        }
    }

    private record Digests(String arc, String sources) {
    }

    private record Run(int status, String out, String err) {
    }

    /** The two digests of a tree, computed here by the rule {@code releases.tsv} states. */
    private static Digests digests(Map<String, String> tree) {
        StringBuilder lines = new StringBuilder();
        new TreeMap<>(tree).forEach((path, text) -> {
            boolean source = (path.endsWith(".c") || path.endsWith(".h"))
                    && (path.startsWith("module/") || path.startsWith("include/") || path.startsWith("lib/"))
                    && !path.equals("include/zfs_gitrev.h") && !path.endsWith(".mod.c");
            if (source) {
                lines.append(sha256(text)).append("  ").append(path).append('\n');
            }
        });
        return new Digests(sha256(tree.get("module/zfs/arc.c")), sha256(lines.toString()));
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** Writes {@code DIR/zfs-RELEASE.tar.gz} holding the tree under {@code zfs-RELEASE/}, as a release's is. */
    private Path tarball(Path dir, Map<String, String> tree) throws Exception {
        Path staging = Files.createTempDirectory(tmp, "staging");
        for (Map.Entry<String, String> e : tree.entrySet()) {
            Path file = staging.resolve("zfs-" + RELEASE).resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue());
        }
        Path tarball = dir.resolve(NAME);
        Process p = new ProcessBuilder("tar", "-czf", tarball.toString(), "-C", staging.toString(), "zfs-" + RELEASE)
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "tar: " + output);
        return tarball;
    }

    /** Runs the script with no ARCREF_* variable but the test's cache and downloads off, then {@code env}. */
    private Run run(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(command).directory(tmp.toFile());
        Map<String, String> environment = b.environment();
        environment.keySet().removeIf(k -> k.startsWith("ARCREF_"));
        Map<String, String> set = new LinkedHashMap<>();
        set.put("ARCREF_CACHE", cache.toString());
        set.put("ARCREF_ZFS_OFFLINE", "1");
        set.putAll(env);
        environment.putAll(set);
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = b.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("zfs-source.sh " + String.join(" ", args) + " ran over 60 s");
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static void assertFound(Path expected, Run r) throws IOException {
        assertEquals(0, r.status(), r.toString());
        assertEquals("", r.err(), r.toString());
        assertEquals(expected + "\n", r.out(), r.toString());
    }

    private static void assertBad(Run r, String line) {
        assertEquals(2, r.status(), r.toString());
        assertEquals("", r.out(), r.toString());
        assertEquals(line, oneLine(r));
    }

    private static String oneLine(Run r) {
        assertTrue(r.err().endsWith("\n") && r.err().indexOf('\n') == r.err().length() - 1,
                "exactly one line on standard error: " + r);
        return r.err().substring(0, r.err().length() - 1);
    }

    private static List<String> listing(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
