import ArgumentParser

/// The exit codes of `epub2audio`, documented in the README, `--help` and docs/cli.md.
/// Scripts rely on them: never renumber, only add.
enum Exit: Int32, CaseIterable {
    /// Every requested section (of every book) was converted or was already done.
    case success = 0
    /// An unexpected internal error.
    case internalError = 1
    /// Some sections or books failed; the others were converted.
    case partialFailure = 2
    /// A book could not be read: not an EPUB, malformed beyond repair, too large or hostile.
    case unreadableBook = 3
    /// A book is DRM-protected or encrypted.
    case protectedBook = 4
    /// The output folder cannot be written (permissions, full disk, foreign files in it), or its disk
    /// has less free space than the estimate of what the conversion writes (`SpaceCheck`).
    case outputError = 5
    /// A voice, format or other resource the request needs is not installed (also: ffmpeg for
    /// `--bundle m4b`), or most of the text is in scripts no installed voice speaks (`SpeakableText`),
    /// or the book cannot give a read-along book (`--bundle epub` of a book with Media Overlays).
    case unavailable = 6
    /// Invalid command-line usage (ArgumentParser's validation code).
    case usage = 64
    /// Interrupted by Ctrl-C or SIGTERM; the manifest is consistent and a re-run resumes.
    case interrupted = 130

    var code: ExitCode { ExitCode(rawValue) }

    /// One line per code for `--help` and the docs.
    static let helpText = """
        Exit codes: 0 all done; 2 some sections or books failed; 3 unreadable book; \
        4 DRM-protected or encrypted book; 5 output folder not writable; \
        6 voice, format or ffmpeg (--bundle) not installed, text the voice cannot speak (--force), \
        or a book --bundle epub cannot make read-along (Media Overlays of its own); \
        64 usage error; 130 interrupted (re-run to resume); 1 internal error.
        """
}
