import Testing

/// Only one espeak-ng engine can live in a process (`ESpeakSpeechEngine` refuses a second one), and
/// `swift test` runs every test target in one process: suites in different targets that make real
/// engines take this trait, so they run one after another instead of failing with "engine in use".
///
/// Applied to a suite, the whole suite runs while it holds the gate (its tests may be `.serialized`
/// as well, to keep to one engine at a time inside it).
public struct RealSpeechEngine: SuiteTrait, TestTrait, TestScoping {
    /// Only the suite it is applied to takes the gate, not each of its tests again.
    public var isRecursive: Bool { false }

    /// Runs `function` while this test or suite holds the gate.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await SpeechEngineGate.shared.acquire()
        do {
            try await function()
        } catch {
            await SpeechEngineGate.shared.release()
            throw error
        }
        await SpeechEngineGate.shared.release()
    }
}

extension Trait where Self == RealSpeechEngine {
    /// Runs the suite or test alone among those that make a real espeak-ng engine.
    public static var realSpeechEngine: Self { RealSpeechEngine() }
}

/// A first-come, first-served lock that suspends instead of blocking a thread.
actor SpeechEngineGate {
    static let shared = SpeechEngineGate()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
