import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// `token create|list|revoke|rotate` as a user types them (the built binary), and what a revoked or
/// rotated token's requests get from a running server.
@Suite struct TokenCommandTests {
    @Test func theCommandsListRevokeAndRotateWithoutShowingASecret() throws {
        let server = try #require(Paths.serverBinary, "make -C Server test builds epub2audio-server")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = { (arguments: [String]) in try ServeCommandTests.run(server, ["token"] + arguments) }
        let created = try run(["create", "--data", folder.path, "--name", "alice", "--max-queued", "5"])
        #expect(created.status == 0, "\(created.output)")
        let secret = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("e2a_"))
        #expect(try run(["create", "--data", folder.path, "--name", "bob"]).status == 0)

        let listed = try run(["list", "--data", folder.path])
        #expect(listed.status == 0)
        let lines = listed.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(listed.output)")
        #expect(lines.first?.hasPrefix("NAME") == true)
        #expect(lines[1].hasPrefix("alice ") && lines[1].contains(" 2 ") && lines[1].contains(" 5 "))
        #expect(lines[1].hasSuffix("-") && lines[2].hasPrefix("bob "))
        #expect(!listed.output.contains("e2a_"))

        let rotated = try run(["rotate", "--data", folder.path, "bob"])
        #expect(rotated.status == 0 && rotated.output.hasPrefix("e2a_"))
        #expect(try run(["revoke", "--data", folder.path, "alice"]).status == 0)
        let revokedLine = try run(["list", "--data", folder.path]).output.split(separator: "\n")[1]
        #expect(revokedLine.hasPrefix("alice ") && !revokedLine.hasSuffix("-"), "\(revokedLine)")
        // A revoked token cannot be rotated; an unknown name is an error.
        let rotateRevoked = try run(["rotate", "--data", folder.path, "alice"])
        #expect(rotateRevoked.status != 0 && rotateRevoked.output.contains("no token that is not revoked"))
        let unknown = try run(["revoke", "--data", folder.path, "carol"])
        #expect(unknown.status != 0 && unknown.output.contains("no token is named carol"))
    }

    @Test func aRevokedOrRotatedSecretIsRefusedAtOnce() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
        let context = ServiceContext(
            store: store, blobs: try DiskBlobStore(root: folder.path),
            worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
        let (alice, bob, bobAgain) = (TokenSecret.generate(), TokenSecret.generate(), TokenSecret.generate())
        try await store.addToken(
            Token(name: "alice", maxRunning: 1, maxQueued: 1), secretSHA256: TokenSecret.sha256(alice), now: Date())
        try await store.addToken(
            Token(name: "bob", maxRunning: 1, maxQueued: 1), secretSHA256: TokenSecret.sha256(bob), now: Date())
        let router = try ServerApplication.router(
            context: context, limits: ServiceLimits(requireTokens: true), logger: Logger(label: "test"))
        try await Application(router: router).test(.live) { client async throws in
            @Sendable func status(_ secret: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: "/v1/jobs", method: .get, headers: [.authorization: "Bearer " + secret]
                ) { $0.status }
            }
            #expect(try await status(alice) == .ok)
            #expect(try await status(bob) == .ok)
            #expect(try await store.revokeToken(name: "alice", now: Date()))
            #expect(try await store.rotateToken(name: "bob", secretSHA256: TokenSecret.sha256(bobAgain)))
            #expect(try await status(alice) == .unauthorized)
            #expect(try await status(bob) == .unauthorized)
            #expect(try await status(bobAgain) == .ok)
        }
    }
}
