package org.arcref.specs.conformance;

import org.arcref.zfs.ZfsEngine;

/**
 * zfs-2.1.1's engine's built-in traces ({@code traces/INDEX}) against their pinned outputs,
 * {@code builtin-outputs.sha256} ({@link PinnedBuiltinOutputs}).
 */
class BuiltinOutputsPinnedTest extends PinnedBuiltinOutputs {

    BuiltinOutputsPinnedTest() {
        super(ZfsEngine.V2_1_1, "builtin-outputs.sha256");
    }
}
