import Foundation

/// The worker side of the worker protocol: what `epub2audio worker` (a hidden subcommand) runs.
///
/// The coordinator starts a worker process per job slot and sends it jobs, one JSON `WorkerJob`
/// per line on standard input; the worker answers with `WorkerMessage` lines on standard output
/// (progress, then `done` or `failed`) and takes the next job, until standard input ends. Nothing
/// else may be written to standard output. Each section starts from a reset engine, so a worker
/// gives the same bytes as the in-process path.
public enum WorkerMain {
    /// Runs jobs from `input` until it ends; returns the exit status for the process (0: input ended;
    /// 1: the output could not be written, i.e. the coordinator is gone; 2: a job line was not valid).
    public static func run(input: FileHandle, output: FileHandle, environment: ConversionEnvironment) -> Int32 {
        run(input: input, output: output, environment: environment, shouldStop: { false })
    }

    /// As `run(input:output:environment:)`, checking `shouldStop` between and inside chunks.
    static func run(
        input: FileHandle, output: FileHandle, environment: ConversionEnvironment, shouldStop: () -> Bool
    ) -> Int32 {
        let reader = LineReader(fileDescriptor: input.fileDescriptor)
        let session = WorkerSession(environment: environment)
        func send(_ message: WorkerMessage) throws {
            var data = CanonicalJSON.encode(message)
            data.append(0x0A)
            try output.write(contentsOf: data)
        }
        while let line = reader.readLine() {
            if line.isEmpty { continue }
            let job: WorkerJob
            do {
                job = try JSONDecoder().decode(WorkerJob.self, from: Data(line.utf8))
            } catch {
                try? send(.failed(section: -1, kind: .protocolError, message: "invalid job line: \(error)", path: nil))
                return 2
            }
            do {
                try session.perform(job, shouldStop: shouldStop, send: send)
            } catch {
                return 1
            }
            if shouldStop() { return 0 }
        }
        return 0
    }
}
