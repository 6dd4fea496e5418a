import Foundation
import Logging
import PostgresNIO
import Testing

@testable import ServerCore

/// The service spread over machines that share no disk: one API process and three worker processes,
/// each with a data folder of its own, meeting only in PostgreSQL and the bucket. Two tokens submit
/// jobs; a worker is killed in the middle of a section, the bucket is unreachable for ten seconds, then
/// PostgreSQL (the API answers 503 at once meanwhile). Every job succeeds, each section is recorded
/// once, and the audio is the CLI's, byte for byte.
@Suite(
    .serialized,
    .enabled(
        if: StoreKind.postgresURL != nil && S3Stand.available,
        "needs PostgreSQL and the S3 stand-in: make -C Server test starts both"))
struct ScaleOutTests {
    static let books = [
        "alice": Paths.sample("the-lighthouse-keepers-daughter.epub"),
        "bob": Paths.sample("a-treatise-on-small-machines.epub"),
    ]
    static let lease = 6

    /// The processes of the test, killed at its end whatever happens.
    final class Processes: @unchecked Sendable {
        // @unchecked Sendable: one test drives it, one step after the other.
        var all: [Process] = []

        func start(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            all.append(process)
            return process
        }

        /// Kills `process` and the section processes it started, as a machine that dies would.
        func killHard(_ process: Process) {
            _ = try? runProcess("/usr/bin/env", ["pkill", "-KILL", "-P", String(process.processIdentifier)])
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        func stopAll() {
            for process in all where process.isRunning {
                kill(process.processIdentifier, SIGTERM)
            }
            for process in all {
                let deadline = Date().addingTimeInterval(20)
                while process.isRunning, Date() < deadline { usleep(50_000) }
                if process.isRunning { killHard(process) }
            }
        }
    }

    /// A database of the test's own on the test's PostgreSQL server (the processes use its `public`
    /// schema, as a deployment would); its URL.
    static func freshDatabase() async throws -> String {
        let url = try #require(StoreKind.postgresURL)
        let name = "e2a_scaleout_" + UUID().uuidString.prefix(8).lowercased()
        try await PostgresTestClient.with(schema: "public") { client async throws in
            _ = try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var components = try #require(URLComponents(string: url))
        components.path = "/" + name
        return try #require(components.string)
    }

    /// `curl` with `token`, failing on an HTTP error; what it printed.
    static func call(_ token: String, _ arguments: [String]) throws -> Data {
        try ServeShutdownTests.fetch(["-f", "-H", "Authorization: Bearer \(token)"] + arguments)
    }

    /// The job `id` as `token` sees it.
    static func job(_ base: String, _ token: String, _ id: String) throws -> [String: Any] {
        let data = try call(token, [base + "/v1/jobs/\(id)"])
        return try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
    }

    /// The status and the response headers of a GET of `path` as `token`.
    static func statusAndHeaders(_ base: String, _ token: String, _ path: String) throws -> (Int, String) {
        let headers = String(
            decoding: try ServeShutdownTests.fetch([
                "-o", "/dev/null", "-D", "-", "-H", "Authorization: Bearer \(token)", base + path,
            ]), as: UTF8.self)
        let status = headers.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, headers)
    }

    static func sectionsRunning(_ job: [String: Any]) -> Int {
        (job["sections"] as? [String: Int])?["running"] ?? 0
    }

    @Test func oneAPIAndThreeWorkersWithoutSharedDiskOutliveAKilledWorkerAndABucketOutage() async throws {
        let server = try #require(Paths.serverBinary, "make -C Server test builds epub2audio-server")
        let cli = try #require(Paths.cliBinary, "make -C Server test builds epub2audio")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = try await Self.freshDatabase()
        let bucket = try await S3Stand.bucket().configuration.bucket
        let address = try #require(S3Stand.endpoint)
        let s3 = try #require(URLComponents(string: address))
        let host = try #require(s3.host)
        let s3Port = try #require(s3.port)
        let relay = try StoreOutageTests.Relay(host: host, port: s3Port)
        defer { relay.stop() }
        // PostgreSQL through a relay of its own too, so that it can go away.
        let postgres = try StoreOutageTests.Relay(to: database)
        defer { postgres.stop() }
        var relayed = try #require(URLComponents(string: database))
        relayed.port = postgres.port
        let databaseURL = try #require(relayed.string)
        let shared = [
            "--db", databaseURL, "--store", "s3://\(bucket)", "--s3-endpoint", "http://127.0.0.1:\(relay.port)",
        ]
        let environment = S3Stand.processEnvironment

        // Two tokens, made on the API machine.
        var tokens: [String: String] = [:]
        for name in ["alice", "bob"] {
            let printed = try runProcess(
                server, ["token", "create", "--data", folder.path + "/api", "--db", database, "--name", name])
            tokens[name] = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(tokens[name]?.hasPrefix("e2a_") == true)
        }

        let processes = Processes()
        defer { processes.stopAll() }
        let port = try await S3BlobStoreTests.closedPort()
        let base = "http://127.0.0.1:\(port)"
        _ = try processes.start(
            server,
            ["serve", "--data", folder.path + "/api", "--listen", "127.0.0.1:\(port)", "--slots", "0", "--auth"]
                + shared, environment: environment)
        var workers: [Process] = []
        for index in 1...3 {
            workers.append(
                try processes.start(
                    server,
                    ["worker", "--data", folder.path + "/worker\(index)", "--slots", "1", "--lease", "\(Self.lease)"]
                        + shared, environment: environment))
        }
        var up = false
        for _ in 0..<200 where !up {
            up = (try? ServeShutdownTests.fetch(["-f", base + "/healthz"]))?.isEmpty == false
            if !up { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(up, "the API process did not start")

        // Each token uploads its book and makes a job named "book": ids are per token.
        for (name, path) in Self.books {
            let token = try #require(tokens[name])
            let sha = sha256Hex(try Data(contentsOf: URL(fileURLWithPath: path)))
            _ = try Self.call(
                token,
                [
                    "-X", "PUT", "--data-binary", "@" + path, "-H", "Content-Type: application/epub+zip",
                    base + "/v1/books/\(sha)",
                ])
            _ = try Self.call(
                token,
                [
                    "-X", "PUT", "-H", "Content-Type: application/json", "-d", #"{"book":"\#(sha)"}"#,
                    base + "/v1/jobs/book",
                ])
        }

        // Every worker busy: one of them dies in the middle of its section, then the bucket goes away.
        var busy = 0
        let started = Date()
        while busy < 3, Date().timeIntervalSince(started) < 120 {
            busy = try ["alice", "bob"].reduce(0) { $0 + Self.sectionsRunning(try Self.job(base, tokens[$1]!, "book")) }
            if busy < 3 { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(busy == 3, "the three workers never had a section each")
        processes.killHard(workers[0])
        relay.stop()
        try await Task.sleep(for: .seconds(10))
        try relay.start()
        // Then PostgreSQL: the API answers 503 with Retry-After at once, and the jobs wait it out.
        let unfinished = try ["alice", "bob"].filter {
            let sections = try Self.job(base, tokens[$0]!, "book")["sections"] as? [String: Int]
            return sections?["done"] != sections?["total"]
        }
        #expect(!unfinished.isEmpty, "both jobs were done before PostgreSQL went away: it tests nothing")
        postgres.stop()
        for _ in 0..<3 {
            let started = Date()
            let (status, headers) = try Self.statusAndHeaders(base, tokens["alice"]!, "/v1/jobs/book")
            #expect(status == 503, "\(headers)")
            #expect(headers.lowercased().contains("retry-after:"), "\(headers)")
            #expect(Date().timeIntervalSince(started) < 1, "the API took \(Date().timeIntervalSince(started)) s")
            try await Task.sleep(for: .seconds(3))
        }
        try await Task.sleep(for: .seconds(1))
        try postgres.start()

        // Both jobs end, and succeed.
        var jobs: [String: [String: Any]] = [:]
        let deadline = Date().addingTimeInterval(600)
        while jobs.count < 2, Date() < deadline {
            for name in ["alice", "bob"] where jobs[name] == nil {
                let job = try Self.job(base, tokens[name]!, "book")
                if let state = job["state"] as? String, ["succeeded", "failed", "cancelled"].contains(state) {
                    jobs[name] = job
                }
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        var retries = 0
        for name in ["alice", "bob"] {
            let job = try #require(jobs[name], "\(name)'s job did not end in 600 s")
            #expect(job["state"] as? String == "succeeded", "\(name): \(job)")
            let sections = try #require(job["sections"] as? [String: Int])
            #expect(sections["done"] == sections["total"] && sections["failed"] == 0)
            // Each section recorded once, whatever was tried again.
            let events = String(
                decoding: try Self.call(tokens[name]!, [base + "/v1/jobs/book/events"]), as: UTF8.self)
            #expect(events.components(separatedBy: "event: section\n").count - 1 == sections["total"], "\(events)")
            retries += events.components(separatedBy: "event: retry\n").count - 1
        }
        // The killed worker's section, and any that met the outage, were tried again: the faults were felt.
        #expect(retries >= 1, "no section was tried again: the worker was not killed in a section")

        // The audio is the CLI's, byte for byte, fetched through the API from the bucket.
        for (name, path) in Self.books {
            let output = folder.path + "/cli-\(name)"
            _ = try runProcess(cli, [path, "-o", output, "--progress", "none"])
            let files = try FileManager.default.contentsOfDirectory(atPath: output).filter { $0.hasSuffix(".wav") }
            #expect(files.count >= 5)
            for file in files {
                let escaped = try #require(
                    file.addingPercentEncoding(
                        withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/"))))
                let downloaded = try Self.call(tokens[name]!, [base + "/v1/jobs/book/outputs/\(escaped)"])
                #expect(
                    downloaded == (try Data(contentsOf: URL(fileURLWithPath: output + "/" + file))),
                    "\(name): \(file) differs from the CLI's")
            }
        }
    }
}
