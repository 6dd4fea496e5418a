import Foundation

/// How a task that failed for a passing reason is tried again: up to `maxAttempts` attempts in all,
/// each after a wait drawn between 0 and an exponential bound ("full jitter": `base` doubled at each
/// attempt, at most `cap`), so that the retries of many tasks that failed together (a storage outage)
/// spread out instead of coming back at once. The default's ten attempts span minutes: together the
/// bounds are 2 + 4 + … + 256 + 300 s ≈ 13.5 minutes, about half of that on average.
package struct RetryPolicy: Sendable {
    /// Attempts a task gets in all (the first included) before a transient failure is final.
    package var maxAttempts: Int
    /// The bound of the wait after the first failed attempt, in seconds.
    package var base: TimeInterval
    /// The largest bound, in seconds.
    package var cap: TimeInterval
    /// A number in [0, 1): where in its bound a wait falls. Tests pass a constant.
    package var jitter: @Sendable () -> Double

    package init(
        maxAttempts: Int = Self.defaultMaxAttempts, base: TimeInterval = 2, cap: TimeInterval = 300,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.base = max(0, base)
        self.cap = max(0, cap)
        self.jitter = jitter
    }

    /// Attempts a task gets unless told otherwise (`--max-attempts`).
    package static let defaultMaxAttempts = 10

    /// The most attempts `--max-attempts` accepts.
    package static let attemptRange = 1...100

    /// True when a task whose attempt `attempt` (1 for the first) failed transiently gets another.
    package func retries(after attempt: Int) -> Bool { attempt < maxAttempts }

    /// The upper bound of the wait after attempt `attempt` failed: `base`·2^(attempt−1), at most `cap`.
    package func bound(after attempt: Int) -> TimeInterval {
        // 2^30 s is far beyond any cap: the exponent is bounded so the power stays finite.
        min(cap, base * pow(2, Double(min(max(attempt, 1), 31) - 1)))
    }

    /// The wait after attempt `attempt` failed: a random point of `bound(after:)`.
    package func delay(after attempt: Int) -> TimeInterval {
        bound(after: attempt) * min(max(jitter(), 0), 1)
    }
}
