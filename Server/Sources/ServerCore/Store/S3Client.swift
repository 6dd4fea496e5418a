import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Where an S3-compatible bucket is and how to sign for it.
package struct S3Configuration: Sendable, Equatable {
    /// `http` or `https`.
    package var scheme: String
    package var host: String
    package var port: Int
    package var bucket: String
    package var region: String
    package var accessKey: String
    package var secretKey: String
    /// A temporary credential's token (`AWS_SESSION_TOKEN`), sent as `x-amz-security-token`.
    package var sessionToken: String?

    /// - Parameters:
    ///   - store: `s3://BUCKET` (path-style addressing; no key prefix).
    ///   - endpoint: `http[s]://HOST[:PORT]`; nil: AWS's `https://s3.REGION.amazonaws.com`.
    ///   - region: the region signatures are made for.
    ///   - accessKey: the access key id; nil or empty is an error naming it.
    ///   - secretKey: the secret key; nil or empty is an error naming it.
    ///   - sessionToken: a temporary credential's token, if any.
    /// - Throws: `S3ConfigurationError` naming what is wrong or missing.
    package init(
        store: String, endpoint: String?, region: String, accessKey: String?, secretKey: String?,
        sessionToken: String? = nil
    ) throws {
        guard store.hasPrefix("s3://") else { throw S3ConfigurationError("--store takes s3://BUCKET") }
        let bucket = String(store.dropFirst(5))
        guard Self.isBucketName(bucket) else {
            throw S3ConfigurationError(
                "'\(bucket)' is not a bucket name: 3 to 63 lower-case letters, digits, '.' or '-' (s3://BUCKET, no path)"
            )
        }
        guard !region.isEmpty, region.utf8.count <= 64,
            region.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { throw S3ConfigurationError("'\(region)' is not a region name") }
        let endpoint = endpoint ?? "https://s3.\(region).amazonaws.com"
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty,
            url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
        else { throw S3ConfigurationError("the S3 endpoint takes http[s]://HOST[:PORT], not '\(endpoint)'") }
        guard let accessKey, !accessKey.isEmpty, let secretKey, !secretKey.isEmpty else {
            throw S3ConfigurationError(
                "--store s3:// needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment")
        }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
        self.bucket = bucket
        self.region = region
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// 3 to 63 of `[a-z0-9.-]`, starting and ending with a letter or digit (S3's bucket naming rules).
    package static func isBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let alphanumeric: (UInt8) -> Bool = { (48...57).contains($0) || (97...122).contains($0) }
        guard (3...63).contains(bytes.count), alphanumeric(bytes[0]), alphanumeric(bytes[bytes.count - 1]) else {
            return false
        }
        return bytes.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    /// `http://127.0.0.1:9000`, for messages.
    package var endpoint: String { "\(scheme)://\(hostHeader)" }

    /// The `Host` header: the port only when it is not the scheme's default.
    var hostHeader: String {
        let defaultPort = scheme == "https" ? 443 : 80
        let name = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? name : "\(name):\(port)"
    }
}

/// A `--store` or S3 setting that cannot be used; its message names the flag or variable.
package struct S3ConfigurationError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

/// The few S3 operations the blob store needs, over async-http-client, signed with `SigV4Signer`;
/// path-style addressing (`/BUCKET/KEY`).
///
/// Every failure is a `BlobStoreError.unavailable` whose message names the operation, the key and
/// what the server said (its `<Code>` and `<Message>`), or why it could not be reached. A missing
/// object is not an error where the caller asks whether it exists (`head`, `get`).
package struct S3Client: Sendable {
    package let configuration: S3Configuration
    private let signer: SigV4Signer

    /// Short requests (HEAD, DELETE, a list page): the whole exchange.
    static let shortTimeout: TimeAmount = .seconds(30)
    /// A readiness probe's HeadBucket: probes have short timeouts of their own.
    static let probeTimeout: TimeAmount = .seconds(5)
    /// Transfers: the time to the response's head; the body then streams as long as bytes flow
    /// (the client's read timeout).
    static let transferTimeout: TimeAmount = .seconds(120)

    /// One client for the process: async-http-client pools connections per host. It is never shut
    /// down because it lives as long as the process (a client must be shut down before it is freed,
    /// and a global is never freed).
    private static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        // S3 answers a request for another region with a redirect: an error to report, not to follow.
        configuration.redirectConfiguration = .disallow
        // A refused connection is retried until the connect timeout: short, so that a bucket that
        // cannot be reached is a quick 503, not a hanging request.
        configuration.timeout = .init(connect: .seconds(3), read: .seconds(60))
        return HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration,
            backgroundActivityLogger: Logger(label: "epub2audio-s3", factory: { _ in SwiftLogNoOpLogHandler() }))
    }()

    package init(configuration: S3Configuration) {
        self.configuration = configuration
        signer = SigV4Signer(
            accessKey: configuration.accessKey, secretKey: configuration.secretKey, region: configuration.region)
    }

    // MARK: Operations

    /// A GetObject URL of `key` that any HTTP client may fetch without credentials for `expires`
    /// seconds from `date` (SigV4 query signing, path-style, at the configured endpoint).
    package func presignedURL(key: String, expires: Int, date: Date) -> String {
        let path = "/" + configuration.bucket + "/" + key
        let query = signer.presignedQuery(
            method: "GET", path: path, host: configuration.hostHeader, expires: expires, date: date,
            sessionToken: configuration.sessionToken)
        return configuration.scheme + "://" + configuration.hostHeader + SigV4Signer.canonicalPath(path) + "?" + query
    }

    /// HeadBucket: nil when the bucket answers, else why not.
    package func bucketUnavailability() async -> String? {
        do {
            let response = try await send("HEAD", key: nil, timeout: Self.probeTimeout)
            if response.status.code == 200 { return nil }
            return Self.message("HEAD", key: nil, bucket: configuration.bucket, status: response.status.code, body: "")
        } catch {
            return "\(error)"
        }
    }

    /// CreateBucket (for tests and first runs); an existing bucket of ours is fine.
    package func createBucket() async throws {
        let response = try await send("PUT", key: nil, timeout: Self.shortTimeout)
        let body = try await Self.text(response)
        if response.status.code == 200 || body.contains("BucketAlreadyOwnedByYou") { return }
        throw failure("PUT", key: nil, status: response.status.code, body: body)
    }

    /// HeadObject: the object's size, nil when there is none.
    package func size(key: String) async throws -> Int64? {
        let response = try await send("HEAD", key: key, timeout: Self.shortTimeout)
        switch response.status.code {
        case 200:
            guard let length = response.headers.first(name: "content-length").flatMap(Int64.init) else {
                throw BlobStoreError.unavailable("S3 HEAD \(key): no Content-Length in the answer")
            }
            return length
        case 404: return nil
        default: throw failure("HEAD", key: key, status: response.status.code, body: "")
        }
    }

    /// PutObject from a local file whose SHA-256 (hex) the caller knows: the server checks the
    /// bytes against it (`x-amz-content-sha256`). One request; S3 takes up to 5 GB so.
    package func put(key: String, file: String, sha256: String) async throws {
        guard let size = DiskBlobStore.fileSize(file) else {
            throw BlobStoreError.unavailable("S3 PUT \(key): the local file \(file) is gone")
        }
        let body = HTTPClientRequest.Body.stream(Self.chunks(of: file), length: .known(size))
        let response = try await send(
            "PUT", key: key, payloadSHA256: sha256, body: body,
            extraHeaders: ["content-type": "application/octet-stream"],
            timeout: Self.transferTimeout)
        let text = try await Self.text(response)
        guard response.status.code == 200 else {
            throw failure("PUT", key: key, status: response.status.code, body: text)
        }
    }

    /// GetObject into a local file (written to `temporary`, then renamed to `file`); returns the
    /// SHA-256 (hex) of what was written, false when there is no such object.
    package func download(key: String, to file: String, temporary: String) async throws -> String? {
        let response = try await send("GET", key: key, timeout: Self.transferTimeout)
        if response.status.code == 404 { return nil }
        guard response.status.code == 200 else {
            throw failure("GET", key: key, status: response.status.code, body: try await Self.text(response))
        }
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw BlobStoreError.unavailable("S3 GET \(key): cannot create \(temporary)")
        }
        var renamed = false
        defer { if !renamed { try? FileManager.default.removeItem(atPath: temporary) } }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        var hasher = Crypto.SHA256()
        do {
            for try await buffer in response.body {
                buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                try handle.write(contentsOf: Data(buffer.readableBytesView))
            }
            try handle.synchronize()
            try handle.close()
        } catch let error as BlobStoreError {
            try? handle.close()
            throw error
        } catch {
            try? handle.close()
            throw BlobStoreError.unavailable("S3 GET \(key): the transfer broke off: \(error)")
        }
        guard rename(temporary, file) == 0 else {
            throw BlobStoreError.unavailable("S3 GET \(key): cannot rename \(temporary) to \(file)")
        }
        renamed = true
        return SigV4Signer.hex(hasher.finalize())
    }

    /// GetObject of `range` (sent as a `Range` header), its bytes streamed; the caller knows the
    /// object's size (`size(key:)`) and asks for a range inside it.
    package func stream(key: String, range: Range<Int64>) async throws -> AsyncThrowingStream<
        ArraySlice<UInt8>, any Error
    > {
        let response = try await send(
            "GET", key: key, extraHeaders: ["range": "bytes=\(range.lowerBound)-\(range.upperBound - 1)"],
            timeout: Self.transferTimeout)
        guard response.status.code == 206 || response.status.code == 200 else {
            throw failure("GET", key: key, status: response.status.code, body: try await Self.text(response))
        }
        let body = response.body
        let whole = response.status.code == 200
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    // A server that ignored the range (200) sends the whole object: only the range is passed on.
                    var offset: Int64 = 0
                    for try await buffer in body {
                        let bytes = ArraySlice(buffer.readableBytesView)
                        guard whole else {
                            continuation.yield(bytes)
                            continue
                        }
                        let start = max(range.lowerBound, offset)
                        let end = min(range.upperBound, offset + Int64(bytes.count))
                        if start < end {
                            let base = bytes.startIndex
                            continuation.yield(bytes[(base + Int(start - offset))..<(base + Int(end - offset))])
                        }
                        offset += Int64(bytes.count)
                        if offset >= range.upperBound { break }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(
                        throwing: BlobStoreError.unavailable("S3 GET \(key): the transfer broke off: \(error)"))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// ListObjectsV2: every key that starts with `prefix`, page after page (`pageSize` keys a page,
    /// at most 1000).
    package func keys(prefix: String, pageSize: Int = 1000) async throws -> [String] {
        var keys: [String] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("max-keys", String(pageSize)), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send("GET", key: nil, query: query, timeout: Self.shortTimeout)
            let body = try await Self.text(response)
            guard response.status.code == 200 else {
                throw failure("GET", key: "?list-type=2&prefix=\(prefix)", status: response.status.code, body: body)
            }
            let page = ListPage(xml: Data(body.utf8))
            keys += page.keys
            token = page.truncated ? page.nextToken : nil
        } while token != nil
        return keys
    }

    /// DeleteObject; deleting a missing key is not an error (S3 answers 204 either way).
    package func delete(key: String) async throws {
        let response = try await send("DELETE", key: key, timeout: Self.shortTimeout)
        let body = try await Self.text(response)
        guard [200, 204, 404].contains(response.status.code) else {
            throw failure("DELETE", key: key, status: response.status.code, body: body)
        }
    }

    // MARK: Requests

    /// Builds, signs and sends one request; a failure to reach the server is `unavailable`.
    private func send(
        _ method: String, key: String?, query: [(String, String)] = [],
        payloadSHA256: String = SigV4Signer.emptyPayloadSHA256, body: HTTPClientRequest.Body? = nil,
        extraHeaders: [String: String] = [:], timeout: TimeAmount
    ) async throws -> HTTPClientResponse {
        // The path as SigV4 canonicalises it (each segment percent-encoded once), so the server,
        // decoding and encoding it again, signs the same string.
        let path = "/" + configuration.bucket + (key.map { "/" + $0 } ?? "")
        let encodedPath = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { SigV4Signer.encode(String($0)) }.joined(separator: "/")
        let encodedQuery = query.map { SigV4Signer.encode($0.0) + "=" + SigV4Signer.encode($0.1) }
            .joined(separator: "&")
        var headers = extraHeaders
        headers["host"] = configuration.hostHeader
        headers["x-amz-content-sha256"] = payloadSHA256
        if let token = configuration.sessionToken { headers["x-amz-security-token"] = token }
        let signature = signer.sign(
            method: method, path: path, query: query, headers: headers, payloadSHA256: payloadSHA256, date: Date())
        var request = HTTPClientRequest(
            url: configuration.scheme + "://" + configuration.hostHeader + encodedPath
                + (encodedQuery.isEmpty ? "" : "?" + encodedQuery))
        // The method's own case, not .RAW: the HTTP decoder expects no body after a HEAD's answer.
        switch method {
        case "HEAD": request.method = .HEAD
        case "PUT": request.method = .PUT
        case "DELETE": request.method = .DELETE
        default: request.method = .GET
        }
        for (name, value) in headers.merging(signature, uniquingKeysWith: { _, new in new }) {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        if let body { request.body = body }
        do {
            return try await Self.http.execute(request, timeout: timeout)
        } catch {
            throw BlobStoreError.unavailable(
                "cannot reach the object store at \(configuration.endpoint) (\(method) \(key ?? configuration.bucket)): \(error)"
            )
        }
    }

    private func failure(_ method: String, key: String?, status: UInt, body: String) -> BlobStoreError {
        .unavailable(Self.message(method, key: key, bucket: configuration.bucket, status: status, body: body))
    }

    /// `S3 PUT books/x.epub: 403 SignatureDoesNotMatch: The request signature we calculated…`.
    static func message(_ method: String, key: String?, bucket: String, status: UInt, body: String) -> String {
        let code = element("Code", in: body)
        let text = element("Message", in: body)
        var message = "S3 \(method) \(bucket)\(key.map { "/" + $0 } ?? ""): \(status)"
        if let code { message += " \(code)" }
        if let text { message += ": \(text)" }
        if code == nil, text == nil {
            switch status {
            case 403: message += " (the credentials are refused)"
            case 404: message += " (no such bucket or key)"
            default: break
            }
        }
        return message
    }

    /// The text of `<name>…</name>` in an S3 error document.
    static func element(_ name: String, in body: String) -> String? {
        guard let start = body.range(of: "<\(name)>"),
            let end = body.range(of: "</\(name)>", range: start.upperBound..<body.endIndex)
        else { return nil }
        return String(body[start.upperBound..<end.lowerBound].prefix(300))
    }

    /// A small answer's body as text (an error document, a list page): at most 8 MiB.
    static func text(_ response: HTTPClientResponse) async throws -> String {
        do {
            return String(buffer: try await response.body.collect(upTo: 8 << 20))
        } catch {
            throw BlobStoreError.unavailable("S3: the answer could not be read: \(error)")
        }
    }

    /// A file's bytes in 1 MiB buffers.
    static func chunks(of path: String) -> AsyncThrowingStream<ByteBuffer, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                    defer { try? handle.close() }
                    while !Task.isCancelled, let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
                        continuation.yield(ByteBuffer(bytes: data))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// One page of a ListObjectsV2 answer: its keys and where the next page starts.
struct ListPage {
    var keys: [String] = []
    var truncated = false
    var nextToken: String?

    init(xml: Data) {
        let reader = Reader()
        let parser = XMLParser(data: xml)
        parser.delegate = reader
        _ = parser.parse()
        keys = reader.keys
        truncated = reader.truncated
        nextToken = reader.nextToken
    }

    /// Collects `Contents/Key`, `IsTruncated` and `NextContinuationToken` (entities decoded by the parser).
    private final class Reader: NSObject, XMLParserDelegate {
        var keys: [String] = []
        var truncated = false
        var nextToken: String?
        private var path: [String] = []
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            path.append(elementName)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            switch path.suffix(2) {
            case ["Contents", "Key"]: keys.append(text)
            case ["ListBucketResult", "IsTruncated"]: truncated = text == "true"
            case ["ListBucketResult", "NextContinuationToken"]: nextToken = text
            default: break
            }
            path.removeLast()
            text = ""
        }
    }
}
