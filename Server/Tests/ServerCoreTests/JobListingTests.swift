import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// `GET /v1/jobs?state=…&limit=…&cursor=…`: pages with an opaque `next`.
@Suite struct JobListingTests {
    @Test(arguments: ["j1.zz.1", "j1.41da000000000000", "j2.41da000000000000.1", "j1.7ff0000000000000.1", "", "x"])
    func aCursorTheServerDidNotMakeIsRefused(_ text: String) {
        #expect(JobCursor(text: text) == nil)
    }

    @Test func aCursorReadsBackExactly() {
        let cursor = JobCursor(created: 1_800_000_000.123456789, sequence: 42)
        #expect(JobCursor(text: cursor.text) == cursor)
    }

    @Test func pagesFollowNextAndTheStateFilterHolds() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
        let book = String(repeating: "cd", count: 32)
        _ = try await store.addBook(sha256: book, size: 1)
        let start = Date()
        for index in 0..<5 {
            _ = try await store.createJob(
                NewJob(id: "job-\(index)", book: book, options: JobOptions()),
                now: start.addingTimeInterval(Double(index)))
        }
        _ = try await store.cancelJob(id: "job-3", now: start)
        let context = ServiceContext(
            store: store, blobs: try DiskBlobStore(root: folder.path),
            worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
        let router = try ServerApplication.router(context: context, limits: ServiceLimits(), logger: Logger(label: "t"))
        try await Application(router: router).test(.live) { client async throws in
            @Sendable func page(_ query: String) async throws -> (ids: [String], next: String?) {
                try await client.execute(uri: "/v1/jobs?" + query, method: .get) { response in
                    #expect(response.status == .ok)
                    let body = try #require(
                        try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                    let jobs = try #require(body["jobs"] as? [[String: Any]])
                    return (jobs.compactMap { $0["id"] as? String }, body["next"] as? String)
                }
            }
            let first = try await page("limit=2")
            #expect(first.ids == ["job-4", "job-3"])
            let next = try #require(first.next)
            let second = try await page("limit=2&cursor=" + next)
            #expect(second.ids == ["job-2", "job-1"])
            let third = try await page("limit=2&cursor=" + (second.next ?? ""))
            #expect(third.ids == ["job-0"] && third.next == nil)
            #expect(try await page("state=cancelled").ids == ["job-3"])
            #expect(try await page("state=queued&limit=3").ids == ["job-4", "job-2", "job-1"])
            // Without a limit, all of them (up to 100) and no next.
            let all = try await page("")
            #expect(all.ids.count == 5 && all.next == nil)
            for bad in ["cursor=nonsense", "state=sleeping", "limit=0", "limit=1001"] {
                try await client.execute(uri: "/v1/jobs?" + bad, method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }
        }
    }
}
