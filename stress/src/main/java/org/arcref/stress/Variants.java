package org.arcref.stress;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Chooses the class a stress test exercises: the production class by default, or, when the system property
 * names another class, that class's static {@code create} method of the same signature ({@code Class#method}
 * names another static method). The broken-variant profile uses this to run the very same JCStress scenarios
 * against the deliberately broken aggsum, zthr and ARC kept in {@code concurrent}'s test sources (its test-jar),
 * so that a scenario is shown to catch them without a copy of the scenario. Properties: {@value #AGGSUM_PROPERTY},
 * {@value #ZTHR_PROPERTY} and {@value #ARC_PROPERTY}; pass them to JCStress's forked VMs with
 * {@code -jvmArgsPrepend -D...=...}.
 */
public final class Variants {
    /** Names the aggsum class under test, e.g. {@code org.arcref.aggsum.SkippedBoundCheckAggSum}. */
    public static final String AGGSUM_PROPERTY = "arcref.stress.aggsum";
    /** Names the zthr class under test, e.g. {@code org.arcref.zthr.LostWakeupZthr}. */
    public static final String ZTHR_PROPERTY = "arcref.stress.zthr";
    /** Names the ARC factory under test, e.g. {@code org.arcref.arc.BrokenArcs#lostWakeup}. */
    public static final String ARC_PROPERTY = "arcref.stress.arc";

    private Variants() {
    }

    /**
     * The static {@code create} method of the class the property names, or of {@code production} when it is unset.
     *
     * @throws IllegalStateException if the class or the method cannot be found
     */
    public static MethodHandle factory(String property, Class<?> production, MethodType type) {
        return find(property, System.getProperty(property, production.getName()), type);
    }

    /**
     * The static method the property names ({@code Class} for its {@code create}, or {@code Class#method}), of the
     * type of {@code production}, or {@code production} itself when the property is unset.
     *
     * @throws IllegalStateException if the class or the method cannot be found
     */
    public static MethodHandle factory(String property, MethodHandle production) {
        String name = System.getProperty(property);
        return name == null ? production : find(property, name, production.type());
    }

    private static MethodHandle find(String property, String name, MethodType type) {
        int hash = name.indexOf('#');
        String className = hash < 0 ? name : name.substring(0, hash);
        String method = hash < 0 ? "create" : name.substring(hash + 1);
        try {
            return MethodHandles.publicLookup().findStatic(Class.forName(className), method, type);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(property + " must name a class with a public static " + method + type
                    + ", was " + name, e);
        }
    }

    /** Calls a factory from {@link #factory}, rethrowing what it throws unchecked. */
    public static <T> T invoke(MethodHandle factory, Class<T> type, Object... args) {
        try {
            return type.cast(factory.invokeWithArguments(args));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
