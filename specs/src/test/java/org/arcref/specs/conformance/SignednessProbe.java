package org.arcref.specs.conformance;

/**
 * What {@link SignednessMutants#sensitive} puts in place of each unsigned operation: the method of the operation's
 * {@link SignednessMutants.Kind} (named after it in camel case) computes the unsigned result the spec computes and
 * returns it, and records the site (its number, the last argument) when the signed twin would give another result:
 * a comparison of another sign, another quotient, remainder, minimum, maximum, shift or widening. Shared by the
 * instrumented class loader and the test (one suite pass at a time).
 */
public final class SignednessProbe {

    /** Per site, the number of the first call that reached it, or -1. */
    private static int[] firstCall = new int[0];
    private static int call;

    private SignednessProbe() {
    }

    static synchronized void reset(int sites) {
        firstCall = new int[sites];
        java.util.Arrays.fill(firstCall, -1);
        call = 0;
    }

    /** @param number the number of the call about to run */
    static synchronized void call(int number) {
        call = number;
    }

    /** @return the number of the first call where the site's signed twin would have differed, or -1 */
    static synchronized int firstCall(int site) {
        return firstCall[site];
    }

    private static synchronized void mark(int site, boolean differs) {
        if (differs && firstCall[site] < 0) {
            firstCall[site] = call;
        }
    }

    /** @return {@code Long.compareUnsigned(a, b)} */
    public static int longCompare(long a, long b, int site) {
        int u = Long.compareUnsigned(a, b);
        mark(site, Integer.signum(u) != Long.compare(a, b));
        return u;
    }

    /** @return {@code Integer.compareUnsigned(a, b)} */
    public static int intCompare(int a, int b, int site) {
        int u = Integer.compareUnsigned(a, b);
        mark(site, Integer.signum(u) != Integer.signum(Integer.compare(a, b)));
        return u;
    }

    /** @return {@code Long.divideUnsigned(a, b)} */
    public static long longDivide(long a, long b, int site) {
        long u = Long.divideUnsigned(a, b);
        mark(site, u != a / b);
        return u;
    }

    /** @return {@code Long.remainderUnsigned(a, b)} */
    public static long longRemainder(long a, long b, int site) {
        long u = Long.remainderUnsigned(a, b);
        mark(site, u != a % b);
        return u;
    }

    /** @return {@code Integer.divideUnsigned(a, b)} */
    public static int intDivide(int a, int b, int site) {
        int u = Integer.divideUnsigned(a, b);
        mark(site, u != a / b);
        return u;
    }

    /** @return {@code Integer.remainderUnsigned(a, b)} */
    public static int intRemainder(int a, int b, int site) {
        int u = Integer.remainderUnsigned(a, b);
        mark(site, u != a % b);
        return u;
    }

    /** @return {@code Integer.toUnsignedLong(i)} */
    public static long widen(int i, int site) {
        mark(site, i < 0);
        return Integer.toUnsignedLong(i);
    }

    /** @return the unsigned minimum */
    public static long min(long a, long b, int site) {
        long u = Long.compareUnsigned(a, b) <= 0 ? a : b;
        mark(site, u != Math.min(a, b));
        return u;
    }

    /** @return the unsigned maximum */
    public static long max(long a, long b, int site) {
        long u = Long.compareUnsigned(a, b) >= 0 ? a : b;
        mark(site, u != Math.max(a, b));
        return u;
    }

    /** @return {@code v >>> n} */
    public static long longShift(long v, int n, int site) {
        long u = v >>> n;
        mark(site, u != v >> n);
        return u;
    }

    /** @return {@code v >>> n} */
    public static int intShift(int v, int n, int site) {
        int u = v >>> n;
        mark(site, u != v >> n);
        return u;
    }
}
