package org.arcref.specs.zfs;

/**
 * Whether the chain properties check the statistical coverage of their generators (the share of tries that reached
 * evictions, ghost hits, waiters, ...): on, but for {@code -Darcref.generatorCoverage=false}, which the mutation
 * profile sets. A mutation run gives each property a few tries (PIT's {@code -Dmutation.jqwikTries}), and with few
 * tries a percentage falls short at random: the property would fail whatever the mutant, and PIT would count the
 * mutant killed. What a coverage check guards is the generator, not the code under test.
 */
final class GeneratorCoverage {

    /** Whether coverage is checked. */
    static final boolean CHECKED = !"false".equals(System.getProperty("arcref.generatorCoverage"));

    private GeneratorCoverage() {
    }
}
