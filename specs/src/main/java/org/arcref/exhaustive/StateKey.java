package org.arcref.exhaustive;

import java.util.Arrays;

/** A state's canonical encoding ({@link StateEncoding}): compared and hashed by content. Immutable. */
public final class StateKey {

    private final long[] words;
    private final int hash;

    StateKey(long[] words) {
        this.words = words;
        this.hash = Arrays.hashCode(words);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StateKey k && k.hash == hash && Arrays.equals(k.words, words);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return Arrays.toString(words);
    }
}
