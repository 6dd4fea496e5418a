import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// PostgreSQL going away while the server runs (scripts/with-postgres.sh's server, reached through a
/// TCP relay the test stops): every request is a fast 503 with Retry-After, never a hang or a 500;
/// when the server is back, requests succeed again.
@Suite(.enabled(if: StoreKind.postgresURL != nil), .serialized) struct StoreOutageTests {
    /// A TCP relay on loopback to the test's PostgreSQL (or S3 stand-in), in a process of its own:
    /// killing it is an outage (the port refuses, the pooled connections drop).
    final class Relay: @unchecked Sendable {
        // @unchecked Sendable: one test drives it, one step after the other.
        private let upstream: (host: String, port: Int)
        private var process: Process?
        private(set) var port = 0

        convenience init(to url: String) throws {
            let server = try PostgresJobStore.Server(url: url)
            try self.init(host: server.host, port: server.port)
        }

        init(host: String, port: Int) throws {
            upstream = (host, port)
            try start()
        }

        /// Listens (again, on the same port after the first time) and relays.
        func start() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", Self.script, upstream.host, String(upstream.port), String(port)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            self.process = process
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8)
            {
                line.append(byte)
            }
            port = try #require(Int(String(decoding: line, as: UTF8.self)))
        }

        func stop() {
            guard let process else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            self.process = nil
        }

        static let script = """
            import socket, sys, threading
            target = (sys.argv[1], int(sys.argv[2]))
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", int(sys.argv[3])))
            listener.listen(64)
            print(listener.getsockname()[1], flush=True)
            def pipe(a, b):
                try:
                    while True:
                        data = a.recv(65536)
                        if not data: break
                        b.sendall(data)
                except OSError: pass
                for s in (a, b):
                    try: s.shutdown(socket.SHUT_RDWR)
                    except OSError: pass
            while True:
                client, _ = listener.accept()
                upstream = socket.create_connection(target)
                threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
                threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
            """
    }

    @Test func anOutageIsAFast503WithRetryAfterAndTheServiceComesBack() async throws {
        let url = try #require(StoreKind.postgresURL)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let relay = try Relay(to: url)
        defer { relay.stop() }
        let relayed = url.replacingOccurrences(
            of: ":\(try PostgresJobStore.Server(url: url).port)/", with: ":\(relay.port)/")
        let store = try await PostgresJobStore(
            url: relayed, schema: StoreKind.schema(folder: folder, name: "outage"))
        defer { store.shutdown() }
        let secret = TokenSecret.generate()
        try await store.addToken(
            Token(name: "t", maxRunning: 1, maxQueued: 5), secretSHA256: TokenSecret.sha256(secret), now: Date())
        let context = ServiceContext(
            store: store, blobs: try DiskBlobStore(root: folder.path),
            worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
        let router = try ServerApplication.router(
            context: context, limits: ServiceLimits(requireTokens: true), logger: Logger(label: "test"))
        let job = ByteBuffer(string: #"{"book":"\#(String(repeating: "a", count: 64))"}"#)
        let headers: HTTPFields = [.authorization: "Bearer " + secret, .contentType: "application/json"]
        try await Application(router: router).test(.live) { client in
            try await client.execute(uri: "/v1/jobs", method: .get, headers: headers) { #expect($0.status == .ok) }
            relay.stop()
            let requests: [(String, HTTPRequest.Method)] = [
                ("/v1/jobs", .get), ("/v1/jobs/j1", .get), ("/v1/jobs/j1", .put), ("/readyz", .get),
                ("/v1/jobs", .get), ("/metrics", .get),
            ]
            for (uri, method) in requests {
                let start = ContinuousClock.now
                try await client.execute(
                    uri: uri, method: method, headers: headers, body: method == .put ? job : nil
                ) { response async throws in
                    let elapsed = start.duration(to: .now)
                    #expect(response.status == .serviceUnavailable, "\(method) \(uri)")
                    #expect(response.headers[.retryAfter] != nil, "\(method) \(uri)")
                    #expect(try APITests.json(response.body)["error"] as? String == "unavailable")
                    #expect(elapsed < .seconds(1), "\(method) \(uri) took \(elapsed)")
                }
            }
            // Back: the pool connects again.
            try relay.start()
            var status = HTTPResponse.Status.serviceUnavailable
            let deadline = ContinuousClock.now + .seconds(30)
            while status != .ok, ContinuousClock.now < deadline {
                status = try await client.execute(uri: "/v1/jobs", method: .get, headers: headers) { $0.status }
                if status != .ok { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(status == .ok)
        }
    }
}
