import Foundation

/// Converts a book into one audio file per section, resumably; the library's entry point.
///
/// ```swift
/// let converter = Converter(environment: environment)
/// for try await event in converter.convert(request) { ... }
/// ```
/// The library never prints: everything it has to say arrives as `ConversionEvent`s.
public final class Converter: Sendable {
    /// The version written into manifests.
    public static let toolVersion = "0.1.0"

    private let environment: ConversionEnvironment
    private let launcher: (@Sendable (ConversionRequest) -> (any WorkerLauncher)?)

    /// A converter using `environment` for the book, the engine and the audio files; every section is
    /// made by a worker process started from `request.workerExecutable` when it is set (whatever
    /// `jobs`), else in this process, one at a time.
    public init(environment: ConversionEnvironment) {
        self.environment = environment
        self.launcher = { request in
            request.workerExecutable.map { ProcessWorkerLauncher(executable: $0, arguments: request.workerArguments) }
        }
    }

    /// A converter whose workers come from `launcher` (tests run workers on threads through pipes).
    init(environment: ConversionEnvironment, launcher: @escaping @Sendable (ConversionRequest) -> (any WorkerLauncher)?)
    {
        self.environment = environment
        self.launcher = launcher
    }

    /// Runs a conversion, calling `onEvent` (from any thread) as it goes, and returns the totals.
    ///
    /// Returns after the output folder is consistent, also on cancellation: cancelling the calling
    /// task stops synthesis within a second, kills the workers, removes `.part` files, puts
    /// in-progress sections back to pending in the manifest, then throws `ConversionError.cancelled`.
    /// Sections that fail do not throw (they are counted in the summary and reported as `error`
    /// events); a full disk or an unwritable folder stops everything and throws.
    public func run(
        _ request: ConversionRequest, onEvent: @escaping @Sendable (ConversionEvent) -> Void = { _ in }
    ) async throws -> ConversionSummary {
        let run = ConversionRun(request: request, environment: environment, launcher: launcher(request))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<ConversionSummary, any Error>) in
                let thread = Thread {
                    do {
                        continuation.resume(returning: try run.run(emit: onEvent))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                thread.stackSize = 1 << 22
                thread.start()
            }
        } onCancel: {
            run.cancel()
        }
    }

    /// The conversion as a stream of events; `bookDone` is the last one on success.
    ///
    /// The stream throws `ConversionError` when the run stops. Cancelling the task that iterates
    /// (or dropping the stream) cancels the conversion; cleanup then finishes in the background.
    /// Use `run(_:onEvent:)` to wait for the cleanup.
    public func convert(_ request: ConversionRequest) -> AsyncThrowingStream<ConversionEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    _ = try await run(request) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
