import Foundation

/// Where a job's callback stands: waiting for the job to finish, pending (to be sent, or sent again
/// after its backoff), delivered (a 2xx answer), or failed (every attempt refused or unanswered).
package enum CallbackState: String, Sendable, Codable, CaseIterable {
    case waiting, pending, delivered, failed
}

/// A job's callback as the store keeps it: the URL the request named, and its delivery so far.
package struct CallbackRecord: Sendable, Equatable {
    package var url: String
    package var state: CallbackState
    /// Attempts started so far.
    package var attempts: Int
    /// What the last failed attempt said (an HTTP status, a connection error).
    package var lastError: String?
    /// When the next attempt may start (a pending delivery).
    package var nextAttempt: Date?
    /// When a receiver took it.
    package var delivered: Date?

    package init(
        url: String, state: CallbackState, attempts: Int = 0, lastError: String? = nil, nextAttempt: Date? = nil,
        delivered: Date? = nil
    ) {
        self.url = url
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.nextAttempt = nextAttempt
        self.delivered = delivered
    }
}

/// A callback a sender holds: attempt `attempt` of the job `jobID`'s delivery. Until it settles, no
/// other sender takes it for `CallbackQueue.claimCallback`'s lease; a sender that dies meanwhile
/// leaves it to be taken again once the lease is over.
package struct CallbackDelivery: Sendable, Equatable {
    /// The job's store key (`JobRecord.key`).
    package var jobID: String
    package var url: String
    /// 1 for the first attempt.
    package var attempt: Int
    /// The name of the token that made the job; nil without `--auth`.
    package var owner: String?
    /// The token's callback-signing secret; nil for a job made without a token, or by a token made
    /// before callbacks existed.
    package var tokenSecret: String?
}

/// How an attempt to deliver a callback ended.
package enum CallbackOutcome: Sendable, Equatable {
    /// The receiver answered 2xx.
    case delivered
    /// The receiver refused or did not answer; `retryAt` is when to try again, nil when this was the
    /// last attempt.
    case failed(String, retryAt: Date?)
}

/// The callbacks waiting to be sent: each job that names one gets a row when it is created; the
/// transaction that finishes the job (succeeded, or failed for good: `JobLifecycle.Transition.callsBack`)
/// makes it pending, so a delivery survives a restart of every process.
package protocol CallbackQueue: Sendable {
    /// Takes the pending callback due longest ago, if any, counting an attempt, and holds it for `lease`
    /// seconds (no other sender takes it meanwhile).
    func claimCallback(lease: TimeInterval, now: Date) async throws -> CallbackDelivery?
    /// Records how the attempt ended; nothing changes when the attempt no longer holds the callback
    /// (its lease ran out and another attempt started).
    func settleCallback(_ delivery: CallbackDelivery, outcome: CallbackOutcome, now: Date) async throws
}

/// The URL a job may name for its callback: absolute http or https with a host, at most `maxBytes`.
package enum CallbackURL {
    /// The longest callback URL: enough for any receiver's path and query, small in the job's row.
    package static let maxBytes = 2048

    /// Why `url` cannot be a callback, or nil when it can.
    package static func problem(_ url: String) -> String? {
        guard (1...maxBytes).contains(url.utf8.count) else {
            return "callback must be an http or https URL of at most \(maxBytes) bytes"
        }
        guard !url.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }),
            let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            return "callback must be an absolute http or https URL with a host (https://example.com/hook)"
        }
        return nil
    }
}

/// What both stores write for a settled attempt, and read back into a `CallbackRecord`.
struct CallbackChange {
    var state: CallbackState
    /// Seconds since 1970.
    var notBefore: Double?
    /// Written when not nil (a delivery keeps the last failure's message).
    var error: String?
    var delivered: Double?

    init(_ outcome: CallbackOutcome, now: Date) {
        switch outcome {
        case .delivered:
            self.init(state: .delivered, notBefore: nil, error: nil, delivered: now.timeIntervalSince1970)
        case .failed(let message, let retryAt?):
            self.init(state: .pending, notBefore: retryAt.timeIntervalSince1970, error: message, delivered: nil)
        case .failed(let message, nil):
            self.init(state: .failed, notBefore: nil, error: message, delivered: nil)
        }
    }

    init(state: CallbackState, notBefore: Double?, error: String?, delivered: Double?) {
        self.state = state
        self.notBefore = notBefore
        self.error = error
        self.delivered = delivered
    }

    /// A stored row as a record: the next attempt only while pending.
    static func record(
        url: String, state: String, attempts: Int, notBefore: Double?, lastError: String?, delivered: Double?
    ) -> CallbackRecord {
        let state = CallbackState(rawValue: state) ?? .failed
        return CallbackRecord(
            url: url, state: state, attempts: attempts, lastError: lastError,
            nextAttempt: state == .pending ? notBefore.map(Date.init(timeIntervalSince1970:)) : nil,
            delivered: delivered.map(Date.init(timeIntervalSince1970:)))
    }
}
