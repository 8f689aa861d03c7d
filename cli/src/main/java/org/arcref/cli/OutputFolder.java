package org.arcref.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The check a command makes of a file it will write, before it does any work: the folder the file goes in must be
 * an existing, writable directory (a command creates the file, never its folders), and the file, if it exists, a
 * writable file, not a directory; so that a mistyped path fails at once instead of after a long replay. (As root,
 * only a read-only file system makes a file or folder unwritable.)
 */
final class OutputFolder {

    private OutputFolder() {
    }

    /**
     * @param option the option that names the file, as the user typed it ({@code --out})
     * @param file the file to be written; a bare name goes in the working directory
     * @throws IllegalArgumentException naming the option, the rule and the path if the folder does not exist or is
     *     not a directory, the file is a directory, or the file cannot be opened for writing (it is opened without
     *     truncating it; one that did not exist is created and deleted again)
     */
    static void require(String option, Path file) {
        Path folder = file.toAbsolutePath().getParent();
        if (!Files.exists(folder)) {
            throw new IllegalArgumentException(option + ": the folder must exist, was " + folder);
        }
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(option + ": the folder must be a directory, was " + folder);
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(option + " must name a file, was a directory: " + file);
        }
        boolean existed = Files.exists(file);
        try (FileChannel probe = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE)) {
            if (!existed) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": the file must be writable, was not: " + file + " ("
                    + reason(e) + ")", e);
        }
    }

    /**
     * @param option the option that names the directory, as the user typed it ({@code -o/--output})
     * @param dir the directory files will be written in
     * @throws IllegalArgumentException naming the option, the rule and the path if it is not an existing directory
     *     in which a file can be created (one is created and deleted again)
     */
    static void requireDirectory(String option, Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(option + " must be an existing directory, was " + dir);
        }
        try {
            Files.delete(Files.createTempFile(dir, ".arc-probe-", ".tmp"));
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": the directory must be writable, was not: " + dir + " ("
                    + reason(e) + ")", e);
        }
    }

    /** @return what went wrong, without the path the exception's message repeats */
    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "the file system does not let a file be created there";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return String.valueOf(e.getMessage());
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
