import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// `GET /openapi.yaml` is the file the routes are generated from; `GET /docs` renders it into a page
/// that loads nothing from elsewhere.
@Suite struct APIDocumentationTests {
    static let documentPath = Paths.package + "/Sources/ServerCore/openapi.yaml"

    func withServer(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let context = ServiceContext(
            store: try SQLiteJobStore(path: folder.path + "/jobs.sqlite"), blobs: try DiskBlobStore(root: folder.path),
            worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
        // With --auth: the documentation needs no token.
        let router = try ServerApplication.router(
            context: context, limits: ServiceLimits(requireTokens: true), logger: Logger(label: "test"))
        try await Application(router: router).test(.live, body)
    }

    @Test func theDocumentServedIsTheSourceFile() async throws {
        let source = try Data(contentsOf: URL(fileURLWithPath: Self.documentPath))
        try await withServer { client in
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/yaml") == true)
                #expect(Data(buffer: response.body) == source)
            }
        }
    }

    @Test func thePageListsEveryOperationAndLoadsNothing() async throws {
        let source = try String(contentsOfFile: Self.documentPath, encoding: .utf8)
        let operationIDs = source.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("operationId:") else { return nil }
            return trimmed.dropFirst("operationId:".count).trimmingCharacters(in: .whitespaces)
        }
        #expect(operationIDs.count >= 15)
        try await withServer { client in
            try await client.execute(uri: "/docs", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                let page = String(buffer: response.body)
                #expect(page.hasPrefix("<!DOCTYPE html>"))
                for id in operationIDs { #expect(page.contains("id=\"\(id)\""), "\(id)") }
                #expect(page.contains("<code>/v1/jobs/{id}/outputs/{name}</code>"))
                #expect(page.contains("<a href=\"#schema-JobRequest\">JobRequest</a>"))
                #expect(page.contains("id=\"schema-JobOptions\""))
                // Nothing fetched: no script, no external style sheet, image, font or frame.
                for fetching in ["<script", "<link", "src=", "url(", "@import", "<iframe", "href=\"http"] {
                    #expect(!page.contains(fetching), "\(fetching)")
                }
            }
        }
    }

    @Test func textFromTheDocumentIsEscaped() {
        let page = APIDocumentation.render(
            yaml: """
                openapi: 3.1.0
                info: { title: "<b>t</b>", version: "1", description: "a `<script>` & \\"q\\"" }
                paths:
                  /x:
                    get:
                      operationId: x
                      summary: "<img src=x>"
                      responses: { '200': { description: ok } }
                """)
        #expect(page.contains("<h1>&lt;b&gt;t&lt;/b&gt; 1</h1>"))
        #expect(page.contains("<code>&lt;script&gt;</code> &amp; &quot;q&quot;"))
        #expect(page.contains("&lt;img src=x&gt;") && !page.contains("<img"))
        #expect(APIDocumentation.render(yaml: "{ not yaml").contains("cannot be read"))
    }
}
