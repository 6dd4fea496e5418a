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

    @Option(help: ArgumentHelp("Days a finished job's outputs are kept.", valueName: "DAYS"))
    var keepDays: Double = 7

    @Option(help: ArgumentHelp("Seconds a task stays a worker's without a heartbeat.", valueName: "SECONDS"))
    var lease: Double = 30

    @Option(
        help: ArgumentHelp(
            "Attempts a task gets when it fails for a passing reason (storage, network, a worker that died), "
                + "waiting 2 s, 4 s, 8 s… (at most 5 min, randomised) between them.", valueName: "N"))
    var maxAttempts: Int = RetryPolicy.defaultMaxAttempts

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

    func validate() throws {
        guard ListenAddress(listen) != nil else {
            throw ValidationError("--listen takes HOST:PORT, e.g. 127.0.0.1:8080")
        }
        guard maxUploadMiB > 0 else { throw ValidationError("--max-upload-mib must be more than 0") }
    }

    func run() async throws {
        var logger = Logger(label: "epub2audio-server")
        logger.logLevel = .info
        let context = try await common.services(logger: logger)
        let address = ListenAddress(listen)!
        try await ServerApplication.run(
            context: context, host: address.host, port: address.port,
            limits: ServiceLimits(maxUploadBytes: Int64(maxUploadMiB) << 20, requireTokens: auth), logger: logger)
    }
}

/// `epub2audio-server worker --data DIR`: only the workers, beside a server on the same data folder.
struct Worker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Run tasks only (beside a server using the same --data).")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = Logger(label: "epub2audio-worker")
        let context = try await common.services(logger: logger)
        try await ServerApplication.runWorkers(context: context, logger: logger)
    }
}

/// `epub2audio-server token create --data DIR --name NAME`: a bearer token, printed once alone on
/// standard output, as before callbacks, so `TOKEN=$(… token create …)` keeps working (the store
/// keeps only its SHA-256); and its callback-signing secret, printed once on standard error with a
/// label (kept as it is in the tokens table: the server signs its jobs' callbacks with it).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Manage bearer tokens.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract:
                "Create a token and print its secret (standard output) and its callback-signing secret"
                + " (standard error), shown once.")

        @Option(help: ArgumentHelp("Folder for the database, the books and the outputs.", valueName: "DIR"))
        var data: String

        @Option(
            help: ArgumentHelp(
                "A shared PostgreSQL job store instead of DIR's SQLite one.", valueName: "postgres://USER@HOST:PORT/DB")
        )
        var db: String?

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
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let store = try await openJobStore(db: db, data: data, logger: Logger(label: "epub2audio-token"))
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
