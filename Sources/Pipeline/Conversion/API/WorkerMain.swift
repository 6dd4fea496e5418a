import Foundation

/// The worker side of the worker protocol: what `epub2audio worker` (a hidden subcommand) runs.
///
/// The coordinator starts a worker process per job slot and sends it jobs, one JSON `WorkerJob`
/// per line on standard input; the worker answers with `WorkerMessage` lines on standard output
/// (progress, then `done` or `failed`) and takes the next job, until standard input ends. Nothing
/// else may be written to standard output. A worker that makes several sections resets its engine
/// between them, which is best effort (espeak-ng keeps state no API resets): the coordinator gives
/// every section a fresh process (a new worker per job, or a child of the fork server), which is what
/// makes a section's audio byte-identical whatever was made before.
package enum WorkerMain {
    /// How a worker process ends: its exit status.
    package enum ExitStatus: Int32, Sendable {
        /// The input ended (or the worker was asked to stop): every job was answered.
        case inputEnded = 0
        /// The output could not be written, i.e. the coordinator is gone (a fork server: a child
        /// ended without status 0, and the coordinator sees a dead worker).
        case outputLost = 1
        /// A job line was not valid (answered with a `protocolError` message).
        case invalidJob = 2
        /// The fork server cannot fork safely (another thread runs, or `/proc` cannot be read).
        case cannotForkSafely = 3
    }

    /// Runs jobs from `input` until it ends; returns how the process ends.
    package static func run(input: FileHandle, output: FileHandle, environment: ConversionEnvironment)
        -> ExitStatus
    {
        run(input: input, output: output, environment: environment, shouldStop: { false })
    }

    /// As `run(input:output:environment:)`, checking `shouldStop` between and inside chunks.
    static func run(
        input: FileHandle, output: FileHandle, environment: ConversionEnvironment, shouldStop: () -> Bool
    ) -> ExitStatus {
        let reader = LineReader(fileDescriptor: input.fileDescriptor)
        let session = WorkerSession(environment: environment)
        let send = messageWriter(output)
        while true {
            switch nextJob(reader, send: send) {
            case .end: return .inputEnded
            case .invalid: return .invalidJob
            case .job(let job):
                do {
                    try session.perform(job, shouldStop: shouldStop, send: send)
                } catch {
                    return .outputLost
                }
                if shouldStop() { return .inputEnded }
            }
        }
    }

    /// What the next line of a worker's input holds.
    enum NextJob {
        case job(WorkerJob)
        /// The input ended.
        case end
        /// A line that is no job: answered with a `protocolError` message already.
        case invalid
    }

    /// Reads the next job line (one JSON `WorkerJob`; empty lines are skipped). A line that is no
    /// job is answered through `send`, since the coordinator waits for an answer.
    static func nextJob(_ reader: LineReader, send: (WorkerMessage) throws -> Void) -> NextJob {
        while let line = reader.readLine() {
            if line.isEmpty { continue }
            do {
                return .job(try JSONDecoder().decode(WorkerJob.self, from: Data(line.utf8)))
            } catch {
                try? send(.failed(section: -1, kind: .protocolError, message: "invalid job line: \(error)", path: nil))
                return .invalid
            }
        }
        return .end
    }

    /// Writes worker messages to `output`, one canonical JSON line each.
    static func messageWriter(_ output: FileHandle) -> (WorkerMessage) throws -> Void {
        { message in
            var data = CanonicalJSON.encode(message)
            data.append(0x0A)
            try output.write(contentsOf: data)
        }
    }
}
