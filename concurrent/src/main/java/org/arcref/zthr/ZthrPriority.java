package org.arcref.zthr;

/**
 * The kernel thread priorities a zthr can be created with ({@code pri_t}, the argument added by OpenZFS #12397 in
 * 2.1.1), mapped to Java priorities.
 *
 * <p>On Linux, HotSpot ignores Java priorities unless the JVM runs with {@code -XX:ThreadPriorityPolicy=1}, which
 * needs root; with it, priorities 1, 5 and 10 run at nice 4, 0 and -5, and adding
 * {@code -XX:JavaPriority1_To_OSPriority=19} makes priority 1 run at nice 19, ZFS's {@code minclsyspri}. Nice
 * values below -5 are not reachable this way, so {@code maxclsyspri} (nice -20) is approximated.
 * {@link PriorityPolicy} logs which of these modes is in effect when the first zthr starts.
 */
public enum ZthrPriority {
    /** {@code minclsyspri} (Linux: nice 19): every zthr before #12397, {@code arc_reap} after. */
    MINCLSYSPRI(Thread.MIN_PRIORITY),
    /** {@code defclsyspri} (Linux: nice 0): the {@code arc_evict} zthr from 2.1.1 on. */
    DEFCLSYSPRI(Thread.NORM_PRIORITY),
    /** {@code maxclsyspri} (Linux: nice -20): what the unmerged #12151 proposed for {@code arc_evict}. */
    MAXCLSYSPRI(Thread.MAX_PRIORITY);

    private final int javaPriority;

    ZthrPriority(int javaPriority) {
        this.javaPriority = javaPriority;
    }

    /** The {@link Thread#setPriority} value this level maps to: 1, 5 or 10. */
    public int javaPriority() {
        return javaPriority;
    }
}
