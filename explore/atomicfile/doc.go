// Package atomicfile writes output files so that a reader never sees half of
// one and a failure never leaves one behind.
//
// Write fills a temporary file next to the target (hidden: a dot, the
// target's name, ".tmp" and a random suffix), flushes it to the disk and
// renames it into place. On any error — the writer's, the disk's, a done
// context (Ctrl-C), a panic — the temporary file is removed and the target
// is left as it was. Around that:
//
//   - a new file gets the mode the process's umask allows (0666 minus the
//     umask, as the shell's > does); an existing file keeps its mode and,
//     when the process may give it (as root), its owner and group: a
//     private notebook rewritten by root stays its owner's and private;
//   - a symbolic link is followed: the file it points to is replaced, the
//     link stays;
//   - a device or a named pipe (/dev/stdout, /dev/null, a FIFO) is written
//     directly, since it cannot be replaced by a rename, and must not be;
//   - a path that is one of Options.Inputs (the same file, through any link)
//     is refused with an error wrapping ErrInput, so that a command never
//     overwrites what it reads.
//
// Check makes the same checks without writing, so that a command refuses a
// bad output path before it starts its work. Stage writes the temporary
// file and leaves the rename to Commit, for an output that must not appear
// unless the command's other outputs were written; Replace puts a file
// made by other means (a database) in place with the same care.
//
// Errors name the file the user gave and say what is wrong in words
// ("the directory out does not exist", and where a link leads when the
// path is one); they never name the temporary file.
// They carry no package prefix: commands print them as they are.
//
// One job: every command and package that writes a user's file (reports,
// exports, executed notebooks, kernelspecs, saved games) goes through here.
package atomicfile
