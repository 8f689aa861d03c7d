package org.arcref.explore;

import java.util.Locale;

/** The checks {@code arc explore} runs on random operation sequences, by their command-line names. */
public enum CheckKind {
    /**
     * R1–R13 ({@link org.arcref.zfs.check.ArcInvariants}) after every operation of the spec, on a small cache with a
     * random configuration, tunables and quirk switches.
     */
    INVARIANTS,
    /**
     * D1 ({@link org.arcref.differential.Lockstep}): the concurrent ARC in deterministic mode returns the
     * spec's outcome and snapshot after every operation, on the same configurations as {@link #INVARIANTS}.
     */
    DIFFERENTIAL,
    /**
     * Page mode: the canonical ARC keeps C1 ({@link org.arcref.policy.check.C1Checker}) after every request, the
     * spec in page mode keeps R1–R13, and the two hit on exactly the same requests while no more distinct pages than
     * the capacity have been requested (the only regime in which they must agree: see {@code docs/exploration.md}).
     */
    CANONICAL,
    /**
     * The spec against the real {@code arc.c} of a release ({@link org.arcref.oracle.OracleComparison}; zfs-2.1.1's
     * by default): the complete conformance output, header included, equal after every operation, the spec running
     * the release's engine with the fixes it shipped. zfs-2.1.1's engine runs on the configurations of
     * {@link #INVARIANTS} without quirk fixes, zfs-2.2.0's on {@link Random22Scenario}'s. Needs the oracle binary
     * ({@code docs/oracle.md}), so it runs only when named.
     */
    ORACLE;

    /** The checks {@code arc explore} runs when {@code --checks} is not given: all but {@link #ORACLE}. */
    public static final java.util.List<CheckKind> DEFAULTS = java.util.List.of(INVARIANTS, DIFFERENTIAL, CANONICAL);

    /** @return the lower-case name used on the command line and in traces */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
