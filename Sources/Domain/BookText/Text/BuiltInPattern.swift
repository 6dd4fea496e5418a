import Foundation

/// The library's own regular expressions, compiled once from literals in the source. A pattern that
/// does not compile is a programming error, never a book's fault: the first test that touches the type
/// holding it stops here with the pattern named, which is why this is the one place allowed to trap.
enum BuiltInPattern {
    /// `pattern` compiled as an `NSRegularExpression` with `options`.
    static func expression(_ pattern: String, options: NSRegularExpression.Options = []) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            preconditionFailure("built-in pattern does not compile (\(error)): \(pattern)")
        }
    }

    /// `pattern` compiled as a Swift `Regex`.
    static func regex(_ pattern: String) -> Regex<AnyRegexOutput> {
        do {
            return try Regex(pattern)
        } catch {
            preconditionFailure("built-in pattern does not compile (\(error)): \(pattern)")
        }
    }
}
