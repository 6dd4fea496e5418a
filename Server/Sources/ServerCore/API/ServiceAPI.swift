import Crypto
import Foundation
import Logging
import OpenAPIRuntime

/// The handlers of openapi.yaml: requests and responses are the generated types; every identifier
/// is validated before it reaches a store.
struct ServiceAPI: APIProtocol {
    let context: ServiceContext
    let limits: ServiceLimits
    let logger: Logger

    private var store: any JobStore { context.store }
    private var blobs: any BlobStore { context.blobs }

    // MARK: Service

    func health(_ input: Operations.health.Input) async throws -> Operations.health.Output {
        .ok(.init(body: .json(.init(status: "ok"))))
    }

    func ready(_ input: Operations.ready.Input) async throws -> Operations.ready.Output {
        if let problem = await blobs.unavailability() {
            return .serviceUnavailable(.init(body: .json(.init("unavailable", problem))))
        }
        guard await store.isReady() else {
            return .serviceUnavailable(
                .init(body: .json(.init("unavailable", "the job store does not answer"))))
        }
        return .ok(.init(body: .json(.init(status: "ready"))))
    }

    func metrics(_ input: Operations.metrics.Input) async throws -> Operations.metrics.Output {
        .ok(.init(body: .plainText(HTTPBody(try await context.metrics.exposition(store: store)))))
    }

    func listVoices(_ input: Operations.listVoices.Input) async throws -> Operations.listVoices.Output {
        let espeak = ConversionAdapter.voices().map {
            Components.Schemas.Voice(identifier: $0.identifier, name: $0.name, languages: $0.languages, engine: .espeak)
        }
        let neural = ConversionAdapter.neuralVoices().map {
            Components.Schemas.Voice(
                identifier: $0.identifier, name: $0.name, languages: [$0.language], engine: .neural,
                sampleRate: $0.sampleRate, quality: $0.quality.isEmpty ? nil : $0.quality)
        }
        return .ok(.init(body: .json(.init(voices: espeak + neural))))
    }

    // MARK: Books

    func putBook(_ input: Operations.putBook.Input) async throws -> Operations.putBook.Output {
        let sha = input.path.sha256
        guard Identifiers.isSHA256(sha) else {
            return .badRequest(.init("bad-request", "the book's name must be its SHA-256: 64 lower-case hex digits"))
        }
        let body: HTTPBody
        switch input.body {
        case .application_epub_plus_zip(let content): body = content
        case .binary(let content): body = content
        }
        if case .known(let length) = body.length, length > limits.maxUploadBytes {
            return .contentTooLarge(
                .init("too-large", "the book is \(length) bytes; the limit is \(limits.maxUploadBytes)"))
        }
        if let size = try await blobs.bookSize(sha256: sha), try await store.hasBook(sha256: sha) {
            // Idempotent: the stored book is kept; the bytes sent are hashed (not stored) so that
            // other bytes under its name are refused as they would be for a new book.
            let sent = try await Self.digest(body, limit: limits.maxUploadBytes)
            guard let sent else {
                return .contentTooLarge(
                    .init("too-large", BlobStoreError.tooLarge(limit: limits.maxUploadBytes).description))
            }
            guard sent == sha else {
                return .unprocessableContent(
                    .init("hash-mismatch", BlobStoreError.hashMismatch(expected: sha, actual: sent).description))
            }
            // Uploading it again is a use: it does not expire for --keep-days.
            _ = try await store.addBook(sha256: sha, size: size)
            return .ok(.init(body: .json(.init(sha256: sha, size: size))))
        }
        do {
            let size = try await blobs.putBook(sha256: sha, body: body, limit: limits.maxUploadBytes)
            _ = try await store.addBook(sha256: sha, size: size)
            return .created(.init(body: .json(.init(sha256: sha, size: size))))
        } catch let error as BlobStoreError {
            switch error {
            case .tooLarge: return .contentTooLarge(.init("too-large", error.description))
            case .hashMismatch: return .unprocessableContent(.init("hash-mismatch", error.description))
            case .invalidName: return .badRequest(.init("bad-request", error.description))
            // 503 (JSONErrorMiddleware): the store of record cannot be reached.
            case .unavailable: throw error
            }
        }
    }

    func getBook(_ input: Operations.getBook.Input) async throws -> Operations.getBook.Output {
        let sha = input.path.sha256
        guard Identifiers.isSHA256(sha) else {
            return .badRequest(.init("bad-request", "the book's name must be its SHA-256: 64 lower-case hex digits"))
        }
        guard try await blobs.bookSize(sha256: sha) != nil else {
            return .notFound(.init("not-found", "no book \(sha)"))
        }
        let bookPath = try await blobs.localBook(sha256: sha)
        let data: Data
        do {
            data = try ConversionAdapter.listing(bookPath: bookPath, displayName: sha)
        } catch {
            return .unprocessableContent(.init("unreadable-book", "the book cannot be read: \(error)"))
        }
        let listing = try JSONDecoder().decode(Components.Schemas.BookListing.self, from: data)
        return .ok(.init(body: .json(listing)))
    }

    // MARK: Jobs

    func listJobs(_ input: Operations.listJobs.Input) async throws -> Operations.listJobs.Output {
        let limit = input.query.limit ?? 100
        guard (1...1000).contains(limit) else { return .badRequest(.init("bad-request", "limit must be 1 to 1000")) }
        var cursor: JobCursor?
        if let text = input.query.cursor {
            guard let parsed = JobCursor(text: text) else {
                return .badRequest(.init("bad-request", "cursor must be the next of a page this server gave"))
            }
            cursor = parsed
        }
        let page = try await store.jobs(
            owner: RequestIdentity.token?.name, state: input.query.state.flatMap { JobState(rawValue: $0.rawValue) },
            after: cursor, limit: limit)
        return .ok(.init(body: .json(.init(jobs: page.jobs.map(document), next: page.next?.text))))
    }

    func createJob(_ input: Operations.createJob.Input) async throws -> Operations.createJob.Output {
        guard case .json(let request) = input.body else {
            return .badRequest(.init("bad-request", "a JSON body is required"))
        }
        if let key = input.headers.Idempotency_hyphen_Key, key.isEmpty || key.utf8.count > 128 {
            return .badRequest(.init("bad-request", "Idempotency-Key must be 1 to 128 characters"))
        }
        let id = UUID().uuidString.lowercased()
        switch try await create(id: id, request: request, key: input.headers.Idempotency_hyphen_Key) {
        case .created(let job): return .created(.init(body: .json(job)))
        case .existing(let job): return .ok(.init(body: .json(job)))
        case .bad(let error): return .badRequest(error)
        case .notFound(let error): return .notFound(error)
        case .conflict(let error): return .conflict(error)
        case .tooMany(let error): return .tooManyRequests(error)
        }
    }

    func putJob(_ input: Operations.putJob.Input) async throws -> Operations.putJob.Output {
        guard Identifiers.isJobID(input.path.id) else { return .badRequest(Self.badJobID) }
        guard case .json(let request) = input.body else {
            return .badRequest(.init("bad-request", "a JSON body is required"))
        }
        switch try await create(id: input.path.id, request: request, key: nil) {
        case .created(let job): return .created(.init(body: .json(job)))
        case .existing(let job): return .ok(.init(body: .json(job)))
        case .bad(let error): return .badRequest(error)
        case .notFound(let error): return .notFound(error)
        case .conflict(let error): return .conflict(error)
        case .tooMany(let error): return .tooManyRequests(error)
        }
    }

    func getJob(_ input: Operations.getJob.Input) async throws -> Operations.getJob.Output {
        guard Identifiers.isJobID(input.path.id) else { return .badRequest(Self.badJobID) }
        guard let job = try await visibleJob(input.path.id) else { return .notFound(Self.noJob(input.path.id)) }
        return .ok(.init(body: .json(document(job))))
    }

    func deleteJob(_ input: Operations.deleteJob.Input) async throws -> Operations.deleteJob.Output {
        let id = input.path.id
        guard Identifiers.isJobID(id) else { return .badRequest(Self.badJobID) }
        guard let job = try await visibleJob(id) else { return .notFound(Self.noJob(id)) }
        // Cancel first: a worker making one of its sections stops at its next heartbeat.
        _ = try await store.cancelJob(id: job.key, now: Date())
        // The files before the row: when the bucket cannot be reached (503), the job is still listed
        // and DELETE can be tried again, instead of leaving objects nothing names.
        try await blobs.removeJob(job.key)
        _ = try await store.deleteJob(id: job.key)
        return .noContent(.init())
    }

    func cancelJob(_ input: Operations.cancelJob.Input) async throws -> Operations.cancelJob.Output {
        guard Identifiers.isJobID(input.path.id) else { return .badRequest(Self.badJobID) }
        guard let visible = try await visibleJob(input.path.id),
            let job = try await store.cancelJob(id: visible.key, now: Date())
        else {
            return .notFound(Self.noJob(input.path.id))
        }
        return .ok(.init(body: .json(document(job))))
    }

    func retryJob(_ input: Operations.retryJob.Input) async throws -> Operations.retryJob.Output {
        guard Identifiers.isJobID(input.path.id) else { return .badRequest(Self.badJobID) }
        guard let visible = try await visibleJob(input.path.id),
            let (job, retried) = try await store.retryJob(id: visible.key, now: Date())
        else {
            return .notFound(Self.noJob(input.path.id))
        }
        guard retried else {
            let why = job.state == .failed ? "has no failed task" : "is \(job.state.rawValue), not failed"
            return .conflict(
                .init(body: .json(.init("conflict", "job \(input.path.id) \(why): nothing to retry"))))
        }
        return .ok(.init(body: .json(document(job))))
    }

    func jobEvents(_ input: Operations.jobEvents.Input) async throws -> Operations.jobEvents.Output {
        let id = input.path.id
        guard Identifiers.isJobID(id) else { return .badRequest(Self.badJobID) }
        var after: Int64 = 0
        if let last = input.headers.Last_hyphen_Event_hyphen_ID {
            guard let value = Int64(last), value >= 0 else {
                return .badRequest(.init("bad-request", "Last-Event-ID must be an event id (digits)"))
            }
            after = value
        }
        guard let job = try await visibleJob(id) else { return .notFound(Self.noJob(id)) }
        let stream = EventStream(store: store, jobID: job.key, after: after, shutdown: context.shutdown)
        return .ok(
            .init(
                body: .text_event_hyphen_stream(HTTPBody(stream.chunks(), length: .unknown, iterationBehavior: .single))
            ))
    }

    func getOutput(_ input: Operations.getOutput.Input) async throws -> Operations.getOutput.Output {
        let id = input.path.id
        let name = input.path.name
        guard Identifiers.isJobID(id) else { return .badRequest(Self.badJobID) }
        // Only a name the job lists reaches the file system.
        guard let job = try await visibleJob(id), let output = job.outputs.first(where: { $0.name == name }) else {
            return .notFound(.init("not-found", "job \(id) has no output named '\(name)'"))
        }
        let key = job.key
        guard let size = try await blobs.outputSize(jobID: key, name: output.name) else {
            return .notFound(.init("not-found", "the output '\(name)' of job \(id) is gone (expired?)"))
        }
        // Straight from the bucket when the store has URLs for it; else the bytes, as without redirect.
        if input.query.redirect == 1, let url = try blobs.outputURL(jobID: key, name: output.name, now: Date()) {
            return .found(.init(headers: .init(Location: url)))
        }
        let blobs = self.blobs
        let whole = {
            Operations.getOutput.Output.ok(
                .init(
                    headers: .init(Accept_hyphen_Ranges: "bytes"),
                    body: .binary(try await blobs.outputBody(jobID: key, name: output.name, range: 0..<size))))
        }
        guard let header = input.headers.Range else { return try await whole() }
        switch ByteRange.parse(header, size: size) {
        case .none:
            return try await whole()
        case .unsatisfiable:
            return .rangeNotSatisfiable(
                .init(
                    headers: .init(Content_hyphen_Range: "bytes */\(size)"),
                    body: .json(.init("range-not-satisfiable", "the file has \(size) bytes"))))
        case .range(let range):
            return .partialContent(
                .init(
                    headers: .init(Content_hyphen_Range: "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"),
                    body: .binary(try await blobs.outputBody(jobID: key, name: output.name, range: range))))
        }
    }

    // MARK: Helpers

    /// The SHA-256 of a body, in hex, read as it streams; nil past `limit` bytes.
    static func digest(_ body: HTTPBody, limit: Int64) async throws -> String? {
        var hasher = Crypto.SHA256()
        var size: Int64 = 0
        for try await chunk in body {
            size += Int64(chunk.count)
            if size > limit { return nil }
            chunk.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The job, when the request's token (if any) made it: another token's job does not exist for it.
    private func visibleJob(_ id: String) async throws -> JobRecord? {
        // Ids are each token's own (no token: the jobs made without one).
        try await store.job(named: id, owner: RequestIdentity.token?.name)
    }

    private enum Creation {
        case created(Components.Schemas.Job)
        case existing(Components.Schemas.Job)
        case bad(Components.Responses.BadRequest)
        case notFound(Components.Responses.NotFound)
        case conflict(Components.Responses.Conflict)
        case tooMany(Components.Responses.TooManyRequests)
    }

    private func create(id: String, request: Components.Schemas.JobRequest, key: String?) async throws -> Creation {
        guard Identifiers.isSHA256(request.book) else {
            return .bad(.init("bad-request", "book must be the SHA-256 of an uploaded book"))
        }
        let priority = request.priority ?? 0
        guard JobPriority.range.contains(priority) else {
            return .bad(
                .init(
                    "bad-request",
                    "priority must be \(JobPriority.range.lowerBound) to \(JobPriority.range.upperBound) (higher first)"
                ))
        }
        let options: JobOptions
        do {
            options = try Self.options(request.options)
            try ConversionAdapter.validate(options)
        } catch {
            return .bad(.init("bad-request", "\(error)"))
        }
        if let problem = request.callback.flatMap(callbackProblem) { return .bad(.init("bad-request", problem)) }
        do {
            let (job, created) = try await store.createJob(
                NewJob(
                    id: id, book: request.book, options: options, idempotencyKey: key, owner: RequestIdentity.token,
                    priority: priority, callback: request.callback),
                now: Date())
            return created ? .created(document(job)) : .existing(document(job))
        } catch let error as JobStoreError {
            switch error {
            case .conflict: return .conflict(.init("conflict", error.description))
            case .bookNotFound: return .notFound(.init("not-found", error.description))
            case .tooManyQueued: return .tooMany(.init(limits.retryAfterSeconds, error.description))
            case .tokenExists: return .conflict(.init("conflict", error.description))
            // 503 with Retry-After (JSONErrorMiddleware).
            case .unavailable: throw error
            }
        }
    }

    /// Why the job cannot call `url` back: not an http(s) URL (`CallbackURL`), or no secret to sign
    /// its callbacks with (the token's; without a token, `--callback-secret`); nil when it can.
    private func callbackProblem(_ url: String) -> String? {
        if let problem = CallbackURL.problem(url) { return problem }
        if let token = RequestIdentity.token {
            guard token.callbackSecret != nil else {
                return "token \(token.name) has no callback-signing secret (made before callbacks): "
                    + "create a new token to name a callback"
            }
        } else if context.callbacks.serverSecret == nil {
            return "this server has no callback-signing secret (--callback-secret): a job cannot name a callback"
        }
        return nil
    }

    /// The request's options with the CLI's defaults, checked against the CLI's ranges.
    static func options(_ given: Components.Schemas.JobOptions?) throws -> JobOptions {
        var options = JobOptions()
        guard let given else { return options }
        if let chapters = given.chapters {
            guard !chapters.isEmpty, chapters.count <= 10_000, chapters.allSatisfy({ (1...1_000_000).contains($0) })
            else {
                throw ConversionAdapter.Failure(description: "chapters must be 1 to 10,000 section numbers from 1")
            }
            options.chapters = Array(Set(chapters)).sorted()
        }
        if let voice = given.voice {
            // Only bounded here: which names are voices is the library's to say (`LiveVoices.resolve`,
            // as for the CLI's --voice), so every identifier GET /v1/voices lists (`gmw/en`) is one.
            guard (1...64).contains(voice.utf8.count),
                !voice.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw ConversionAdapter.Failure(
                    description: "voice must be a voice GET /v1/voices lists (identifier or name), a language, or auto")
            }
            options.voice = voice
        }
        if let engine = given.engine, engine != .auto { options.engine = engine.rawValue }
        if let rate = given.rate {
            guard (80...450).contains(rate) else {
                throw ConversionAdapter.Failure(description: "rate must be 80 to 450")
            }
            options.rate = rate
        }
        if let pitch = given.pitch {
            guard (0...100).contains(pitch) else {
                throw ConversionAdapter.Failure(description: "pitch must be 0 to 100")
            }
            options.pitch = pitch
        }
        if let volume = given.volume {
            guard (0...200).contains(volume) else {
                throw ConversionAdapter.Failure(description: "volume must be 0 to 200")
            }
            options.volume = volume
        }
        if let format = given.format { options.format = format.rawValue }
        if let notes = given.notes { options.notes = notes.rawValue }
        if let bundle = given.bundle { options.bundle = bundle.rawValue }
        // As the CLI: the read-along book's sections are MP3 unless the job says otherwise.
        if given.format == nil, options.bundle == ConversionAdapter.readAlongBundle { options.format = "mp3" }
        if let subtitles = given.subtitles { options.subtitles = subtitles.rawValue }
        if given.subtitlesWords == true {
            guard options.subtitles == "vtt" else {
                throw ConversionAdapter.Failure(
                    description: "subtitlesWords needs subtitles vtt: SRT cannot time a word inside a cue")
            }
            options.subtitlesWords = true
        }
        return options
    }

    /// The job document, each output with its URL in the store of record when the store has one.
    private func document(_ record: JobRecord) -> Components.Schemas.Job {
        let blobs = self.blobs
        let now = Date()
        return Self.job(record) { try? blobs.outputURL(jobID: record.key, name: $0.name, now: now) }
    }

    /// The job document; `url` gives an output's URL (`Output.url`), if any.
    static func job(_ record: JobRecord, url: (OutputRecord) -> String? = { _ in nil }) -> Components.Schemas.Job {
        let options = record.options
        return Components.Schemas.Job(
            id: record.id, book: record.book,
            options: .init(
                chapters: options.chapters, voice: options.voice,
                engine: options.engine.flatMap { .init(rawValue: $0) }, rate: options.rate, pitch: options.pitch,
                volume: options.volume, format: .init(rawValue: options.format), notes: .init(rawValue: options.notes),
                bundle: options.bundle.flatMap { .init(rawValue: $0) },
                subtitles: options.subtitles.flatMap { .init(rawValue: $0) }, subtitlesWords: options.subtitlesWords),
            priority: record.priority,
            state: .init(rawValue: record.state.rawValue) ?? .failed,
            sections: .init(
                total: record.sections.total, queued: record.sections.queued, running: record.sections.running,
                done: record.sections.done, failed: record.sections.failed),
            audioSeconds: record.audioSeconds,
            outputs: record.outputs.map { .init(name: $0.name, size: $0.size, sha256: $0.sha256, url: url($0)) },
            error: record.error, created: record.created, updated: record.updated, expires: record.expires,
            failures: record.failures.isEmpty
                ? nil
                : record.failures.map {
                    .init(
                        task: .init(rawValue: $0.kind.rawValue) ?? .section, section: $0.section, final: $0.isFinal,
                        attempts: $0.attempts, error: $0.error, retryAt: $0.retryAt)
                },
            callback: record.callback.map {
                .init(
                    url: $0.url, state: .init(rawValue: $0.state.rawValue) ?? .failed, attempts: $0.attempts,
                    lastError: $0.lastError, nextAttempt: $0.nextAttempt, delivered: $0.delivered)
            })
    }

    static var badJobID: Components.Responses.BadRequest {
        .init("bad-request", "a job id is 1 to 64 letters, digits, '_' or '-', starting with a letter or digit")
    }

    static func noJob(_ id: String) -> Components.Responses.NotFound {
        .init("not-found", "no job \(id)")
    }
}

// Every error body names the request (`requestId`, as in `X-Request-Id`).
extension Components.Schemas._Error {
    init(_ code: String, _ message: String) {
        self.init(error: code, message: message, requestId: RequestTrace.current?.id)
    }
}

// One initialiser per error response of openapi.yaml: `.notFound(.init("not-found", "no job x"))`.
extension Components.Responses.BadRequest {
    init(_ code: String, _ message: String) { self.init(body: .json(.init(code, message))) }
}

extension Components.Responses.NotFound {
    init(_ code: String, _ message: String) { self.init(body: .json(.init(code, message))) }
}

extension Components.Responses.Conflict {
    init(_ code: String, _ message: String) { self.init(body: .json(.init(code, message))) }
}

extension Components.Responses.TooLarge {
    init(_ code: String, _ message: String) { self.init(body: .json(.init(code, message))) }
}

extension Components.Responses.Unprocessable {
    init(_ code: String, _ message: String) { self.init(body: .json(.init(code, message))) }
}

extension Components.Responses.TooManyRequests {
    init(_ retryAfter: Int, _ message: String) {
        self.init(
            headers: .init(Retry_hyphen_After: retryAfter),
            body: .json(.init("too-many-requests", message)))
    }
}
