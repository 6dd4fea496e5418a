import Foundation
import Synchronization

/// How one attempt at a section ended, as the coordinator sees it.
enum ExecutionOutcome: Sendable {
    case done(WorkerResult)
    case failed(kind: WorkerFailureKind, message: String, path: String?)
    /// The worker went away without an answer (crash, kill, garbage on its output).
    case died(reason: String)
}

/// One job slot: makes sections one at a time, in this process or through a worker.
protocol SectionExecutor: AnyObject, Sendable {
    func execute(_ job: WorkerJob, shouldStop: @escaping @Sendable () -> Bool, progress: (WorkerMessage) -> Void)
        -> ExecutionOutcome
    /// Stops whatever runs now, from any thread (cancellation).
    func kill()
    /// Ends the slot's worker, if any.
    func shutdown()
}

/// Runs the worker session in this process: the path of a request without a worker executable (one
/// slot; a front end with a worker binary uses workers even for one job, see `WorkerExecutor`).
/// `@unchecked Sendable`: the session is only used by the slot thread; `kill` only flips an atomic flag.
final class InProcessExecutor: SectionExecutor, @unchecked Sendable {
    private let session: WorkerSession
    private let killed = Flag()

    init(environment: ConversionEnvironment) {
        session = WorkerSession(environment: environment)
    }

    func execute(_ job: WorkerJob, shouldStop: @escaping @Sendable () -> Bool, progress: (WorkerMessage) -> Void)
        -> ExecutionOutcome
    {
        var outcome = ExecutionOutcome.died(reason: "no answer")
        let killed = self.killed
        // `send` never throws here, so `perform` cannot throw.
        let stop = { shouldStop() || killed.isSet }
        try? session.perform(job, shouldStop: stop) { message in
            switch message {
            case .progress: progress(message)
            case .done(let result): outcome = .done(result)
            case .failed(_, let kind, let message, let path):
                outcome = .failed(kind: kind, message: message, path: path)
            }
        }
        return outcome
    }

    func kill() { killed.set() }

    func shutdown() {}
}

/// Sends jobs to a worker started by a launcher, restarting it after it died.
///
/// By default every section gets a new worker process: espeak-ng keeps state that no API resets,
/// and only a fresh process gives bit-identical audio for the same text, which resume and "same
/// bytes whatever `jobs`" rely on. A fork server (`keepsWorker`) gives the same guarantee more
/// cheaply: the slot keeps it for every job, and it makes each in a child forked from the state
/// right after initialisation.
final class WorkerExecutor: SectionExecutor, Sendable {
    private let launcher: any WorkerLauncher
    private let keepsWorker: Bool
    private let connection = Mutex<(any WorkerConnection)?>(nil)
    private let killed = Flag()

    /// - Parameters:
    ///   - launcher: starts the worker (again after it died).
    ///   - keepsWorker: the worker serves every job of the slot (a fork server); false: it is shut
    ///     down after each job, and the next job starts a new one.
    init(launcher: any WorkerLauncher, keepsWorker: Bool = false) {
        self.launcher = launcher
        self.keepsWorker = keepsWorker
    }

    func execute(_ job: WorkerJob, shouldStop: @escaping @Sendable () -> Bool, progress: (WorkerMessage) -> Void)
        -> ExecutionOutcome
    {
        let outcome = attempt(job, progress: progress)
        if !keepsWorker { shutdown() }
        return outcome
    }

    private func attempt(_ job: WorkerJob, progress: (WorkerMessage) -> Void) -> ExecutionOutcome {
        let worker: any WorkerConnection
        do {
            if let current = connection.withLock({ $0 }) {
                worker = current
            } else {
                worker = try launcher.launch()
                connection.withLock { $0 = worker }
                // A kill that came while launching must still stop this worker.
                if killed.isSet { worker.kill() }
            }
        } catch {
            return .died(reason: "\(error)")
        }
        do {
            try worker.send(CanonicalJSON.line(job))
        } catch {
            return dead(worker, reason: "cannot send the job: \(error)")
        }
        while let line = worker.readLine() {
            guard let message = try? JSONDecoder().decode(WorkerMessage.self, from: Data(line.utf8)) else {
                worker.kill()
                return dead(worker, reason: "unexpected output: \(line.prefix(200))")
            }
            switch message {
            case .progress(let section, _, _, _, _) where section == job.section:
                progress(message)
            case .progress:
                continue
            case .done(let result):
                return .done(result)
            case .failed(_, .protocolError, let message, _):
                return dead(worker, reason: message)
            case .failed(_, let kind, let message, let path):
                return .failed(kind: kind, message: message, path: path)
            }
        }
        return dead(worker, reason: killed.isSet ? "killed" : nil)
    }

    private func dead(_ worker: any WorkerConnection, reason: String?) -> ExecutionOutcome {
        connection.withLock { $0 = nil }
        let end = worker.endDescription()
        return .died(reason: reason.map { "\($0) (\(end))" } ?? end)
    }

    func kill() {
        killed.set()
        connection.withLock { $0 }?.kill()
    }

    func shutdown() {
        let worker = connection.withLock { current in
            defer { current = nil }
            return current
        }
        worker?.close()
    }
}
