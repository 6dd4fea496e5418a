import Foundation
import Testing

@testable import ServerCore

/// The `serve` command's flags, as a user types them (the binary `make -C Server test` builds).
@Suite struct ServeCommandTests {
    /// `--max-upload-mib`, as documented, is taken (and checked), not refused as an unknown option.
    @Test func maxUploadMiBIsTheDocumentedFlag() throws {
        let server = try #require(Paths.serverBinary, "make -C Server test builds epub2audio-server")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (status, text) = try Self.run(server, ["serve", "--data", folder.path, "--max-upload-mib", "0"])
        #expect(status == 64, "\(text)")
        #expect(text.contains("--max-upload-mib must be more than 0"), "\(text)")
        let help = try Self.run(server, ["serve", "--help"]).output
        #expect(help.contains("--max-upload-mib <MIB>"), "\(help)")
    }

    /// `--log-format` and `--rate-limit` are checked before anything starts.
    @Test(arguments: [
        (["--log-format", "xml"], "--log-format takes json or text"),
        (["--rate-limit", "0"], "--rate-limit takes a number of requests a second"),
        (["--rate-limit", "nan"], "--rate-limit takes a number of requests a second"),
    ])
    func operationsFlagsAreChecked(_ flags: [String], _ message: String) throws {
        let server = try #require(Paths.serverBinary, "make -C Server test builds epub2audio-server")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (status, text) = try Self.run(server, ["serve", "--data", folder.path] + flags)
        #expect(status == 64, "\(text)")
        #expect(text.contains(message), "\(text)")
    }

    /// `token create` prints the bearer token alone on standard output (what scripts read), and on
    /// standard error the callback-signing secret the store keeps for it; a `--callback-secret` too
    /// short to be a key is refused.
    @Test func tokenCreatePrintsItsCallbackSecretAndAShortServerSecretIsRefused() async throws {
        let server = try #require(Paths.serverBinary, "make -C Server test builds epub2audio-server")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: server)
        process.arguments = ["token", "create", "--data", folder.path, "--name", "alice"]
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        let bearer = printed.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(bearer.hasPrefix("e2a_") && !bearer.contains("\n") && !bearer.hasPrefix(TokenSecret.callbackPrefix))
        let label = "callback-signing secret: "
        #expect(said.hasPrefix(label + TokenSecret.callbackPrefix), "\(said)")
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
        let token = try await store.token(secretSHA256: TokenSecret.sha256(bearer))
        #expect(token?.callbackSecret == String(said.dropFirst(label.count)).trimmingCharacters(in: .newlines))
        let short = try Self.run(server, ["serve", "--data", folder.path, "--callback-secret", "short"])
        #expect(short.status == 64, "\(short.output)")
        #expect(short.output.contains("--callback-secret (or EPUB2AUDIO_CALLBACK_SECRET) must be at least 16 bytes"))
    }

    /// The exit status and what the process printed (both streams).
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

/// SIGTERM on `serve` while a job runs and a client follows its events: the process stops claiming
/// at once, ends the event stream, and is gone within `--lease` seconds; the job loses nothing and
/// goes on in a new process.
@Suite(.serialized) struct ServeShutdownTests {
    static let book = Paths.sample("the-lighthouse-keepers-daughter.epub")

    /// `curl ARGUMENTS` as a process; its standard output is read by the caller.
    static func curl(_ arguments: [String]) throws -> (process: Process, output: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// What `curl ARGUMENTS` prints, once it has finished.
    static func fetch(_ arguments: [String]) throws -> Data {
        let (process, output) = try curl(arguments)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// Waits up to `seconds` for the process to end; true when it did.
    static func waitForExit(_ process: Process, seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        return !process.isRunning
    }

    @Test func sigtermWithAnEventStreamOpenEndsWithinTheLeaseAndLosesNothing() async throws {
        let server = try #require(Paths.serverBinary, "make -C Server test builds epub2audio-server")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let lease = 6.0
        let port = try await S3BlobStoreTests.closedPort()
        let base = "http://127.0.0.1:\(port)"
        let serve = Process()
        serve.executableURL = URL(fileURLWithPath: server)
        serve.arguments = [
            "serve", "--data", folder.path, "--listen", "127.0.0.1:\(port)", "--slots", "1", "--lease", "\(Int(lease))",
        ]
        serve.standardError = FileHandle.nullDevice
        serve.standardOutput = FileHandle.nullDevice
        try serve.run()
        defer { if serve.isRunning { kill(serve.processIdentifier, SIGKILL) } }
        var up = false
        for _ in 0..<100 where !up {
            up = (try? Self.fetch(["-f", base + "/healthz"]))?.isEmpty == false
            if !up { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(up, "the server did not start")
        let sha = sha256Hex(try Data(contentsOf: URL(fileURLWithPath: Self.book)))
        _ = try Self.fetch([
            "-f", "-X", "PUT", "--data-binary", "@" + Self.book, "-H", "Content-Type: application/epub+zip",
            base + "/v1/books/\(sha)",
        ])
        _ = try Self.fetch([
            "-f", "-X", "PUT", "-H", "Content-Type: application/json", "-d", #"{"book":"\#(sha)"}"#,
            base + "/v1/jobs/stopped",
        ])
        let events = try Self.curl(["-N", base + "/v1/jobs/stopped/events"])
        defer { if events.process.isRunning { events.process.terminate() } }
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
        var running = false
        for _ in 0..<3000 where !running {
            running = (try await store.job(id: "stopped"))?.sections.running ?? 0 > 0
            if !running { try await Task.sleep(for: .milliseconds(20)) }
        }
        try #require(running, "no section started")
        let start = Date()
        kill(serve.processIdentifier, SIGTERM)
        let exited = try await Self.waitForExit(serve, seconds: lease + 30)
        let elapsed = Date().timeIntervalSince(start)
        #expect(exited && elapsed < lease, "the server took \(elapsed) s to exit after SIGTERM (lease \(lease) s)")
        #expect(try await Self.waitForExit(events.process, seconds: 2), "the event stream did not end")
        // Nothing half done: no section running, none failed, the job still to finish.
        let stopped = try #require(try await store.job(id: "stopped"))
        #expect(stopped.state == .running)
        #expect(stopped.sections.running == 0 && stopped.sections.failed == 0)
        #expect(stopped.sections.done < stopped.sections.total, "the job finished before the shutdown: no test")
        // A new process finishes the job: every section made once.
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: server)
        worker.arguments = ["worker", "--data", folder.path, "--slots", "2", "--lease", "\(Int(lease))"]
        worker.standardError = FileHandle.nullDevice
        try worker.run()
        defer {
            kill(worker.processIdentifier, SIGTERM)
            worker.waitUntilExit()
        }
        var job = stopped
        let deadline = Date().addingTimeInterval(600)
        while !job.state.isTerminal, Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
            job = try #require(try await store.job(id: "stopped"))
        }
        #expect(job.state == .succeeded)
        #expect(job.sections.done == job.sections.total && job.sections.failed == 0)
        let recorded = try await store.events(jobID: "stopped", after: 0, limit: 10_000)
        let sections = recorded.filter { $0.type == "section" }.map(\.data)
        #expect(sections.count == job.sections.total, "\(sections)")
        #expect(!recorded.contains { $0.type == "retry" })
    }
}
