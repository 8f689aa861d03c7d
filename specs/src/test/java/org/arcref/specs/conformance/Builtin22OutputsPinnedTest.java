package org.arcref.specs.conformance;

import org.arcref.zfs.ZfsEngine;

/**
 * zfs-2.2.0's engine's built-in traces ({@code traces/INDEX-2.2.0}) against their pinned outputs,
 * {@code builtin-outputs-2.2.0.sha256} ({@link PinnedBuiltinOutputs}), without fixes and with the engine's three.
 */
class Builtin22OutputsPinnedTest extends PinnedBuiltinOutputs {

    Builtin22OutputsPinnedTest() {
        super(ZfsEngine.V2_2_0, "builtin-outputs-2.2.0.sha256");
    }
}
