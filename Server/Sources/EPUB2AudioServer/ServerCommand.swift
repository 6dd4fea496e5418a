import ArgumentParser
import Foundation
import Hummingbird
import LiveConversion
import Logging
import ServerCore

#if canImport(Glibc)
    import Glibc
#endif

/// `epub2audio-server`: the conversion service (docs/service.md).
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "epub2audio-server", abstract: "The epub2audio conversion service.",
        subcommands: [Serve.self, Worker.self, TokenCommand.self, SectionWorker.self], defaultSubcommand: Serve.self)
}

/// Options every mode shares.
struct CommonOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Folder for the database, the books and the outputs.", valueName: "DIR"))
    var data: String

    @Option(
        help: ArgumentHelp(
            "A shared PostgreSQL job store instead of DIR's SQLite one.", valueName: "postgres://USER@HOST:PORT/DB"))
    var db: String?

    @Option(
        help: ArgumentHelp(
            "Where books and outputs are kept: an S3 bucket (credentials from AWS_ACCESS_KEY_ID and"
                + " AWS_SECRET_ACCESS_KEY, region from AWS_REGION), DIR then holding only a local working copy;"
                + " default: DIR.",
            valueName: "s3://BUCKET"))
    var store: String?

    @Option(
        name: .customLong("s3-endpoint"),
        help: ArgumentHelp(
            "The S3 endpoint (path-style addressing); default: AWS_ENDPOINT_URL, else AWS's.",
            valueName: "http[s]://HOST[:PORT]"))
    var s3Endpoint: String?

    @Option(
        help: ArgumentHelp(
            "With --store s3://: how long the outputs' presigned URLs are valid (default 900, at most 604800).",
            valueName: "SECONDS"))
    var presignSeconds: Int?

    @Option(help: ArgumentHelp("Sections made at once by this process (default: cores).", valueName: "N"))
    var slots: Int?

    @Option(
        help: ArgumentHelp(
            "Days a finished job's outputs are kept, and a book no job names after its last upload or job.",
            valueName: "DAYS"))
    var keepDays: Double = 7

    @Option(help: ArgumentHelp("Seconds a task stays a worker's without a heartbeat.", valueName: "SECONDS"))
    var lease: Double = 30

    @Option(
        help: ArgumentHelp(
            "Attempts a task gets when it fails for a passing reason (storage, network, a worker that died), "
                + "waiting 2 s, 4 s, 8 s… (at most 5 min, randomised) between them.", valueName: "N"))
    var maxAttempts: Int = RetryPolicy.defaultMaxAttempts

    @Option(
        help: ArgumentHelp(
            "Log lines as json (one object per line) or text (default: text when standard error is a terminal,"
                + " else json).", valueName: "json|text"))
    var logFormat: String?

    @Option(
        name: .customLong("callback-secret"),
        help: ArgumentHelp(
            "The key that signs the callbacks of jobs made without a token (default: EPUB2AUDIO_CALLBACK_SECRET;"
                + " without either, such jobs cannot name a callback).", valueName: "SECRET"))
    var callbackSecret: String?

    /// `--callback-secret`, else `EPUB2AUDIO_CALLBACK_SECRET` (an empty value is none).
    var serverCallbackSecret: String? {
        (callbackSecret ?? ProcessInfo.processInfo.environment["EPUB2AUDIO_CALLBACK_SECRET"])
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        if let logFormat, LogFormat(rawValue: logFormat) == nil {
            throw ValidationError("--log-format takes json or text")
        }
        if let secret = serverCallbackSecret, secret.utf8.count < CallbackConfiguration.minimumSecretBytes {
            throw ValidationError(
                "--callback-secret (or EPUB2AUDIO_CALLBACK_SECRET) must be at least "
                    + "\(CallbackConfiguration.minimumSecretBytes) bytes")
        }
        if let slots, slots < 0 { throw ValidationError("--slots must be 0 or more") }
        guard keepDays > 0 else { throw ValidationError("--keep-days must be more than 0") }
        guard lease >= 1 else { throw ValidationError("--lease must be at least 1 second") }
        guard RetryPolicy.attemptRange.contains(maxAttempts) else {
            throw ValidationError(
                "--max-attempts must be \(RetryPolicy.attemptRange.lowerBound) to \(RetryPolicy.attemptRange.upperBound)"
            )
        }
        if let store, store != "disk", !store.hasPrefix("s3://") {
            throw ValidationError("--store takes s3://BUCKET (or disk, the default)")
        }
        if s3Endpoint != nil, store == nil || store == "disk" {
            throw ValidationError("--s3-endpoint needs --store s3://BUCKET")
        }
        if let presignSeconds {
            guard store?.hasPrefix("s3://") == true else {
                throw ValidationError("--presign-seconds needs --store s3://BUCKET")
            }
            let range = S3BlobStore.presignRange
            guard range.contains(presignSeconds) else {
                throw ValidationError("--presign-seconds must be \(range.lowerBound) to \(range.upperBound)")
            }
        }
    }

    /// Every logger made from now on writes in the chosen format, with each request's id. Once per process.
    func bootstrapLogging() {
        (logFormat.flatMap(LogFormat.init(rawValue:)) ?? .automatic).bootstrap()
    }

    func services(logger: Logger) async throws -> ServiceContext {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let blobs: any BlobStore
        do {
            blobs = try openBlobStore(
                store: store, endpoint: s3Endpoint, data: data,
                presignSeconds: presignSeconds ?? S3BlobStore.defaultPresignSeconds)
        } catch let error as S3ConfigurationError {
            throw ValidationError(error.description)
        }
        if let problem = await blobs.unavailability() {
            // Not fatal: /readyz says 503 until the store answers, and tasks are retried.
            logger.warning("the blob store is not available yet: \(problem)")
        }
        let jobs = try await openJobStore(
            db: db, data: data, outputLifetime: keepDays * 24 * 3600, retries: RetryPolicy(maxAttempts: maxAttempts),
            logger: logger)
        var worker = WorkerConfiguration(
            executable: Self.executablePath, arguments: [SectionWorker.configuration.commandName ?? "section-worker"],
            slots: slots ?? ProcessInfo.processInfo.activeProcessorCount)
        worker.lease = lease
        worker.heartbeat = max(0.5, lease / 4)
        // PostgreSQL wakes idle workers when a task is queued (LISTEN/NOTIFY): they need not poll as often.
        if db != nil { worker.idlePoll = 1 }
        var context = ServiceContext(store: jobs, blobs: blobs, worker: worker, runsWorkers: slots != 0)
        context.callbacks = CallbackConfiguration(serverSecret: serverCallbackSecret)
        return context
    }

    /// This very binary: worker processes run the same code.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// `epub2audio-server [serve] --data DIR [--listen HOST:PORT]`: the API and, unless `--slots 0`, workers.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the HTTP API (and run workers unless --slots 0).")

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("Address to listen on.", valueName: "HOST:PORT"))
    var listen: String = "127.0.0.1:8080"

    // Named explicitly: the derived name of `maxUploadMiB` would be --max-upload-mi-b.
    @Option(name: .customLong("max-upload-mib"), help: ArgumentHelp("Largest book upload, in MiB.", valueName: "MIB"))
    var maxUploadMiB: Int = 200

    @Flag(help: "Require a bearer token (epub2audio-server token create) on every /v1 request.")
    var auth = false

    @Option(
        help: ArgumentHelp(
            "Requests a second each token (without --auth, each client address) may make to /v1; more get 429.",
            valueName: "N"))
    var rateLimit: Double?

    func validate() throws {
        guard ListenAddress(listen) != nil else {
            throw ValidationError("--listen takes HOST:PORT, e.g. 127.0.0.1:8080")
        }
        guard maxUploadMiB > 0 else { throw ValidationError("--max-upload-mib must be more than 0") }
        if let rateLimit, !(rateLimit > 0 && rateLimit <= 1_000_000) {
            throw ValidationError("--rate-limit takes a number of requests a second, more than 0")
        }
    }

    func run() async throws {
        common.bootstrapLogging()
        var logger = Logger(label: "epub2audio-server")
        logger.logLevel = .info
        let context = try await common.services(logger: logger)
        let address = ListenAddress(listen)!
        try await ServerApplication.run(
            context: context, host: address.host, port: address.port,
            limits: ServiceLimits(
                maxUploadBytes: Int64(maxUploadMiB) << 20, requireTokens: auth, rateLimit: rateLimit),
            logger: logger)
    }
}

/// `epub2audio-server worker --data DIR`: only the workers, beside a server on the same data folder.
struct Worker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Run tasks only (beside a server using the same --data).")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        common.bootstrapLogging()
        let logger = Logger(label: "epub2audio-worker")
        let context = try await common.services(logger: logger)
        try await ServerApplication.runWorkers(context: context, logger: logger)
    }
}

/// `epub2audio-server token create|list|revoke|rotate --data DIR …`: bearer tokens. A secret is printed
/// once, when it is made, alone on standard output (so `TOKEN=$(… token create …)` works); the store
/// keeps only its SHA-256. `create` also prints the token's callback-signing secret, once, on standard
/// error with a label (kept as it is: the server signs its jobs' callbacks with it).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Manage bearer tokens.",
        subcommands: [Create.self, List.self, Revoke.self, Rotate.self])

    /// Where the tokens are: the job store `serve` uses.
    struct StoreOptions: ParsableArguments {
        @Option(help: ArgumentHelp("Folder for the database, the books and the outputs.", valueName: "DIR"))
        var data: String

        @Option(
            help: ArgumentHelp(
                "A shared PostgreSQL job store instead of DIR's SQLite one.", valueName: "postgres://USER@HOST:PORT/DB")
        )
        var db: String?

        func open() async throws -> any JobStore {
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            return try await openJobStore(db: db, data: data, logger: Logger(label: "epub2audio-token"))
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract:
                "Create a token and print its secret (standard output) and its callback-signing secret"
                + " (standard error), shown once.")

        @OptionGroup var store: StoreOptions

        @Option(help: "A name for the token (its jobs are listed under it).")
        var name: String

        @Option(help: ArgumentHelp("Jobs of this token converted at once.", valueName: "N"))
        var maxRunning: Int = 2

        @Option(help: ArgumentHelp("Jobs of this token waiting in the queue; one more gets 429.", valueName: "N"))
        var maxQueued: Int = 20

        func validate() throws {
            guard (1...64).contains(name.utf8.count) else { throw ValidationError("--name takes 1 to 64 bytes") }
            guard maxRunning > 0, maxQueued > 0 else { throw ValidationError("the limits must be more than 0") }
        }

        func run() async throws {
            let store = try await store.open()
            let secret = TokenSecret.generate()
            let callbackSecret = TokenSecret.generate(prefix: TokenSecret.callbackPrefix)
            try await store.addToken(
                Token(name: name, maxRunning: maxRunning, maxQueued: maxQueued, callbackSecret: callbackSecret),
                secretSHA256: TokenSecret.sha256(secret),
                now: Date())
            print(secret)
            FileHandle.standardError.write(Data("callback-signing secret: \(callbackSecret)\n".utf8))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the tokens: name, created, limits, revoked (never a secret).")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let entries = try await store.open().tokens()
            print(TokenTable.render(entries))
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a token: its requests get 401 from now on; its jobs are kept, its name stays taken.")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The token's name.")
        var name: String

        func run() async throws {
            guard try await store.open().revokeToken(name: name, now: Date()) else {
                throw ValidationError("no token is named \(name) (epub2audio-server token list)")
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Give a token a new secret and print it (shown once); the old secret is refused from now on.")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The token's name.")
        var name: String

        func run() async throws {
            let secret = TokenSecret.generate()
            guard try await store.open().rotateToken(name: name, secretSHA256: TokenSecret.sha256(secret)) else {
                throw ValidationError("no token that is not revoked is named \(name) (epub2audio-server token list)")
            }
            print(secret)
        }
    }
}

/// `token list`'s table: one line per token, columns aligned, dates in UTC (ISO 8601).
enum TokenTable {
    static func render(_ entries: [TokenEntry]) -> String {
        let rows =
            [["NAME", "CREATED", "MAX-RUNNING", "MAX-QUEUED", "REVOKED"]]
            + entries.map { entry in
                [
                    entry.token.name, entry.created.formatted(.iso8601), String(entry.token.maxRunning),
                    String(entry.token.maxQueued), entry.revoked?.formatted(.iso8601) ?? "-",
                ]
            }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}

/// `epub2audio-server section-worker` (hidden): the library's worker process, as `epub2audio worker`.
struct SectionWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "section-worker", abstract: "Internal: a conversion worker process.", shouldDisplay: false)

    func run() throws {
        let status = LiveWorker.run()
        if status != 0 { throw ExitCode(status) }
    }
}

/// `HOST:PORT`.
struct ListenAddress {
    var host: String
    var port: Int

    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port), colon > text.startIndex
        else { return nil }
        host = String(text[..<colon])
        self.port = port
    }
}
