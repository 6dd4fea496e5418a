import Foundation
import Testing

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
