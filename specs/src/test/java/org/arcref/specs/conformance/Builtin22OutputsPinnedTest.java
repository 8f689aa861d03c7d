package org.arcref.specs.conformance;

import org.arcref.zfs.ZfsEngine;

/**
 * zfs-2.2.0's engine's conformance suite against its pinned outputs, {@code builtin-outputs-2.2.0.sha256}
 * ({@link PinnedBuiltinOutputs}), without fixes and with the engine's three: the traces written for it
 * ({@code traces/INDEX-2.2.0}), then every built-in trace of zfs-2.1.1's engine that sets nothing 2.2.0 lacks
 * ({@link SuiteRuns#traces}; {@code Zfs22OracleTest} compares both with arc.c).
 */
class Builtin22OutputsPinnedTest extends PinnedBuiltinOutputs {

    Builtin22OutputsPinnedTest() {
        super(ZfsEngine.V2_2_0, "builtin-outputs-2.2.0.sha256");
    }
}
