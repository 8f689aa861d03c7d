package org.arcref.specs.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The port bugs of integer signedness and width that Java cannot make by itself: every unsigned operation of the
 * spec's classes replaced, one at a time, by the signed operation a port that keeps ZFS's {@code uint64_t} or
 * {@code uint32_t} in a signed type would use. PIT's mutators do not produce these, since they change operators, not
 * the choice between {@code Long.compareUnsigned} and a signed comparison.
 *
 * <p>The operators, each on one instruction of the named class's bytecode ({@link Kind}): an unsigned comparison
 * becomes a signed one ({@code Long.compareUnsigned} to {@code lcmp}, {@code Integer.compareUnsigned} to
 * {@code Integer.compare}, {@code ArcArithmetic.unsignedMin}/{@code unsignedMax} to {@code Math.min}/{@code max});
 * an unsigned division or remainder a signed one ({@code Long.divideUnsigned} to {@code ldiv},
 * {@code remainderUnsigned} to {@code lrem}, and the {@code int} twins); a logical right shift an arithmetic one
 * ({@code >>>} to {@code >>}); a zero-extension a sign-extension ({@code Integer.toUnsignedLong} to {@code i2l}).
 *
 * <p>Algorithm: {@link #sensitive} first runs the suite once with every site instrumented ({@link SignednessProbe}),
 * which finds the sites where the suite reaches a value whose signed treatment differs from the unsigned one; at
 * every other site the signed twin computes the same on every run, so its mutant cannot be caught. Then
 * {@link #firstCatch} runs each reached site's mutant until a run's output differs. Both run in a class loader of
 * their own, which defines every {@code org.arcref} class from the class path's bytes (the instrumented or mutated
 * classes from their rewritten bytes) and leaves everything else to its parent, so the conformance code that drives
 * the spec links to the rewritten copy; it calls {@link SuiteRuns#output} through that loader.
 */
final class SignednessMutants {

    /** What one mutation replaces. */
    enum Kind {
        /** {@code Long.compareUnsigned(a, b)} to {@code Long.compare(a, b)} ({@code lcmp}). */
        LONG_COMPARE("java/lang/Long", "compareUnsigned", "(JJ)I"),
        /** {@code Integer.compareUnsigned(a, b)} to {@code Integer.compare(a, b)}. */
        INT_COMPARE("java/lang/Integer", "compareUnsigned", "(II)I"),
        /** {@code Long.divideUnsigned(a, b)} to {@code a / b}. */
        LONG_DIVIDE("java/lang/Long", "divideUnsigned", "(JJ)J"),
        /** {@code Long.remainderUnsigned(a, b)} to {@code a % b}. */
        LONG_REMAINDER("java/lang/Long", "remainderUnsigned", "(JJ)J"),
        /** {@code Integer.divideUnsigned(a, b)} to {@code a / b}. */
        INT_DIVIDE("java/lang/Integer", "divideUnsigned", "(II)I"),
        /** {@code Integer.remainderUnsigned(a, b)} to {@code a % b}. */
        INT_REMAINDER("java/lang/Integer", "remainderUnsigned", "(II)I"),
        /** {@code Integer.toUnsignedLong(i)} to {@code (long) i}. */
        WIDEN("java/lang/Integer", "toUnsignedLong", "(I)J"),
        /** {@code ArcArithmetic.unsignedMin(a, b)} to {@code Math.min(a, b)}. */
        MIN("org/arcref/zfs/ArcArithmetic", "unsignedMin", "(JJ)J"),
        /** {@code ArcArithmetic.unsignedMax(a, b)} to {@code Math.max(a, b)}. */
        MAX("org/arcref/zfs/ArcArithmetic", "unsignedMax", "(JJ)J"),
        /** {@code a >>> n} on a {@code long} to {@code a >> n}. */
        LONG_SHIFT(null, null, null),
        /** {@code a >>> n} on an {@code int} to {@code a >> n}. */
        INT_SHIFT(null, null, null);

        private final String owner;
        private final String name;
        private final String descriptor;

        Kind(String owner, String name, String descriptor) {
            this.owner = owner;
            this.name = name;
            this.descriptor = descriptor;
        }

        boolean isCall(String callOwner, String callName, String callDescriptor) {
            return callName.equals(name) && callOwner.equals(owner) && callDescriptor.equals(descriptor);
        }

        boolean isShift(int opcode) {
            return this == LONG_SHIFT && opcode == Opcodes.LUSHR || this == INT_SHIFT && opcode == Opcodes.IUSHR;
        }

        /** Writes a call of {@link SignednessProbe}'s method for this kind, the site's number pushed first. */
        void probe(MethodVisitor mv, int site) {
            mv.visitLdcInsn(site);
            String descriptor = switch (this) {
                case LONG_COMPARE -> "(JJI)I";
                case INT_COMPARE, INT_DIVIDE, INT_REMAINDER, INT_SHIFT -> "(III)I";
                case LONG_DIVIDE, LONG_REMAINDER, MIN, MAX -> "(JJI)J";
                case WIDEN -> "(II)J";
                case LONG_SHIFT -> "(JII)J";
            };
            String[] words = name().toLowerCase(Locale.ROOT).split("_");
            String method = words.length == 1 ? words[0]
                    : words[0] + Character.toUpperCase(words[1].charAt(0)) + words[1].substring(1);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, SignednessProbe.class.getName().replace('.', '/'), method,
                    descriptor, false);
        }

        /** Writes the signed replacement. */
        void replace(MethodVisitor mv) {
            switch (this) {
                case LONG_COMPARE -> mv.visitInsn(Opcodes.LCMP);
                case INT_COMPARE -> mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Integer", "compare", "(II)I",
                        false);
                case LONG_DIVIDE -> mv.visitInsn(Opcodes.LDIV);
                case LONG_REMAINDER -> mv.visitInsn(Opcodes.LREM);
                case INT_DIVIDE -> mv.visitInsn(Opcodes.IDIV);
                case INT_REMAINDER -> mv.visitInsn(Opcodes.IREM);
                case WIDEN -> mv.visitInsn(Opcodes.I2L);
                case MIN -> mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Math", "min", "(JJ)J", false);
                case MAX -> mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Math", "max", "(JJ)J", false);
                case LONG_SHIFT -> mv.visitInsn(Opcodes.LSHR);
                case INT_SHIFT -> mv.visitInsn(Opcodes.ISHR);
            }
        }
    }

    /**
     * One mutation: the {@code ordinal}-th unsigned instruction of its kind in a method.
     *
     * @param className the class's binary name
     * @param method the method's name and descriptor
     * @param kind what is replaced
     * @param ordinal which of the method's instructions of that kind, from 0
     * @param line the source line, or -1 where the class has no line numbers
     */
    record Site(String className, String method, Kind kind, int ordinal, int line) {

        /**
         * @return how the tests name it, without the line, so that an edit elsewhere in the class keeps the name:
         *     {@code SimpleName.method KIND#ordinal}
         */
        String label() {
            return className.substring(className.lastIndexOf('.') + 1) + "." + method.substring(0, method.indexOf('('))
                    + " " + kind + "#" + ordinal;
        }

        /** @return the label with the source line: {@code SimpleName.method:line KIND#ordinal} */
        String where() {
            return label().replaceFirst(" ", ":" + line + " ");
        }
    }

    private SignednessMutants() {
    }

    /**
     * @param classNames the classes to mutate, by binary name
     * @return every unsigned instruction of theirs, in class, method and instruction order
     */
    static List<Site> sites(List<String> classNames) {
        List<Site> sites = new ArrayList<>();
        for (String c : classNames) {
            rewrite(c, (site, mv) -> {
                sites.add(site);
                return false;
            });
        }
        return List.copyOf(sites);
    }

    /**
     * One call of a {@link SuiteRuns} method, which the instrumented class loader makes through its own copy.
     *
     * @param method {@code output} (a suite run) or {@code outputOfText} (a trace's text)
     * @param engine an engine's {@code ZfsEngine.name()}
     * @param argument the run's name or the trace's text
     */
    record Call(String method, String engine, String argument) {
    }

    /**
     * Makes the given calls with every site instrumented by {@link SignednessProbe}: each unsigned operation still
     * computes its unsigned result, and the probe records the sites where the signed twin's result would differ.
     *
     * @param sites sites of {@link #sites}; the others stay as they are
     * @param calls the runs to make
     * @return the sites where some call reached a value whose signed and unsigned treatments differ, each with the
     *     first such call
     */
    static Map<Site, Call> sensitive(List<Site> sites, List<Call> calls) {
        Map<Site, Integer> index = new HashMap<>();
        for (Site site : sites) {
            index.put(site, index.size());
        }
        Set<String> classes = new HashSet<>();
        sites.forEach(site -> classes.add(site.className()));
        SignednessProbe.reset(sites.size());
        Loader loader = new Loader(name -> classes.contains(name) ? rewrite(name, (site, mv) -> {
            Integer number = index.get(site);
            if (number == null) {
                return false;
            }
            site.kind().probe(mv, number);
            return true;
        }) : bytes(name));
        Class<?> runs;
        try {
            runs = loader.loadClass(SuiteRuns.class.getName());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < calls.size(); i++) {
            Call call = calls.get(i);
            SignednessProbe.call(i);
            try {
                runs.getMethod(call.method(), String.class, String.class).invoke(null, call.engine(), call.argument());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("the instrumented spec failed on " + call, e);
            }
        }
        Map<Site, Call> reached = new HashMap<>();
        for (Site site : sites) {
            int first = SignednessProbe.firstCall(index.get(site));
            if (first >= 0) {
                reached.put(site, calls.get(first));
            }
        }
        return reached;
    }

    /**
     * Runs an engine's runs with one site mutated, until one differs.
     *
     * @param site the mutation
     * @param engine an engine's {@code ZfsEngine.name()}
     * @param runs runs of {@link SuiteRuns#runs}
     * @param expected each run's unmutated output, in the order of {@code runs}
     * @return the first run whose output differs from the expected one (or throws, as a port that crashes), or
     *     null when every output is the same
     */
    static String firstCatch(Site site, String engine, List<String> runs, List<List<String>> expected) {
        Method output = outputMethod(new Loader(name -> name.equals(site.className()) ? rewrite(name, (s, mv) -> {
            if (!s.equals(site)) {
                return false;
            }
            s.kind().replace(mv);
            return true;
        }) : bytes(name)));
        for (int i = 0; i < runs.size(); i++) {
            try {
                if (!expected.get(i).equals(output.invoke(null, engine, runs.get(i)))) {
                    return runs.get(i);
                }
            } catch (InvocationTargetException thrown) {
                return runs.get(i) + " (" + thrown.getCause().getClass().getSimpleName() + ")";
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return null;
    }

    private static Method outputMethod(Loader loader) {
        try {
            return loader.loadClass(SuiteRuns.class.getName()).getMethod("output", String.class, String.class);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(String className) {
        String resource = className.replace('.', '/') + ".class";
        try (InputStream in = SignednessMutants.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no class file " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What to do at one unsigned instruction: write something in its place (true) or leave it (false). */
    private interface Rewrite {
        boolean at(Site site, MethodVisitor mv);
    }

    /** @return the class's bytes with {@code rewrite} applied at each of its unsigned instructions */
    private static byte[] rewrite(String className, Rewrite rewrite) {
        ClassReader reader = new ClassReader(bytes(className));
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                return new Finder(super.visitMethod(access, name, descriptor, signature, exceptions), className,
                        name + descriptor, rewrite);
            }
        }, 0);
        return writer.toByteArray();
    }

    /** Numbers the unsigned instructions of one method by kind and hands each to a {@link Rewrite}. */
    private static final class Finder extends MethodVisitor {
        private final String className;
        private final String method;
        private final Rewrite rewrite;
        private final int[] seen = new int[Kind.values().length];
        private int line = -1;

        Finder(MethodVisitor next, String className, String method, Rewrite rewrite) {
            super(Opcodes.ASM9, next);
            this.className = className;
            this.method = method;
            this.rewrite = rewrite;
        }

        @Override
        public void visitLineNumber(int number, Label start) {
            line = number;
            super.visitLineNumber(number, start);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            for (Kind k : Kind.values()) {
                if (opcode == Opcodes.INVOKESTATIC && k.isCall(owner, name, descriptor) && at(k)) {
                    return;
                }
            }
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        @Override
        public void visitInsn(int opcode) {
            for (Kind k : Kind.values()) {
                if (k.isShift(opcode) && at(k)) {
                    return;
                }
            }
            super.visitInsn(opcode);
        }

        private boolean at(Kind k) {
            return rewrite.at(new Site(className, method, k, seen[k.ordinal()]++, line), mv);
        }
    }

    /**
     * Defines every {@code org.arcref} class itself, from the bytes {@code define} gives, except
     * {@link SignednessProbe}, which it shares with its parent; everything else comes from the parent.
     */
    private static final class Loader extends ClassLoader {
        private final Function<String, byte[]> define;

        Loader(Function<String, byte[]> define) {
            super(SignednessMutants.class.getClassLoader());
            this.define = define;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("org.arcref.") || name.equals(SignednessProbe.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] b = define.apply(name);
                    c = defineClass(name, b, 0, b.length);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            return getParent().getResourceAsStream(name);
        }
    }
}
