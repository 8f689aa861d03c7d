package org.arcref.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The check a command makes of a file it will write, before it does any work: the folder the file goes in must be
 * an existing directory (a command creates the file, never its folders), so that a mistyped path fails at once
 * instead of after a long replay.
 */
final class OutputFolder {

    private OutputFolder() {
    }

    /**
     * @param option the option that names the file, as the user typed it ({@code --out})
     * @param file the file to be written; a bare name goes in the working directory
     * @throws IllegalArgumentException naming the option, the rule and the folder if it does not exist or is not
     *     a directory
     */
    static void require(String option, Path file) {
        Path folder = file.toAbsolutePath().getParent();
        if (!Files.exists(folder)) {
            throw new IllegalArgumentException(option + ": the folder must exist, was " + folder);
        }
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(option + ": the folder must be a directory, was " + folder);
        }
    }

    /**
     * @param option the option that names the file to write ({@code -o/--output})
     * @param file the file to be written
     * @param input a file the command reads
     * @throws IllegalArgumentException naming the option if writing {@code file} would overwrite {@code input}
     */
    static void requireNotInput(String option, Path file, Path input) {
        boolean same;
        try {
            same = file.toAbsolutePath().normalize().equals(input.toAbsolutePath().normalize())
                    || Files.exists(file) && Files.exists(input) && Files.isSameFile(file, input);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compare " + file + " with " + input + ": " + e.getMessage(), e);
        }
        if (same) {
            throw new IllegalArgumentException(option + " must not be an input file (it would be overwritten), was "
                    + file);
        }
    }
}
