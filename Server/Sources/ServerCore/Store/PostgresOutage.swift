import Foundation
import Logging
import NIOCore
import PostgresNIO

/// How long a PostgreSQL store operation may wait before the store is said to be unavailable
/// (`JobStoreError.unavailable`, HTTP 503): an outage must be a fast, clear answer, never a request
/// that hangs while the connection pool retries.
package struct PostgresDeadlines: Sendable {
    /// An operation still waiting after this long (for a connection, or for its statements) makes the
    /// store check that the server answers a new connection (`PostgresProbe`); when it does not, the
    /// operation fails at once.
    package var probeAfter: Duration = .milliseconds(150)
    /// How long the probe's connection may take to be made and to answer `SELECT 1`. A server that is
    /// down refuses at once; this bounds one that hangs. Not less: on a loaded machine (two cores, the
    /// test lane's parallel suites) a healthy server took more than 0.6 s to start a backend, and every
    /// store operation that waited was failed as an outage.
    package var probeTimeout: Duration = .seconds(2)
    /// How often a waiting operation asks again while the server does answer (it may stop).
    package var probeInterval: Duration = .milliseconds(500)
    /// How long a failed probe's answer holds for the operations that wait meanwhile (an answer that
    /// the server is there is not kept: the outage may begin just after).
    package var probeFreshness: Duration = .seconds(1)
    /// The longest an operation may take, its wait for a connection included, when the server does
    /// answer (locks held by others, a server that accepts connections but does not answer).
    package var operation: Duration = .seconds(10)

    package init() {}
}

/// Whether the PostgreSQL server answers a new connection of its own (not the pool's), asked by the
/// operations that wait; one probe at a time, its answer shared for `probeFreshness`.
actor PostgresProbe {
    private let configuration: PostgresConnection.Configuration
    private let deadlines: PostgresDeadlines
    private let logger: Logger
    /// The last failed probe: when, and why.
    private var lastFailure: (time: ContinuousClock.Instant, problem: String)?
    private var running: Task<String?, Never>?

    init(configuration: PostgresConnection.Configuration, deadlines: PostgresDeadlines, logger: Logger) {
        var configuration = configuration
        let (seconds, attoseconds) = deadlines.probeTimeout.components
        configuration.options.connectTimeout = .milliseconds(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        self.configuration = configuration
        self.deadlines = deadlines
        self.logger = logger
    }

    /// Nil when the server answered; else why not, in one sentence. Operations that ask while a probe
    /// runs share its answer.
    func problem() async -> String? {
        if let lastFailure, lastFailure.time.duration(to: .now) < deadlines.probeFreshness {
            return lastFailure.problem
        }
        if let running { return await running.value }
        let task = Task { [configuration, deadlines, logger] in
            await Self.ask(configuration: configuration, timeout: deadlines.probeTimeout, logger: logger)
        }
        running = task
        let problem = await task.value
        running = nil
        lastFailure = problem.map { (.now, $0) }
        return problem
    }

    private static func ask(configuration: PostgresConnection.Configuration, timeout: Duration, logger: Logger) async
        -> String?
    {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do {
                    let connection = try await PostgresConnection.connect(
                        configuration: configuration, id: 0, logger: logger)
                    defer { Task { try? await connection.close() } }
                    _ = try await connection.query("SELECT 1", logger: logger)
                    return nil
                } catch {
                    return "the job store (PostgreSQL) cannot be reached: \(PostgresOutage.reason(error))"
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return "the job store (PostgreSQL) does not answer a new connection within \(timeout)"
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// Turns the errors of an unreachable server into `JobStoreError.unavailable`, and bounds how long an
/// operation waits (`PostgresDeadlines`).
enum PostgresOutage {
    /// Runs `body`, unless the server is found not to answer while it waits, or it takes longer than
    /// `deadlines.operation`: then `JobStoreError.unavailable` at once, and `body` is cancelled (its
    /// transaction, if it still commits, is one a retry of the request finds: creation is idempotent,
    /// and a claim whose worker never heard of it is taken again when its lease expires).
    static func run<T: Sendable>(
        deadlines: PostgresDeadlines, probe: PostgresProbe, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = OneShot<T>()
        let work = Task {
            do { outcome.resume(.success(try await body())) } catch { outcome.resume(.failure(mapped(error))) }
        }
        let watch = Task {
            let clock = ContinuousClock()
            let deadline = clock.now + deadlines.operation
            try await Task.sleep(for: deadlines.probeAfter)
            while clock.now < deadline {
                if let problem = await probe.problem() {
                    outcome.resume(.failure(JobStoreError.unavailable(problem)))
                    return
                }
                try await Task.sleep(for: min(deadlines.probeInterval, clock.now.duration(to: deadline)))
            }
            outcome.resume(
                .failure(
                    JobStoreError.unavailable("the job store (PostgreSQL) did not answer within \(deadlines.operation)")
                ))
        }
        defer {
            watch.cancel()
            work.cancel()
        }
        return try await withTaskCancellationHandler {
            try await outcome.value()
        } onCancel: {
            work.cancel()
        }
    }

    /// `JobStoreError.unavailable` for an error that says the server cannot be reached or dropped the
    /// connection; the error itself otherwise.
    static func mapped(_ error: any Error) -> any Error {
        guard let reason = unavailability(error) else { return error }
        return JobStoreError.unavailable("the job store (PostgreSQL) cannot be reached: \(reason)")
    }

    /// Why the server cannot be used, when `error` says so; nil for any other error.
    static func unavailability(_ error: any Error) -> String? {
        if let error = error as? PSQLError {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .sslUnsupported:
                return reason(error)
            case .server:
                // Class 08: connection exceptions; 57P01-3: the server shuts down or starts; 53300: too
                // many connections.
                let state = error.serverInfo?[.sqlState] ?? ""
                if state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state) {
                    return reason(error)
                }
                return nil
            default:
                return nil
            }
        }
        if error is ChannelError { return "\(error)" }
        // The pool's own error (its module is not a product): it stopped trying after failed connections.
        if String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError") {
            return "no connection could be made for a while"
        }
        return nil
    }

    /// A few words on a connection error (postgres-nio's description hides the server's message).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return message }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}

/// A value delivered once, by whichever of several tasks comes first; later deliveries are dropped.
final class OneShot<T: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `result` and `waiter` are only touched under `lock`.
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    private var waiter: CheckedContinuation<T, any Error>?

    func resume(_ value: Result<T, any Error>) {
        let waiting = lock.withLock { () -> CheckedContinuation<T, any Error>? in
            guard result == nil else { return nil }
            result = value
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume(with: value)
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready = lock.withLock { () -> Result<T, any Error>? in
                if let result { return result }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
