package org.arcref.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code arc} as a real {@code java} process, for what only a process shows: exit statuses, signals, file descriptors. */
final class ArcProcess {

    private ArcProcess() {
    }

    /**
     * @param args the arguments of {@code arc}
     * @return a builder of the process, with standard input from {@code /dev/null}
     */
    static ProcessBuilder builder(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ArcCommand.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
}
