package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The releases the spec follows and each quirk fix's provenance: a release's fixes are exactly the upstream fixes of
 * its engine that a release at or before it shipped, derived here from each fix's first release, not read from the
 * release; and the provenance of a fix (its pull request, commit and first release) is the one docs/scope.md gives.
 */
class ReleaseProvenanceTest {

    @Test
    void aReleasesFixesAreTheFixesOfItsEngineShippedByThenAndNoOthers() {
        for (ZfsRelease r : ZfsRelease.values()) {
            Set<QuirkFix> shipped = EnumSet.noneOf(QuirkFix.class);
            for (QuirkFix f : QuirkFix.values()) {
                if (f.engine() == r.engine() && f.firstRelease().isPresent()
                        && compareVersions(f.firstRelease().get(), r.version()) <= 0) {
                    shipped.add(f);
                }
            }
            assertEquals(shipped, r.fixes(), "zfs-" + r);
        }
        assertEquals(ZfsEngine.V2_1_1, ZfsRelease.V2_1_16.engine());
        assertEquals(ZfsEngine.V2_2_0, ZfsRelease.V2_2_11.engine());
        assertEquals(3, ZfsRelease.V2_2_11.fixes().size(), "2.2.11 shipped three of the engine's fixes");
    }

    @Test
    void aReleaseIsFoundByItsVersionAndPrintsIt() {
        assertEquals(Optional.of(ZfsRelease.V2_2_11), ZfsRelease.of("2.2.11"));
        assertEquals(Optional.of(ZfsRelease.V2_1_1), ZfsRelease.of("2.1.1"));
        assertEquals(Optional.empty(), ZfsRelease.of("2.3.0"));
        assertEquals("2.1.16", ZfsRelease.V2_1_16.toString());
        assertEquals("2.1.1, 2.1.16, 2.2.0, 2.2.11", ZfsRelease.versions());
    }

    @Test
    void anUpstreamFixNamesItsPullRequestCommitAndFirstRelease() {
        QuirkFix f = QuirkFix.EVICT_ADJ_OVERFLOW_17255;
        assertFalse(f.ours());
        assertEquals(Optional.of(17255), f.upstreamPr());
        assertEquals(Optional.of("be72364ad6"), f.commit());
        assertEquals(Optional.of("2.2.8"), f.firstRelease());
        QuirkFix unreleased = QuirkFix.ADAPT_MRU_64BIT_MULTIPLY_14094;
        assertEquals(Optional.of(14094), unreleased.upstreamPr());
        assertEquals(Optional.empty(), unreleased.firstRelease(), "#14094 was never in a release");
    }

    @Test
    void ourFixesHaveNoUpstreamProvenance() {
        for (QuirkFix f : QuirkFix.values()) {
            assertEquals(f.name().endsWith("_OURS"), f.ours(), f.name());
        }
        QuirkFix ours = QuirkFix.SHRINK_CLAMPS_ARC_P_OURS;
        assertTrue(ours.ours());
        assertEquals(Optional.empty(), ours.upstreamPr());
        assertEquals(Optional.empty(), ours.commit());
        assertEquals(Optional.empty(), ours.firstRelease());
    }

    /** @return the order of two dotted versions, numerically by part */
    private static int compareVersions(String a, String b) {
        int[] x = Arrays.stream(a.split("\\.")).mapToInt(Integer::parseInt).toArray();
        int[] y = Arrays.stream(b.split("\\.")).mapToInt(Integer::parseInt).toArray();
        return Arrays.compare(x, y);
    }
}
