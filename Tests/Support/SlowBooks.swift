import Foundation

/// The books of `../shared/corpus` that a debug build cannot handle within the tests' wall-clock
/// limits, in one list for every test that times a corpus book.
///
/// The limits catch quadratic blow-ups and hangs. A debug build is 5–20 times slower than a release
/// build on these books (measured on the 2-core test machine: `--list` of the Mahabharata 36 s, of
/// the linear algebra book 13 s, of the 10,000-item spine 6–10 s, and converting one of its sections
/// ~30 s), so with a debug build their limit is not checked (the test still runs them when it times
/// them at all, and records an overrun as a known issue); a release build must meet every limit.
public enum SlowBooks {
    /// Paths relative to the corpus folder (`real/…`, `broken/…`).
    public static let inDebugBuilds: Set<String> = [
        "real/idpf_linear-algebra.epub",
        "real/idpf_mahabharata.epub",
        "broken/own_huge-spine_10000-items.epub",
    ]

    /// Whether the test code was built without optimisation (`swift test`'s default).
    public static var isDebugBuild: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// Whether the wall-clock limit of `path` (a corpus path, absolute or relative, ending in
    /// `folder/name.epub`) is exempt in a build that is `debug`.
    public static func isExempt(_ path: String, debug: Bool = isDebugBuild) -> Bool {
        debug && inDebugBuilds.contains { path == $0 || path.hasSuffix("/" + $0) }
    }
}

/// A wall-clock limit for a test: `seconds` in a normal build, times `EPUB2AUDIO_TEST_TIME_SCALE` when set.
///
/// The limits catch quadratic blow-ups and hangs, not slow machines. `scripts/sanitize.sh` sets the scale
/// because AddressSanitizer and ThreadSanitizer run the same code several times slower.
public func timeLimit(seconds: Int) -> Duration {
    let scale = ProcessInfo.processInfo.environment["EPUB2AUDIO_TEST_TIME_SCALE"].flatMap(Int.init) ?? 1
    return .seconds(seconds * max(scale, 1))
}
