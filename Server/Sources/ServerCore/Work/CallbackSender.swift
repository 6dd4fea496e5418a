import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore

/// How callbacks are signed: HMAC-SHA256, keyed with the UTF-8 bytes of the secret, over
/// `timestamp + "." + body`, sent as `X-Epub2audio-Signature: sha256=<hex>` beside
/// `X-Epub2audio-Timestamp: <seconds since 1970>` (docs/service.md, "Callbacks", says how a receiver
/// checks both and refuses replays).
package enum CallbackSignature {
    /// The header holding the time of signing, in seconds since 1970.
    package static let timestampHeader = "X-Epub2audio-Timestamp"
    /// The header holding `sha256=` and the signature in lower-case hex.
    package static let signatureHeader = "X-Epub2audio-Signature"

    /// The value of `signatureHeader` for `body` sent at `timestamp`.
    package static func signature(body: some Sequence<UInt8>, timestamp: Int, secret: String) -> String {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: Array(secret.utf8)))
        mac.update(data: Array("\(timestamp).".utf8))
        mac.update(data: Array(body))
        return "sha256=" + mac.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// What a `CallbackSender` needs besides the store.
package struct CallbackConfiguration: Sendable {
    /// The key of jobs made without a token (`--callback-secret`); nil: they cannot name a callback.
    package var serverSecret: String?
    /// Attempts and backoff: 10 attempts, waits drawn up to 5 s, 10 s, … 10 min (about 30 minutes
    /// at most in all).
    package var retries = RetryPolicy(maxAttempts: 10, base: 5, cap: 600)
    /// Seconds between looks at the store when nothing is due.
    package var idlePoll: TimeInterval = 1
    /// The longest a receiver may take to accept the connection, in seconds.
    package var connectTimeout: TimeInterval = 5
    /// The longest a whole attempt may take, in seconds.
    package var requestTimeout: TimeInterval = 10

    package init(serverSecret: String? = nil) {
        self.serverSecret = serverSecret
    }

    /// How long a claimed callback is held: past the attempt's timeout, so that only a sender that
    /// died lets another take it.
    var lease: TimeInterval { requestTimeout * 3 + 5 }

    /// The shortest `--callback-secret`: 16 bytes are 128 bits when random.
    package static let minimumSecretBytes = 16

    /// The key for a delivery: its token's, or the server's for a job made without a token (a token
    /// made before callbacks existed has none, and its jobs never get another token's or the server's).
    func secret(for delivery: CallbackDelivery) -> String? {
        delivery.owner == nil ? serverSecret : delivery.tokenSecret
    }
}

/// Sends the job callbacks the store holds as pending: the job document, as `GET /v1/jobs/{id}`
/// answers it, POSTed to the URL the job named (and nowhere else: redirects are not followed),
/// signed (`CallbackSignature`); a non-2xx answer or no answer is tried again after a backoff
/// (`CallbackConfiguration.retries`), the last failure marks it failed. One at a time per sender.
///
/// Owns its HTTP client: `shutdown()` once `run()` has returned.
package final class CallbackSender: Sendable {
    private let store: any JobStore
    /// Gives the outputs their URLs in the document, as the API does (`BlobStore.outputURL`).
    private let blobs: (any BlobStore)?
    private let configuration: CallbackConfiguration
    private let client: HTTPClient
    private let logger: Logger

    package init(
        store: any JobStore, blobs: (any BlobStore)? = nil, configuration: CallbackConfiguration, logger: Logger
    ) {
        self.store = store
        self.blobs = blobs
        self.configuration = configuration
        self.logger = logger
        var http = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .milliseconds(Int64(configuration.connectTimeout * 1000)),
                read: .milliseconds(Int64(configuration.requestTimeout * 1000))))
        http.decompression = .disabled
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    /// Sends what is due until the calling task is cancelled; store errors (an outage) are logged
    /// and tried again at the next look.
    package func run() async {
        while !Task.isCancelled {
            var sent = false
            do {
                sent = try await deliverNext(now: Date())
            } catch {
                logger.warning("callbacks: \(error)")
            }
            if !sent { try? await Task.sleep(for: .milliseconds(Int64(configuration.idlePoll * 1000))) }
        }
    }

    /// Closes the HTTP client.
    package func shutdown() async throws {
        try await client.shutdown()
    }

    /// Makes one attempt at the callback due longest ago; false when none is due.
    @discardableResult
    package func deliverNext(now: Date) async throws -> Bool {
        guard let delivery = try await store.claimCallback(lease: configuration.lease, now: now) else { return false }
        let problem: String?
        if let secret = configuration.secret(for: delivery) {
            problem = await attempt(delivery, secret: secret)
        } else {
            problem = "no callback-signing secret (--callback-secret, or the token's) to sign it with"
        }
        let outcome: CallbackOutcome
        if let problem {
            let last = !configuration.retries.retries(after: delivery.attempt) || !configuration.canSign(delivery)
            let retryAt = Date().addingTimeInterval(configuration.retries.delay(after: delivery.attempt))
            outcome = .failed(problem, retryAt: last ? nil : retryAt)
            logger.info("callback of job \(delivery.jobID), attempt \(delivery.attempt): \(problem)")
        } else {
            outcome = .delivered
        }
        try await store.settleCallback(delivery, outcome: outcome, now: Date())
        return true
    }

    /// POSTs the job document; nil when the receiver answered 2xx, else what went wrong.
    private func attempt(_ delivery: CallbackDelivery, secret: String) async -> String? {
        do {
            guard let job = try await store.job(id: delivery.jobID) else { return "the job is gone" }
            let body = try Self.document(job, blobs: blobs)
            let timestamp = Int(Date().timeIntervalSince1970)
            var request = HTTPClientRequest(url: delivery.url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "epub2audio-server")
            request.headers.add(name: CallbackSignature.timestampHeader, value: String(timestamp))
            request.headers.add(
                name: CallbackSignature.signatureHeader,
                value: CallbackSignature.signature(body: body, timestamp: timestamp, secret: secret))
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await client.execute(
                request, timeout: .milliseconds(Int64(configuration.requestTimeout * 1000)), logger: logger)
            // The answer's body is not wanted: a small part is read so the connection can be reused.
            _ = try? await response.body.collect(upTo: 64 << 10)
            guard (200..<300).contains(response.status.code) else { return "HTTP \(response.status.code)" }
            return nil
        } catch {
            return Self.readable(error)
        }
    }

    /// The job document as `GET /v1/jobs/{id}` answers it (the outputs' presigned URLs too, when
    /// `blobs` has them): JSON, keys sorted, dates in ISO 8601.
    static func document(_ job: JobRecord, blobs: (any BlobStore)?) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let now = Date()
        let document = ServiceAPI.job(job) { try? blobs?.outputURL(jobID: job.key, name: $0.name, now: now) }
        return Array(try encoder.encode(document))
    }

    /// What a failed attempt says in the job document: short, without Swift type names.
    static func readable(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "the receiver did not accept the connection in time"
            case .deadlineExceeded, .readTimeout: return "the receiver did not answer in time"
            case .remoteConnectionClosed: return "the receiver closed the connection"
            default: break
            }
        }
        let text = String(describing: error)
        return "the request failed: " + String(text.prefix { $0 != "\n" }.prefix(300))
    }
}

extension CallbackConfiguration {
    /// False when no secret can sign the delivery: trying again cannot help.
    func canSign(_ delivery: CallbackDelivery) -> Bool { secret(for: delivery) != nil }
}
