package org.arcref.policy;

/**
 * The four lists of the canonical ARC (Megiddo and Modha, FAST'03), and {@link #NONE} for a page
 * outside its directory.
 */
public enum ArcList {
    /** Resident pages seen once since they last entered the directory (recency). */
    T1,
    /** Resident pages seen at least twice (frequency). */
    T2,
    /** Ghosts: pages recently evicted from T1; history only, no data. */
    B1,
    /** Ghosts: pages recently evicted from T2; history only, no data. */
    B2,
    /** Not in the directory. */
    NONE
}
