import Foundation

/// A wall-clock limit for a test: `seconds` in a normal build, times `EPUB2AUDIO_TEST_TIME_SCALE` when set.
///
/// The limits catch quadratic blow-ups and hangs, not slow machines. `scripts/sanitize.sh` sets the scale
/// because AddressSanitizer and ThreadSanitizer run the same code several times slower.
/// (The same file is in MarkupTests and EPUBReaderTests: test targets cannot share code without a new target.)
func timeLimit(seconds: Int) -> Duration {
    let scale = ProcessInfo.processInfo.environment["EPUB2AUDIO_TEST_TIME_SCALE"].flatMap(Int.init) ?? 1
    return .seconds(seconds * max(scale, 1))
}
