package org.arcref.exhaustive;

import java.util.Map;

/**
 * A state's canonical encoding and the key renaming that produced it.
 *
 * @param key the encoding: equal for two states exactly when they behave alike (see {@link StateEncoding})
 * @param renaming each key the state holds, mapped to its canonical index among the keys of its sublist, in the
 *     order {@link StateEncoding} lists headers; two states with equal encodings correspond through these indices
 */
public record CanonicalState(StateKey key, Map<Long, Integer> renaming) {

    /** Copies the renaming. */
    public CanonicalState {
        renaming = Map.copyOf(renaming);
    }
}
